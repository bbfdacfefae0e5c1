CREATE TABLE "payment_totals_daily" (
	"organisation_id" integer NOT NULL,
	"gym_id" integer NOT NULL,
	"day" date NOT NULL,
	"outcome" text NOT NULL,
	"method" text NOT NULL,
	"payments" integer DEFAULT 0 NOT NULL,
	"amount" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "payment_totals_daily_organisation_id_gym_id_day_outcome_method_pk" PRIMARY KEY("organisation_id","gym_id","day","outcome","method")
);
--> statement-breakpoint
ALTER TABLE "daily_visits" ADD COLUMN "refused" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_totals_daily" ADD CONSTRAINT "payment_totals_daily_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_totals_daily" ADD CONSTRAINT "payment_totals_daily_gym_id_gyms_id_fk" FOREIGN KEY ("gym_id") REFERENCES "public"."gyms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_org_gym_created_idx" ON "payments" USING btree ("organisation_id","gym_id","created_at");--> statement-breakpoint
CREATE INDEX "payments_not_failed_created_idx" ON "payments" USING btree ("organisation_id","created_at") WHERE status in ('upcoming', 'pending', 'pending_request', 'awaiting_payment');--> statement-breakpoint
CREATE INDEX "payments_desk_created_idx" ON "payments" USING btree ("organisation_id","created_at") WHERE pif_payment is not null;--> statement-breakpoint
CREATE INDEX "visits_org_gym_visited_idx" ON "visits" USING btree ("organisation_id","gym_id","visited_at");--> statement-breakpoint
CREATE INDEX "visits_refused_idx" ON "visits" USING btree ("organisation_id","visited_at") WHERE not successful;--> statement-breakpoint
-- Kept as the dashboard's rollups are (0003): a statement-level trigger with transition tables, one upsert per
-- statement and key, old rows subtracted and new ones added, keys in order so concurrent writers cannot deadlock.
CREATE FUNCTION rollup_payment_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO payment_totals_daily AS r (organisation_id, gym_id, day, outcome, method, payments, amount)
    SELECT o.organisation_id, o.gym_id, (o.created_at AT TIME ZONE 'Pacific/Auckland')::date, payment_outcome(o.status),
           coalesce(o.pif_payment, pt.type, 'none'), -count(*), -sum(o.amount + o.surcharge)
    FROM old_rows o LEFT JOIN payment_types pt ON pt.id = o.payment_type_id
    GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (organisation_id, gym_id, day, outcome, method) DO UPDATE
      SET payments = r.payments + excluded.payments, amount = r.amount + excluded.amount;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO payment_totals_daily AS r (organisation_id, gym_id, day, outcome, method, payments, amount)
    SELECT n.organisation_id, n.gym_id, (n.created_at AT TIME ZONE 'Pacific/Auckland')::date, payment_outcome(n.status),
           coalesce(n.pif_payment, pt.type, 'none'), count(*), sum(n.amount + n.surcharge)
    FROM new_rows n LEFT JOIN payment_types pt ON pt.id = n.payment_type_id
    GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (organisation_id, gym_id, day, outcome, method) DO UPDATE
      SET payments = r.payments + excluded.payments, amount = r.amount + excluded.amount;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER payments_totals_insert AFTER INSERT ON payments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_payment_totals();
--> statement-breakpoint
CREATE TRIGGER payments_totals_update AFTER UPDATE ON payments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_payment_totals();
--> statement-breakpoint
CREATE TRIGGER payments_totals_delete AFTER DELETE ON payments REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_payment_totals();
--> statement-breakpoint
-- The payments there are now. On a new database payment_outcome() is written at start-up, after the migrations
-- (server/db/domain-rules.ts), which then fills this table itself.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_proc WHERE proname = 'payment_outcome') THEN
    INSERT INTO payment_totals_daily (organisation_id, gym_id, day, outcome, method, payments, amount)
    SELECT p.organisation_id, p.gym_id, (p.created_at AT TIME ZONE 'Pacific/Auckland')::date, payment_outcome(p.status),
           coalesce(p.pif_payment, pt.type, 'none'), count(*), sum(p.amount + p.surcharge)
    FROM payments p LEFT JOIN payment_types pt ON pt.id = p.payment_type_id
    GROUP BY 1, 2, 3, 4, 5;
  END IF;
END $$;
--> statement-breakpoint
-- Visits: the refused ones counted beside the successful.
CREATE OR REPLACE FUNCTION rollup_visits() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO daily_visits AS r (organisation_id, gym_id, day, visits, refused)
    SELECT organisation_id, gym_id, (visited_at AT TIME ZONE 'Pacific/Auckland')::date, -count(*) FILTER (WHERE successful), -count(*) FILTER (WHERE NOT successful)
    FROM old_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (organisation_id, gym_id, day) DO UPDATE SET visits = r.visits + excluded.visits, refused = r.refused + excluded.refused;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO daily_visits AS r (organisation_id, gym_id, day, visits, refused)
    SELECT organisation_id, gym_id, (visited_at AT TIME ZONE 'Pacific/Auckland')::date, count(*) FILTER (WHERE successful), count(*) FILTER (WHERE NOT successful)
    FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (organisation_id, gym_id, day) DO UPDATE SET visits = r.visits + excluded.visits, refused = r.refused + excluded.refused;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
INSERT INTO daily_visits AS r (organisation_id, gym_id, day, refused)
SELECT organisation_id, gym_id, (visited_at AT TIME ZONE 'Pacific/Auckland')::date, count(*)
FROM visits WHERE NOT successful GROUP BY 1, 2, 3
ON CONFLICT (organisation_id, gym_id, day) DO UPDATE SET refused = excluded.refused;
--> statement-breakpoint
ALTER TABLE "payment_totals_daily" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "payment_totals_daily" TO gym_tenant
  USING (organisation_id = tenant_organisation_id()) WITH CHECK (organisation_id = tenant_organisation_id());
