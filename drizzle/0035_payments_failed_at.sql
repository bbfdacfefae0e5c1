DROP INDEX "payments_failed_idx";--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "failed_at" timestamp with time zone;--> statement-breakpoint
-- Failures written before this column: the best we know is the later of when the row was made and its charge day
-- (a first charge converted from an `upcoming` row keeps the upcoming row's old created_at). Only where there are
-- some: the table's statement triggers call the domain-rule functions that start-up installs after migrating
-- (server/db/domain-rules.ts), which a new database does not have yet (as in 0016).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM "payments" WHERE "status" = 'failed') THEN
    UPDATE "payments" SET "failed_at" = greatest("created_at", coalesce(("expected_charge_date"::timestamp + interval '10 hours') AT TIME ZONE 'Pacific/Auckland', "created_at"))
      WHERE "status" = 'failed';
  END IF;
END $$;--> statement-breakpoint
CREATE INDEX "payments_failed_at_idx" ON "payments" USING btree ("failed_at") WHERE status = 'failed';
--> statement-breakpoint
-- Every failed payment knows when it failed: a writer that does not say (the seed, an import, a test's factory) gets
-- the row's own time when it is inserted failed, and the time of the change when it becomes failed. The billing
-- run's writer (server/billing/outcomes.ts) gives its own clock's time, which under a simulated run is not now().
CREATE FUNCTION payments_fill_failed_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.failed_at := CASE WHEN TG_OP = 'INSERT' THEN coalesce(NEW.created_at, now()) ELSE now() END;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER payments_fill_failed_at BEFORE INSERT OR UPDATE OF status ON payments
  FOR EACH ROW WHEN (NEW.status = 'failed' AND NEW.failed_at IS NULL) EXECUTE FUNCTION payments_fill_failed_at();
