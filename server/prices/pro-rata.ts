import { eq } from "drizzle-orm";
import type { BillingFrequency } from "../../domain/billing";
import { formatCents } from "../../domain/money";
import { defaultFirstFullCharge, proRata, type LocalDay } from "../../domain/periods";
import { offerings, prices } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { invalid, notFound } from "../core/errors";

/** A price of the tenant's organisation with its offering's name, or 404 (another organisation's price too). */
export async function priceForProRata(t: Tenant, id: number) {
  const [row] = await t.db
    .select({ id: prices.id, amount: prices.amount, billing_frequency: prices.billing_frequency, archived_at: prices.archived_at, offering: offerings.name })
    .from(prices)
    .innerJoin(offerings, eq(offerings.id, prices.offering_id))
    .where(t.where(prices, eq(prices.id, id)));
  if (!row) throw notFound("No such price.");
  return { ...row, billing_frequency: row.billing_frequency as BillingFrequency };
}

type Price = Awaited<ReturnType<typeof priceForProRata>>;

/** The pro-rata of `price` for a member starting on `start`, whose full charges start on `billing` (or the usual day). */
export function proRataAnswer(price: Price, start: LocalDay, billing: LocalDay | undefined) {
  if (price.billing_frequency === "one_off") throw invalid({ price: ["A paid-in-full price is paid once, in full: it has no pro-rata"] });
  const first = billing ?? defaultFirstFullCharge(price.billing_frequency, start);
  if (first < start) throw invalid({ billing_date: ["The billing date must be on or after the start date"] });
  let r: ReturnType<typeof proRata>;
  try {
    r = proRata(price.amount, price.billing_frequency, start, first);
  } catch {
    throw invalid({ billing_date: ["The billing date must be less than one billing period after the start date"] });
  }
  return {
    price: { id: price.id, amount: price.amount, billing_frequency: price.billing_frequency, offering: price.offering },
    start_date: start,
    /** Cents for the days from the start date up to the first full charge. */
    amount: r.amount,
    formatted_amount: formatCents(r.amount),
    days: r.days,
    days_in_period: r.daysInPeriod,
    /** The full period those days belong to: [start, end). */
    period: r.period,
    first_full_charge_date: r.firstFullCharge,
    first_full_charge_amount: price.amount,
  };
}
