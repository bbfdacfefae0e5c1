import type { MiddlewareHandler } from "hono";
import type { ApiEnv } from "./context";
import { forbidden } from "./errors";
import type { CurrentUser } from "./current-user";

/**
 * Who may do what: the one permission table (docs/decisions/0005-hardening.md explains each cell). Every API
 * route asks it through `requireCan` and `assertCan`; later features add rows here rather than checks of
 * their own.
 *
 * An organisation admin holds a capability in every gym of the organisation. A gym admin and a personal
 * trainer hold it only in the gyms where they have that role, so a gym admin of one gym and a trainer at
 * another holds members.write in the first only.
 *
 * An integrator's API key (issue 33, decision 0062) is a principal of its own: it holds a capability when its row
 * names "api_key" and the key was given that scope, in every gym of its organisation. Rows without "api_key" (staff,
 * settings, gyms, the keys themselves) are never a key's.
 */
export type Role = "organisation_admin" | "gym_admin" | "personal_trainer" | "api_key";

export const PERMISSIONS = {
  /** Members list, profile, activity, door credentials, search. */
  "members.read": ["organisation_admin", "gym_admin", "personal_trainer", "api_key"],
  /** A member's memberships in detail: their history, price changes, what starting now would cost. */
  "memberships.read": ["organisation_admin", "gym_admin", "personal_trainer", "api_key"],
  /** Visits lists and a member's visits. */
  "visits.read": ["organisation_admin", "gym_admin", "personal_trainer", "api_key"],
  /** Check members in at the front desk, and run the entrance's kiosk (issue 32): every member of staff at their gym. */
  "visits.write": ["organisation_admin", "gym_admin", "personal_trainer", "api_key"],
  /** Edit a member's profile (name, e-mail, contact details, notes, tags) and photo. */
  "members.write": ["organisation_admin", "gym_admin", "api_key"],
  "members.delete": ["organisation_admin", "gym_admin", "api_key"],
  /** Download every matching member's contact details. */
  "members.export": ["organisation_admin", "gym_admin"],
  /** Payments, price changes, revenue figures. */
  "money.read": ["organisation_admin", "gym_admin", "api_key"],
  /** Take, refund or reschedule money; change prices; record money taken at the desk. */
  "money.write": ["organisation_admin", "gym_admin", "api_key"],
  /** Change a membership: pause, cancel, move to another price, start it now, add a paid-in-full one (decision 0022). */
  "subscriptions.write": ["organisation_admin", "gym_admin", "api_key"],
  /** Offerings and their prices: everyone sees them (members are sold them at the desk). */
  "offerings.read": ["organisation_admin", "gym_admin", "personal_trainer", "api_key"],
  /**
   * Create and change offerings and prices: organisation admins anywhere; gym admins for offerings sold only at
   * their gyms and not set by the organisation (server/offerings/rules.ts).
   */
  "offerings.write": ["organisation_admin", "gym_admin", "api_key"],
  /** The calendar: appointments and recurring schedules (with calendar and messaging on). */
  "calendar.read": ["organisation_admin", "gym_admin", "personal_trainer", "api_key"],
  "calendar.write": ["organisation_admin", "gym_admin", "personal_trainer", "api_key"],
  /** Group classes (issue 34): class types, the timetable and its rosters, as read. */
  "classes.read": ["organisation_admin", "gym_admin", "personal_trainer", "api_key"],
  /** Class types (the organisation's: organisation admins) and a gym's timetable: schedule, change and cancel classes. */
  "classes.write": ["organisation_admin", "gym_admin", "api_key"],
  /** A class's roster: book or remove a member, mark attendance, message those booked (every member of staff at their gym). */
  "classes.book": ["organisation_admin", "gym_admin", "personal_trainer", "api_key"],
  /** The gyms' list and a gym's settings page as read (credentials only as set or not, the bank account masked). */
  "gyms.read": ["organisation_admin", "gym_admin", "api_key"],
  /** A gym's own settings: details, bank account, provider connections and credentials, doors (issue 15). */
  "gyms.write": ["organisation_admin", "gym_admin"],
  /** Open a new gym, archive one or restore it (issue 32): a decision for the whole organisation. */
  "gyms.create": ["organisation_admin"],
  /** The organisation's own settings (name, grace periods, offering rules, price frequencies). */
  "settings.write": ["organisation_admin"],
  /** Staff lists and invitations; gym admins manage the staff of their gyms. */
  "staff.read": ["organisation_admin", "gym_admin"],
  "staff.write": ["organisation_admin", "gym_admin"],
  /** API keys and outgoing webhooks (issue 33): they act for the whole organisation. */
  "integrations.write": ["organisation_admin"],
} as const satisfies Record<string, readonly Role[]>;

export type Capability = keyof typeof PERMISSIONS;
export const CAPABILITIES = Object.keys(PERMISSIONS) as Capability[];

const grants = (capability: Capability, role: Role) => (PERMISSIONS[capability] as readonly Role[]).includes(role);

