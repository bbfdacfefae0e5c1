CREATE TABLE "payment_adjustments" (
	"id" serial PRIMARY KEY NOT NULL,
	"organisation_id" integer NOT NULL,
	"gym_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"payment_id" integer NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"amount" integer NOT NULL,
	"reason" text,
	"note" text,
	"source" text NOT NULL,
	"actor_id" integer,
	"method" text NOT NULL,
	"provider_id" text,
	"idempotency_key" text,
	"error" text,
	"settled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_adjustments_amount_positive" CHECK (amount > 0)
);
--> statement-breakpoint
ALTER TABLE "daily_revenue" ADD COLUMN "returned" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_adjustments" ADD CONSTRAINT "payment_adjustments_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_adjustments" ADD CONSTRAINT "payment_adjustments_gym_id_gyms_id_fk" FOREIGN KEY ("gym_id") REFERENCES "public"."gyms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_adjustments" ADD CONSTRAINT "payment_adjustments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_adjustments" ADD CONSTRAINT "payment_adjustments_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_adjustments" ADD CONSTRAINT "payment_adjustments_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_adjustments_payment_idx" ON "payment_adjustments" USING btree ("organisation_id","payment_id");--> statement-breakpoint
CREATE INDEX "payment_adjustments_org_created_idx" ON "payment_adjustments" USING btree ("organisation_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_adjustments_key_idx" ON "payment_adjustments" USING btree ("idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_adjustments_provider_idx" ON "payment_adjustments" USING btree ("method","provider_id") WHERE provider_id is not null;--> statement-breakpoint
CREATE INDEX "payment_adjustments_pending_idx" ON "payment_adjustments" USING btree ("id") WHERE status in ('pending', 'open');--> statement-breakpoint
-- An organisation's rows, behind the same wall as every organisation table (0013).
ALTER TABLE "payment_adjustments" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "payment_adjustments" TO gym_tenant
  USING (organisation_id = tenant_organisation_id()) WITH CHECK (organisation_id = tenant_organisation_id());
--> statement-breakpoint
-- Revenue is net of money given back: a refund made or a chargeback lost comes off the day it happened (0003's
-- rollups: statement triggers with transition tables, old rows subtracted and new ones added, keys in order).
-- Revenue counts a payment's amount without its card surcharge, so what comes off it is the refund's share of the
-- amount: all of it for an unsurcharged payment, and never the surcharge the member also gets back.
CREATE FUNCTION rollup_payment_adjustments() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO daily_revenue AS r (organisation_id, gym_id, day, collected, returned)
    SELECT o.organisation_id, o.gym_id, (o.settled_at AT TIME ZONE 'Pacific/Auckland')::date,
           sum(o.amount::bigint * p.amount / nullif(p.amount + p.surcharge, 0)), -sum(o.amount::bigint * p.amount / nullif(p.amount + p.surcharge, 0))
    FROM old_rows o JOIN payments p ON p.id = o.payment_id
    WHERE o.status IN ('succeeded', 'lost') AND o.settled_at IS NOT NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (organisation_id, gym_id, day) DO UPDATE SET collected = r.collected + excluded.collected, returned = r.returned + excluded.returned;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO daily_revenue AS r (organisation_id, gym_id, day, collected, returned)
    SELECT n.organisation_id, n.gym_id, (n.settled_at AT TIME ZONE 'Pacific/Auckland')::date,
           -sum(n.amount::bigint * p.amount / nullif(p.amount + p.surcharge, 0)), sum(n.amount::bigint * p.amount / nullif(p.amount + p.surcharge, 0))
    FROM new_rows n JOIN payments p ON p.id = n.payment_id
    WHERE n.status IN ('succeeded', 'lost') AND n.settled_at IS NOT NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (organisation_id, gym_id, day) DO UPDATE SET collected = r.collected + excluded.collected, returned = r.returned + excluded.returned;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER payment_adjustments_rollup_insert AFTER INSERT ON payment_adjustments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_payment_adjustments();
--> statement-breakpoint
CREATE TRIGGER payment_adjustments_rollup_update AFTER UPDATE ON payment_adjustments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_payment_adjustments();
--> statement-breakpoint
CREATE TRIGGER payment_adjustments_rollup_delete AFTER DELETE ON payment_adjustments REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_payment_adjustments();
