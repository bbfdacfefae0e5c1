import { z } from "zod";
import { CALENDAR_COLOURS, PER_GYM, type CalendarColour, type StaffRole } from "../staff";
import { flag, optional } from "./fields";
import { MSG } from "./messages";

/**
 * Staff requests (SPEC §5 Staff, §6 role -1; issue 15), for the invite and edit forms and the API alike. The form
 * holds every gym as a row with a role, "-1" for none; what goes to the API is only the gyms with a role, as id
 * plus role.
 */
export const SELECT_A_GYM = "Select at least one gym";
export const ALREADY_STAFF = "This person is already on your staff";
export const IS_A_MEMBER = "This e-mail address belongs to one of your members: staff sign in with an address of their own";

const email = z
  .string({ required_error: MSG.required, invalid_type_error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .pipe(z.string().max(254, MSG.max(254)).email(MSG.email))
  .transform((e) => e.toLowerCase());
const name = z.string({ invalid_type_error: MSG.required }).trim().min(1, MSG.required).max(100, MSG.max(100));
const asRole = (v: unknown) => (v === "-1" || v === PER_GYM ? PER_GYM : v === "" || v === null ? undefined : v);
const kind = z.preprocess(
  asRole,
  z.union([z.literal("admin"), z.literal("personal_trainer"), z.literal(PER_GYM)], { errorMap: () => ({ message: MSG.required }) }),
);
const gymRole = z.preprocess(asRole, z.union([z.literal("admin"), z.literal("personal_trainer"), z.literal(PER_GYM)], { errorMap: () => ({ message: "Choose Admin, Personal Trainer or no role" }) }).optional());
const gymEntry = z.object({
  id: z.preprocess((v) => (typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v), z.number({ invalid_type_error: "Choose a gym from the list" }).int().positive("Choose a gym from the list")),
  role: gymRole,
});
const colour = z.enum(Object.keys(CALENDAR_COLOURS) as [CalendarColour, ...CalendarColour[]], { errorMap: () => ({ message: "Choose one of the colours" }) });

type Entry = z.output<typeof gymEntry>;

/** The gyms a staff member works at: none for an organisation admin (every gym is theirs), else each gym given a role. */
function rolesAt(role: StaffRole | typeof PER_GYM, gyms: Entry[] | undefined) {
  if (role === "admin") return [];
  const given = (gyms ?? []).map((g) => ({ id: g.id, role: role === "personal_trainer" ? ("personal_trainer" as const) : (g.role ?? PER_GYM) }));
  // The same gym twice keeps its last role.
  const byGym = new Map(given.filter((g) => g.role !== PER_GYM).map((g) => [g.id, g.role as StaffRole]));
  return [...byGym].map(([id, r]) => ({ id, role: r }));
}

function checkGyms(v: { role: StaffRole | typeof PER_GYM; gyms?: Entry[] }, ctx: z.RefinementCtx) {
  if (v.role !== "admin" && rolesAt(v.role, v.gyms).length === 0) ctx.addIssue({ code: "custom", path: ["gyms"], message: SELECT_A_GYM });
}

/**
 * POST /api/organisations/{id}/staff: e-mail and role required; name required unless invited (the invitee gives it
 * when they set their password). Role "admin" is an organisation admin; "personal_trainer" a trainer at the gyms
 * listed; -1 a role per gym, where a gym with role -1 is left out.
 */
export const staffInviteRequest = z
  .object({
    email,
    name: optional(name),
    role: kind,
    gyms: z.array(gymEntry).max(500).optional(),
    invite: flag,
    calendar_colour: optional(colour),
  })
  .superRefine((v, ctx) => {
    if (!v.invite && !v.name) ctx.addIssue({ code: "custom", path: ["name"], message: MSG.required });
    checkGyms(v, ctx);
  })
  .transform((v) => ({ email: v.email, name: v.name ?? null, invite: v.invite, calendar_colour: v.calendar_colour ?? null, role: v.role, gyms: rolesAt(v.role, v.gyms) }));
export type StaffInvite = z.output<typeof staffInviteRequest>;

/** PUT /api/staff/{id}: name, role and gyms as on the invite, and the calendar colour. The e-mail is their sign-in, changed by them. */
export const staffUpdateRequest = z
  .object({ name, role: kind, gyms: z.array(gymEntry).max(500).optional(), calendar_colour: optional(colour) })
  .superRefine(checkGyms)
  .transform((v) => ({ name: v.name, calendar_colour: v.calendar_colour ?? null, role: v.role, gyms: rolesAt(v.role, v.gyms) }));
export type StaffUpdate = z.output<typeof staffUpdateRequest>;

export const staffExistsRequest = z.object({ email });
export const doorAccessRequest = z.object({ access_enabled: flag });
export const staffListQuery = z.object({
  status: z.enum(["current", "invited", "active", "deactivated", "removed"]).catch("current"),
  search: optional(z.string().trim().max(100)),
});
