import { capabilitiesIn } from "../core/permissions";
import { isGymAdmin, isOrganisationAdmin, isStaffHere, type CurrentUser } from "../core/current-user";

/** GET /api/me: the fields SPEC §3 lists for the signed-in user. */
export function mePayload(u: CurrentUser) {
  const r = u.row;
  // A gym's surcharge text is said once, for the current gym (general_card_surcharge_text below).
  const place = <G extends { general_card_surcharge_text?: string | null }>({ general_card_surcharge_text: _text, ...g }: G) => g;
  const types = u.paymentTypes;
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    mobile_number: r.mobile_number,
    is_staff: isStaffHere(u),
    email_verified_at: r.email_verified_at,
    current_organisation: u.organisation,
    current_gym: u.gym ? place(u.gym) : null,
    organisations: u.organisations.map((o) => ({ id: o.id, name: o.name })),
    gyms: u.gyms.map(place),
    is_organisation_admin: isOrganisationAdmin(u),
    is_gym_admin: isGymAdmin(u),
    /** What the user may do in the current gym (server/core/permissions.ts): the pages offer only these. */
    permissions: capabilitiesIn(u, u.gym?.id ?? null),
    profile_picture: r.profile_picture,
    payment_types: types,
    default_payment_type: types.find((t) => t.id === u.defaultPaymentTypeId) ?? null,
    /** The day a member joining was quoted to start at the desk (a walk-in), until they confirm. */
    start_date: u.signup.startOn,
    /** Always null: a member joining chooses no billing day of their own; the first full charge follows the start. */
    billing_date: null as string | null,
    /** The offering of the price a member joining came for. */
    offering: u.signup.offering,
    /** The price a member joining online came for (a link's), until they confirm. */
    price_id: u.signup.priceId,
    /** A member's sign-up is finished: their membership stands (SPEC §2: welcome-to-gym comes first). */
    membership_confirmed: u.signup.confirmed,
    /** What the current gym tells members about its card surcharge. */
    general_card_surcharge_text: u.gym?.general_card_surcharge_text ?? null,
    should_onboard: r.should_onboard,
    invited_at: r.invited_at,
  };
}
