import { capabilitiesIn } from "../core/permissions";
import { isGymAdmin, isOrganisationAdmin, isStaffHere, type CurrentUser } from "../core/current-user";

/** GET /api/me: the fields SPEC §3 lists for the signed-in user. */
export function mePayload(u: CurrentUser) {
  const r = u.row;
  const types = u.paymentTypes;
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    mobile_number: r.mobile_number,
    is_staff: isStaffHere(u),
    email_verified_at: r.email_verified_at,
    current_organisation: u.organisation,
    current_gym: u.gym,
    organisations: u.organisations.map((o) => ({ id: o.id, name: o.name })),
    gyms: u.gyms,
    is_organisation_admin: isOrganisationAdmin(u),
    is_gym_admin: isGymAdmin(u),
    /** What the user may do in the current gym (server/core/permissions.ts): the pages offer only these. */
    permissions: capabilitiesIn(u, u.gym?.id ?? null),
    profile_picture: r.profile_picture,
    payment_types: types,
    default_payment_type: types.find((t) => t.id === u.defaultPaymentTypeId) ?? null,
    // Filled in by the sign-up flow's issue (chosen offering, price, start and billing dates).
    start_date: null as string | null,
    billing_date: null as string | null,
    offering: null as { id: number; name: string } | null,
    /** The price a member joining online came for (a link's), until they confirm. */
    price_id: u.signup.priceId,
    /** A member's sign-up is finished: their membership stands (SPEC §2: welcome-to-gym comes first). */
    membership_confirmed: u.signup.confirmed,
    general_card_surcharge_text: null as string | null,
    should_onboard: r.should_onboard,
    invited_at: r.invited_at,
  };
}
