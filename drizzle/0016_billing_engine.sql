ALTER TABLE "payments" ADD COLUMN "attempt" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "billing_anchor" date;--> statement-breakpoint
-- Existing rows: a period's charges numbered in the order they were made (a seeded retry becomes attempt 1), and
-- each subscription's rhythm from its first charged period (else its current one), as an Auckland day. Only
-- where there are rows: the tables' statement triggers call the domain-rule functions that start-up installs
-- after migrating (server/db/domain-rules.ts), which a new database does not have yet.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM "payments" WHERE subscription_id IS NOT NULL AND period_start_at IS NOT NULL) THEN
    UPDATE "payments" p SET "attempt" = n.attempt
    FROM (
      SELECT id, row_number() OVER (PARTITION BY subscription_id, period_start_at ORDER BY is_retry, created_at, id) - 1 AS attempt
      FROM "payments" WHERE subscription_id IS NOT NULL AND period_start_at IS NOT NULL
    ) n
    WHERE p.id = n.id AND n.attempt > 0;
  END IF;
  IF EXISTS (SELECT 1 FROM "subscriptions") THEN
    -- One pass over payments grouped by subscription (there is no index on subscription_id before this
    -- migration's own), then the subscriptions with no payment from their current period.
    UPDATE "subscriptions" s SET "billing_anchor" = (f.first_start AT TIME ZONE 'Pacific/Auckland')::date
    FROM (
      SELECT subscription_id, min(period_start_at) AS first_start FROM "payments"
      WHERE subscription_id IS NOT NULL AND period_start_at IS NOT NULL GROUP BY subscription_id
    ) f
    WHERE f.subscription_id = s.id;
    UPDATE "subscriptions" SET "billing_anchor" = (current_period_start AT TIME ZONE 'Pacific/Auckland')::date
    WHERE "billing_anchor" IS NULL AND current_period_start IS NOT NULL;
  END IF;
END $$;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_one_per_period_idx" ON "payments" USING btree ("subscription_id","period_start_at","attempt") WHERE subscription_id is not null and period_start_at is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_idempotency_key_idx" ON "payments" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "payments_pending_idx" ON "payments" USING btree ("status") WHERE status = 'pending';