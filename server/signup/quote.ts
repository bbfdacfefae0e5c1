import { eq } from "drizzle-orm";
import { addCalendarDays, localDay } from "../../domain/dates";
import { LATEST_START_DAYS } from "../../domain/schemas/signup";
import { COOLING_OFF_DAYS, startPlan } from "../../domain/start";
import { formatSurcharge, surchargeFor, type PaymentTypeKind } from "../../domain/surcharge";
import { payment_types } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { invalid } from "../core/errors";
import { pricesOnSale } from "./catalogue";
import type { SignupGym } from "./methods";
import type { Joiner } from "./subscribe";

/**
 * GET /api/me/signup/quote?price_id=&start_date=: what joining on that price from that day costs, worked out by the
 * billing engine's own plan (domain/start.ts, which POST /api/subscriptions writes): the first payment (pro-rata or
 * first period, or paid in full, with the joining fee), the card surcharge when the member pays by card, the
 * regular charge after it and when it comes, and a term's commitment and break fee.
 */
export async function signupQuote(t: Tenant, member: Joiner, gym: SignupGym, q: { price_id: number; start_date: string }, now: Date) {
  const price = (await pricesOnSale(t, gym.id, member.linkId)).find((p) => p.id === q.price_id);
  if (!price) throw invalid({ price_id: ["Choose a membership from the list"] });
  const today = localDay(now);
  if (q.start_date < today) throw invalid({ start_date: ["Choose today or a day after it"] });
  if (q.start_date > addCalendarDays(today, LATEST_START_DAYS)) throw invalid({ start_date: [`Choose a day within ${LATEST_START_DAYS} days`] });
  const [method] = member.defaultPaymentTypeId
    ? await t.db.select({ type: payment_types.type }).from(payment_types).where(t.where(payment_types, eq(payment_types.id, member.defaultPaymentTypeId)))
    : [];
  const kind = (method?.type ?? null) as PaymentTypeKind | null;
  const surcharge = { basisPoints: gym.card_surcharge_basis_points, fixed: gym.card_surcharge_fixed };
  const plan = startPlan({ amount: price.amount, frequency: price.billing_frequency, joiningFee: price.joining_fee, termAmount: price.term_amount, termUnit: price.term_unit }, q.start_date);
  const charge = (amount: number) => {
    const extra = kind ? surchargeFor(amount, kind, surcharge) : 0;
    return { amount, surcharge: extra, total: amount + extra };
  };
  const recurring = price.billing_frequency !== "one_off";
  return {
    price,
    start_date: q.start_date,
    /** Charged when the membership starts (today, or on the start day). */
    first: {
      ...charge(plan.firstPayment.amount),
      joining_fee: plan.firstPayment.joiningFee,
      is_pro_rata: plan.firstPayment.isProRata,
      covers: { from: plan.firstPayment.period.start, until: plan.firstPayment.period.end },
      charged_on: q.start_date,
    },
    /** Every charge after it, from the first full period on. */
    regular: recurring ? { ...charge(price.amount), from: plan.currentPeriod.end, frequency_label: price.frequency_label } : null,
    pays_by: kind,
    card_surcharge: kind === "stripe_card" ? formatSurcharge(surcharge) : null,
    card_surcharge_text: kind === "stripe_card" && formatSurcharge(surcharge) ? gym.general_card_surcharge_text : null,
    term: plan.termEnds
      ? { ends: plan.termEnds, cooling_off_ends: plan.coolingOffEnds, cooling_off_days: COOLING_OFF_DAYS, break_fee_percentage: gym.break_fee_percentage ?? 0 }
      : null,
    pif_ends: plan.pifEnds,
  };
}
