import { asc, inArray } from "drizzle-orm";
import { Hono } from "hono";
import { termShorthand, type BillingFrequency, type TermUnit } from "../../../domain/billing";
import { offerings, prices } from "../../db/schema";
import type { ApiEnv } from "../context";
import { requireStaff } from "../middleware";
import { requireCan } from "../permissions";

/**
 * GET /api/offerings → { data: { data: [{ id, name, type, archived_at, prices: [...] }] } }: the
 * organisation's offerings with their prices, archived ones included (members may still be on them).
 * The read the members list's filters need; creating and editing offerings come with the offerings issue.
 */
export const offeringRoutes = new Hono<ApiEnv>().get("/offerings", requireStaff, requireCan("members.read"), async (c) => {
  const t = c.var.tenant;
  const list = await t.db
    .select({ id: offerings.id, name: offerings.name, type: offerings.type, archived_at: offerings.archived_at })
    .from(offerings)
    .where(t.where(offerings))
    .orderBy(asc(offerings.name), asc(offerings.id));
  const priceRows = list.length
    ? await t.db
        .select()
        .from(prices)
        .where(t.where(prices, inArray(prices.offering_id, list.map((o) => o.id))))
        .orderBy(asc(prices.amount), asc(prices.id))
    : [];
  const data = list.map((o) => ({
    ...o,
    prices: priceRows
      .filter((p) => p.offering_id === o.id)
      .map((p) => ({
        id: p.id,
        amount: p.amount,
        billing_frequency: p.billing_frequency as BillingFrequency,
        term: termShorthand({ billing_frequency: p.billing_frequency as BillingFrequency, term_amount: p.term_amount, term_unit: p.term_unit as TermUnit | null }),
        private: p.private,
        archived_at: p.archived_at,
      })),
  }));
  return c.json({ data: { data } });
});

export type OfferingSummary = {
  id: number;
  name: string;
  type: string;
  archived_at: string | null;
  prices: { id: number; amount: number; billing_frequency: BillingFrequency; term: string | null; private: boolean; archived_at: string | null }[];
};
