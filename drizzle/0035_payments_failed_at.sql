DROP INDEX "payments_failed_idx";--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "failed_at" timestamp with time zone;--> statement-breakpoint
-- Failures written before this column: the best we know is the later of when the row was made and its charge day
-- (a first charge converted from an `upcoming` row keeps the upcoming row's old created_at).
-- Only when there are some: the payments' rollup trigger calls payment_outcome(), which a fresh database gets after
-- the migrations (server/db/domain-rules.ts), so an UPDATE here, even of no rows, would fail there.
DO $$ BEGIN
  IF EXISTS (SELECT 1 FROM "payments" WHERE "status" = 'failed') THEN
    UPDATE "payments" SET "failed_at" = greatest("created_at", coalesce(("expected_charge_date"::timestamp + interval '10 hours') at time zone 'Pacific/Auckland', "created_at"))
      WHERE "status" = 'failed';
  END IF;
END $$;--> statement-breakpoint
CREATE INDEX "payments_failed_at_idx" ON "payments" USING btree ("failed_at") WHERE status = 'failed';
