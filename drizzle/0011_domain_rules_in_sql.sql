-- The payments' rollup asks payment_outcome(status) instead of spelling the statuses out (0003, 0005).
-- payment_outcome and subscription_state_unpaused (0009) are written from domain/'s constants at start-up,
-- after the migrations (server/db/domain-rules.ts), so each rule has one source: domain/.
CREATE OR REPLACE FUNCTION rollup_payments() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO daily_revenue AS r (organisation_id, gym_id, day, collected, failed_payments)
    SELECT organisation_id, gym_id, (created_at AT TIME ZONE 'Pacific/Auckland')::date,
           -coalesce(sum(amount) FILTER (WHERE payment_outcome(status) = 'successful'), 0),
           -count(*) FILTER (WHERE payment_outcome(status) = 'failed')
    FROM old_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (organisation_id, gym_id, day) DO UPDATE
      SET collected = r.collected + excluded.collected, failed_payments = r.failed_payments + excluded.failed_payments;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO daily_revenue AS r (organisation_id, gym_id, day, collected, failed_payments)
    SELECT organisation_id, gym_id, (created_at AT TIME ZONE 'Pacific/Auckland')::date,
           coalesce(sum(amount) FILTER (WHERE payment_outcome(status) = 'successful'), 0),
           count(*) FILTER (WHERE payment_outcome(status) = 'failed')
    FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (organisation_id, gym_id, day) DO UPDATE
      SET collected = r.collected + excluded.collected, failed_payments = r.failed_payments + excluded.failed_payments;
  END IF;
  RETURN NULL;
END $$;
