import type { GymRole, Membership, OrgRole, PaymentType } from "./db/memberships";
import type { users } from "./db/schema";

export type UserRow = typeof users.$inferSelect;
export type { OrgRole };

/** The signed-in user with where they are: current organisation and gym, and every place they may switch to. */
export interface CurrentUser {
  row: UserRow;
  /** Every membership as read with the session, gyms and payment types included. */
  memberships: Membership[];
  organisations: { id: number; name: string; multi_gym: boolean; calendar_and_messaging: boolean; role: OrgRole }[];
  organisation: { id: number; name: string; multi_gym: boolean; calendar_and_messaging: boolean; role: OrgRole } | null;
  /** Gyms of the current organisation this user may work in (all of them for an organisation admin). */
  gyms: { id: number; name: string; logo: string | null; role: GymRole | null; archived: boolean; general_card_surcharge_text?: string | null }[];
  gym: { id: number; name: string; logo: string | null; role: GymRole | null; archived: boolean; general_card_surcharge_text?: string | null } | null;
  /** The member's default payment type in the current organisation. */
  defaultPaymentTypeId: number | null;
  /** The user's payment types in the current organisation. */
  paymentTypes: PaymentType[];
  /** Members' unread messages in the current organisation (0 without calendar and messaging, or for a member). */
  unreadMessages: number;
  /** A member's sign-up in the current organisation: finished or not, and the price they came for. */
  signup: { confirmed: boolean; priceId: number | null; linkId: number | null; startOn: string | null; offering: { id: number; name: string } | null };
  /**
   * Set when an integrator's API key asks rather than a person (issue 33): `row` is then the admin who made the key,
   * whose name its changes are recorded under, and the key's scopes alone decide what it may do (permissions.ts).
   */
  apiKey?: { id: number; name: string; scopes: readonly string[] };
}

/**
 * Where the user is and may go, from the memberships the session read brought (server/core/auth/sessions.ts): no
 * query of its own, so a switch can work out the new place from the same memberships.
 */
export function currentUser(row: UserRow, memberships: Membership[]): CurrentUser {
  // The same rule picks the membership whose unread messages the session read counts (server/core/db/memberships.ts).
  const current = memberships.find((o) => o.id === row.current_organisation_id) ?? memberships[0] ?? null;
  const gyms = current?.gyms ?? [];
  // An archived gym (issue 32) is current only when the user works nowhere else: it is no longer worked in.
  const gym = gyms.find((g) => g.id === row.current_gym_id && !g.archived) ?? gyms.find((g) => !g.archived) ?? gyms[0] ?? null;
  const strip = ({
    home_gym_id: _h,
    default_payment_type_id: _d,
    gyms: _g,
    payment_types: _p,
    unread_messages: _u,
    membership_confirmed: _m,
    signup_price_id: _sp,
    signup_link_id: _sl,
    signup_start_on: _ss,
    signup_offering: _so,
    ...o
  }: Membership) => o;
  return {
    row,
    memberships,
    organisations: memberships.map(strip),
    organisation: current ? strip(current) : null,
    gyms,
    gym,
    defaultPaymentTypeId: current?.default_payment_type_id ?? null,
    paymentTypes: current?.payment_types ?? [],
    unreadMessages: current?.unread_messages ?? 0,
    signup: {
      confirmed: current?.membership_confirmed ?? false,
      priceId: current?.signup_price_id ?? null,
      linkId: current?.signup_link_id ?? null,
      startOn: current?.signup_start_on ?? null,
      offering: current?.signup_offering ?? null,
    },
  };
}

/** Staff here: a role in the current organisation (decision 0048: roles belong to a membership, never to the account). */
export const isStaffHere = (u: CurrentUser) => Boolean(u.organisation && u.organisation.role !== "member");
export const isOrganisationAdmin = (u: CurrentUser) => u.organisation?.role === "admin";
export const isGymAdmin = (u: CurrentUser) => u.gyms.some((g) => g.role === "admin");
