import { sql } from "drizzle-orm";
import { NON_FAILED_PAYMENT_STATUSES, SUCCESSFUL_PAYMENT_STATUS } from "../../../domain/payment";
import { UNPAUSED_STATE_RULES } from "../../../domain/subscription";
import type { Db } from "./handle";

/**
 * The domain rules the database's triggers apply, written into SQL functions from domain/'s constants, so each
 * rule has one source. The triggers call them (drizzle/0009, 0011) and keep copies of their answers
 * (organisation_users.latest_state, daily_revenue's money and failed payments); `installDomainRules` runs
 * after the migrations and, when a rule has changed, replaces its function and corrects the copies in the same
 * transaction. tests/api/subscription-state.test.ts and triggers.test.ts compare the SQL with the domain.
 */
const literal = (s: string) => `'${s.replaceAll("'", "''")}'`;

interface DomainRule {
  name: string;
  /** The function's signature, fixed by the triggers that call it (a new argument needs a migration). */
  signature: string;
  returns: string;
  /** The function's body, from the domain's constants. */
  body: string;
  /** Brings the copies of the function's answers in line with it (statements run in order, in one transaction). */
  rederive: string[];
}

const SUBSCRIPTION_FACTS = ["cancelled_at", "grace_period_ends_at", "upcoming_state"];

function subscriptionStateRule(): DomainRule {
  const facts = UNPAUSED_STATE_RULES.map(([fact]) => fact as string);
  if ([...facts].sort().join() !== [...SUBSCRIPTION_FACTS].sort().join()) {
    throw new Error(`subscription_state_unpaused takes ${SUBSCRIPTION_FACTS.join(", ")}; the domain's rule reads ${facts.join(", ")}: add a migration that passes the new facts.`);
  }
  const state = "subscription_state_unpaused(s.cancelled_at, s.grace_period_ends_at, s.upcoming_state)";
  return {
    name: "subscription_state_unpaused",
    signature: "cancelled_at timestamptz, grace_period_ends_at timestamptz, upcoming_state text",
    returns: "text",
    body: `SELECT CASE ${UNPAUSED_STATE_RULES.map(([fact, s]) => `WHEN ${fact} IS NOT NULL THEN ${literal(s)}`).join(" ")} ELSE 'active' END`,
    rederive: [
      `UPDATE organisation_users ou SET latest_state = ${state} FROM subscriptions s
      WHERE s.id = ou.latest_subscription_id AND ou.latest_state IS DISTINCT FROM ${state}`,
    ],
  };
}

function paymentOutcomeRule(): DomainRule {
  const day = "(created_at AT TIME ZONE 'Pacific/Auckland')::date";
  return {
    name: "payment_outcome",
    signature: "status text",
    returns: "text",
    body: `SELECT CASE WHEN status = ${literal(SUCCESSFUL_PAYMENT_STATUS)} THEN 'successful' WHEN status IN (${NON_FAILED_PAYMENT_STATUSES.map(literal).join(", ")}) THEN 'not_failed' ELSE 'failed' END`,
    rederive: [
      // Every day with payments is summed again; a day without any has nothing to correct.
      `INSERT INTO daily_revenue AS r (organisation_id, gym_id, day, collected, failed_payments)
      SELECT organisation_id, gym_id, ${day}, coalesce(sum(amount) FILTER (WHERE payment_outcome(status) = 'successful'), 0),
             count(*) FILTER (WHERE payment_outcome(status) = 'failed')
      FROM payments GROUP BY 1, 2, 3
      ON CONFLICT (organisation_id, gym_id, day) DO UPDATE SET collected = excluded.collected - r.returned, failed_payments = excluded.failed_payments
      WHERE (r.collected, r.failed_payments) IS DISTINCT FROM (excluded.collected - r.returned, excluded.failed_payments)`,
      // (collected is net of what was given back that day, drizzle/0036: refunds and lost chargebacks stay subtracted.)
      // The payments list's totals are by outcome: made again whole (drizzle/0023).
      "DELETE FROM payment_totals_daily",
      `INSERT INTO payment_totals_daily (organisation_id, gym_id, day, outcome, method, payments, amount)
      SELECT p.organisation_id, p.gym_id, (p.created_at AT TIME ZONE 'Pacific/Auckland')::date, payment_outcome(p.status),
             coalesce(p.pif_payment, pt.type, 'none'), count(*), sum(p.amount + p.surcharge)
      FROM payments p LEFT JOIN payment_types pt ON pt.id = p.payment_type_id
      GROUP BY 1, 2, 3, 4, 5`,
    ],
  };
}

export const domainRules = (): DomainRule[] => [subscriptionStateRule(), paymentOutcomeRule()];

const create = (r: DomainRule) => `CREATE OR REPLACE FUNCTION ${r.name}(${r.signature}) RETURNS ${r.returns} LANGUAGE sql IMMUTABLE AS $$${r.body}$$`;

/** Writes each rule's function when it differs from the domain's (and then corrects what the triggers kept). */
export async function installDomainRules(db: Db, rules = domainRules()) {
  for (const rule of rules) {
    const found = await db.execute<{ prosrc: string }>(sql`select prosrc from pg_proc where proname = ${rule.name}`);
    const rows = (found as unknown as { rows?: { prosrc: string }[] }).rows ?? (found as unknown as { prosrc: string }[]);
    if (rows.length === 1 && rows[0].prosrc === rule.body) continue;
    await db.transaction(async (tx) => {
      await tx.execute(sql.raw(create(rule)));
      for (const statement of rule.rederive) await tx.execute(sql.raw(statement));
    });
  }
}
