CREATE TABLE "daily_revenue" (
	"organisation_id" integer NOT NULL,
	"gym_id" integer NOT NULL,
	"day" date NOT NULL,
	"collected" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "daily_revenue_organisation_id_gym_id_day_pk" PRIMARY KEY("organisation_id","gym_id","day")
);
--> statement-breakpoint
CREATE TABLE "daily_visits" (
	"organisation_id" integer NOT NULL,
	"gym_id" integer NOT NULL,
	"day" date NOT NULL,
	"visits" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "daily_visits_organisation_id_gym_id_day_pk" PRIMARY KEY("organisation_id","gym_id","day")
);
--> statement-breakpoint
ALTER TABLE "daily_revenue" ADD CONSTRAINT "daily_revenue_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_revenue" ADD CONSTRAINT "daily_revenue_gym_id_gyms_id_fk" FOREIGN KEY ("gym_id") REFERENCES "public"."gyms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_visits" ADD CONSTRAINT "daily_visits_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_visits" ADD CONSTRAINT "daily_visits_gym_id_gyms_id_fk" FOREIGN KEY ("gym_id") REFERENCES "public"."gyms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_failed_idx" ON "payments" USING btree ("organisation_id","created_at") WHERE "payments"."status" not in ('sent', 'upcoming', 'pending', 'pending_request', 'awaiting_payment');--> statement-breakpoint
-- The rollups are kept by statement-level triggers with transition tables: one upsert per statement and
-- (organisation, gym, day), so a bulk insert of a million rows costs one aggregate, not a million upserts.
-- Old rows are subtracted and new rows added, so a payment that turns 'sent' (or stops being 'sent') moves
-- the total by itself. The day is the Pacific/Auckland calendar day (domain/dates.ts TIME_ZONE).
-- Rows are upserted in key order so two concurrent writers cannot deadlock on them.
CREATE FUNCTION rollup_payments() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO daily_revenue AS r (organisation_id, gym_id, day, collected)
    SELECT organisation_id, gym_id, (created_at AT TIME ZONE 'Pacific/Auckland')::date, -sum(amount)
    FROM old_rows WHERE status = 'sent' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (organisation_id, gym_id, day) DO UPDATE SET collected = r.collected + excluded.collected;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO daily_revenue AS r (organisation_id, gym_id, day, collected)
    SELECT organisation_id, gym_id, (created_at AT TIME ZONE 'Pacific/Auckland')::date, sum(amount)
    FROM new_rows WHERE status = 'sent' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (organisation_id, gym_id, day) DO UPDATE SET collected = r.collected + excluded.collected;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION rollup_visits() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO daily_visits AS r (organisation_id, gym_id, day, visits)
    SELECT organisation_id, gym_id, (visited_at AT TIME ZONE 'Pacific/Auckland')::date, -count(*)
    FROM old_rows WHERE successful GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (organisation_id, gym_id, day) DO UPDATE SET visits = r.visits + excluded.visits;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO daily_visits AS r (organisation_id, gym_id, day, visits)
    SELECT organisation_id, gym_id, (visited_at AT TIME ZONE 'Pacific/Auckland')::date, count(*)
    FROM new_rows WHERE successful GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (organisation_id, gym_id, day) DO UPDATE SET visits = r.visits + excluded.visits;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A trigger with transition tables may have only one event, hence three of each.
CREATE TRIGGER payments_rollup_insert AFTER INSERT ON payments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_payments();
--> statement-breakpoint
CREATE TRIGGER payments_rollup_update AFTER UPDATE ON payments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_payments();
--> statement-breakpoint
CREATE TRIGGER payments_rollup_delete AFTER DELETE ON payments REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_payments();
--> statement-breakpoint
CREATE TRIGGER visits_rollup_insert AFTER INSERT ON visits REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_visits();
--> statement-breakpoint
CREATE TRIGGER visits_rollup_update AFTER UPDATE ON visits REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_visits();
--> statement-breakpoint
CREATE TRIGGER visits_rollup_delete AFTER DELETE ON visits REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_visits();
--> statement-breakpoint
-- Rows written before this migration.
INSERT INTO daily_revenue (organisation_id, gym_id, day, collected)
SELECT organisation_id, gym_id, (created_at AT TIME ZONE 'Pacific/Auckland')::date, sum(amount)
FROM payments WHERE status = 'sent' GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO daily_visits (organisation_id, gym_id, day, visits)
SELECT organisation_id, gym_id, (visited_at AT TIME ZONE 'Pacific/Auckland')::date, count(*)
FROM visits WHERE successful GROUP BY 1, 2, 3;
