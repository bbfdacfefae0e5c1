import type { organisations } from "../core/db/schema";

type OrganisationRow = typeof organisations.$inferSelect;

/** The one shape the API answers with (SPEC §3: grace periods nested). */
export const organisationView = (o: OrganisationRow) => ({
  id: o.id,
  name: o.name,
  multi_gym: o.multi_gym,
  offering_permissions: o.offering_permissions,
  price_frequencies: o.price_frequencies,
  grace_period: { failed_payment_grace_period: o.failed_payment_grace_period, failed_payment_grace_period_unit: o.failed_payment_grace_period_unit },
  term_grace_period: { term_membership_grace_period: o.term_membership_grace_period, term_membership_grace_period_unit: o.term_membership_grace_period_unit },
  minimum_age: o.minimum_age,
  payment_receipts: o.payment_receipts,
  signup_reminders: o.signup_reminders,
  membership_terms: { text: o.membership_terms_text, url: o.membership_terms_url },
  member_self_service: {
    members_may_pause: o.members_may_pause,
    member_pause_days_per_year: o.member_pause_days_per_year,
    members_may_cancel: o.members_may_cancel,
    member_cancel_notice_days: o.member_cancel_notice_days,
  },
});
