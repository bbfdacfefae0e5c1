DROP INDEX "payments_failed_idx";--> statement-breakpoint
ALTER TABLE "daily_revenue" ADD COLUMN "failed_payments" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Failed payments per Auckland day join the rollup: counting them from a partial index still read
-- thousands of heap rows per dashboard at 100,000 members. "Failed" is domain/payment.ts's rule.
CREATE OR REPLACE FUNCTION rollup_payments() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO daily_revenue AS r (organisation_id, gym_id, day, collected, failed_payments)
    SELECT organisation_id, gym_id, (created_at AT TIME ZONE 'Pacific/Auckland')::date,
           -coalesce(sum(amount) FILTER (WHERE status = 'sent'), 0),
           -count(*) FILTER (WHERE status NOT IN ('sent', 'upcoming', 'pending', 'pending_request', 'awaiting_payment'))
    FROM old_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (organisation_id, gym_id, day) DO UPDATE
      SET collected = r.collected + excluded.collected, failed_payments = r.failed_payments + excluded.failed_payments;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO daily_revenue AS r (organisation_id, gym_id, day, collected, failed_payments)
    SELECT organisation_id, gym_id, (created_at AT TIME ZONE 'Pacific/Auckland')::date,
           coalesce(sum(amount) FILTER (WHERE status = 'sent'), 0),
           count(*) FILTER (WHERE status NOT IN ('sent', 'upcoming', 'pending', 'pending_request', 'awaiting_payment'))
    FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (organisation_id, gym_id, day) DO UPDATE
      SET collected = r.collected + excluded.collected, failed_payments = r.failed_payments + excluded.failed_payments;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
INSERT INTO daily_revenue AS r (organisation_id, gym_id, day, failed_payments)
SELECT organisation_id, gym_id, (created_at AT TIME ZONE 'Pacific/Auckland')::date, count(*)
FROM payments WHERE status NOT IN ('sent', 'upcoming', 'pending', 'pending_request', 'awaiting_payment') GROUP BY 1, 2, 3
ON CONFLICT (organisation_id, gym_id, day) DO UPDATE SET failed_payments = excluded.failed_payments;
