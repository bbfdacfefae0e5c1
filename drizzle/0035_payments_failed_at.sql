DROP INDEX "payments_failed_idx";--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "failed_at" timestamp with time zone;--> statement-breakpoint
-- Failures written before this column: the best we know is the later of when the row was made and its charge day
-- (a first charge converted from an `upcoming` row keeps the upcoming row's old created_at).
UPDATE "payments" SET "failed_at" = greatest("created_at", coalesce(("expected_charge_date"::timestamp + interval '10 hours') at time zone 'Pacific/Auckland', "created_at"))
  WHERE "status" = 'failed';--> statement-breakpoint
CREATE INDEX "payments_failed_at_idx" ON "payments" USING btree ("failed_at") WHERE status = 'failed';