/** The gyms of the current organisation in which `user` holds `capability`: "all", or a list (maybe empty). */
export function gymsWhere(user: CurrentUser, capability: Capability): "all" | number[] {
  if (user.apiKey) return grants(capability, "api_key") && user.apiKey.scopes.includes(capability) ? "all" : [];
  if (user.organisation?.role === "admin") return grants(capability, "organisation_admin") ? "all" : [];
  return user.gyms
    .filter((g) => (g.role === "admin" && grants(capability, "gym_admin")) || (g.role === "personal_trainer" && grants(capability, "personal_trainer")))
    .map((g) => g.id);
}

/**
 * Whether `user` holds `capability` for a record of gym `gymId`. A record of no gym (null) belongs to the
 * organisation as a whole: only a holder in every gym may touch it. Without `gymId`: in any gym at all.
 */
export function can(user: CurrentUser, capability: Capability, gymId?: number | null): boolean {
  const gyms = gymsWhere(user, capability);
  if (gyms === "all") return true;
  if (gymId === undefined) return gyms.length > 0;
  return gymId !== null && gyms.includes(gymId);
}

const REFUSALS: Record<Capability, string> = {
  "members.read": "You cannot see members of this gym.",
  "memberships.read": "You cannot see memberships at this gym.",
  "visits.read": "You cannot see visits at this gym.",
  "calendar.read": "You cannot see this calendar.",
  "calendar.write": "You cannot change this calendar.",
  "classes.read": "You cannot see classes at this gym.",
  "classes.write": "Only admins can change class types and the timetable.",
  "classes.book": "You cannot change this class's bookings.",
  "integrations.write": "Only organisation admins can manage API keys and webhooks.",
  "visits.write": "You cannot check members in at this gym.",
  "members.write": "Only admins can change a member's details.",
  "members.delete": "Only admins can delete members.",
  "members.export": "Only admins can export members.",
  "money.read": "Only admins can see payments and revenue.",
  "money.write": "Only admins can change payments and prices.",
  "subscriptions.write": "Only admins can change a membership.",
  "offerings.read": "You cannot see this organisation's offerings.",
  "offerings.write": "Only admins can change offerings and prices.",
  "gyms.read": "Only admins can see a gym's settings.",
  "gyms.write": "Only admins can change a gym's settings.",
  "gyms.create": "Only organisation admins can open or archive a gym.",
  "settings.write": "Only organisation admins can change the organisation's settings.",
  "staff.read": "Only admins can see staff.",
  "staff.write": "Only admins can manage staff.",
};

/** 403 unless `user` holds `capability` for gym `gymId` (see `can`). */
export function assertCan(user: CurrentUser, capability: Capability, gymId?: number | null) {
  if (!can(user, capability, gymId)) throw forbidden(REFUSALS[capability]);
}

/** Route guard: staff who hold `capability` in at least one gym (the handler checks the record's gym). */
export const requireCan =
  (capability: Capability): MiddlewareHandler<ApiEnv> =>
  async (c, next) => {
    assertCan(c.var.user!, capability);
    await next();
  };

/**
 * Route guard for the dashboard's figures, which are for the current gym (the tenant's gymId, or the whole
 * organisation without one): 403 unless the user holds `capability` there.
 */
export const inCurrentGym =
  (capability: Capability): MiddlewareHandler<ApiEnv> =>
  async (c, next) => {
    assertCan(c.var.user!, capability, c.var.tenant.gymId);
    await next();
  };

/**
 * Fields of an answer that need a capability beyond the route's own: the table decides fields as well as routes.
 * A membership is read with members.read (trainers see who is a member, on what, and their pauses), but what the
 * member owes, what they will be charged next and how far they have paid is money (money.read), like their
 * payments list. Prices themselves stay: everyone sees the offerings and prices (offerings.read).
 */
export const FIELD_PERMISSIONS = {
  membership: { capability: "money.read", fields: ["owing", "next_charge", "paid_until"] },
} as const satisfies Record<string, { capability: Capability; fields: readonly string[] }>;

type Resource = keyof typeof FIELD_PERMISSIONS;
type GuardedField<R extends Resource> = (typeof FIELD_PERMISSIONS)[R]["fields"][number];
export type Visible<R extends Resource, T> = Omit<T, GuardedField<R>> & Partial<Pick<T, GuardedField<R> & keyof T>>;

/** `record` as `user` may see it at gym `gymId`: each guarded field left out unless they hold its capability there. */
export function visibleFields<R extends Resource, T extends Record<GuardedField<R>, unknown>>(user: CurrentUser, resource: R, gymId: number | null, record: T): Visible<R, T> {
  const rule = FIELD_PERMISSIONS[resource];
  if (can(user, rule.capability, gymId)) return record;
  const out: Partial<T> = { ...record };
  for (const field of rule.fields) delete out[field as keyof T];
  return out as Visible<R, T>;
}

/** The capabilities `user` holds for gym `gymId` (the current gym, or every gym when null): what the UI may offer. */
export function capabilitiesIn(user: CurrentUser, gymId: number | null): Capability[] {
  return CAPABILITIES.filter((cap) => can(user, cap, gymId));
}
