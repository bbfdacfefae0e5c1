CREATE TABLE "subscription_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"organisation_id" integer NOT NULL,
	"subscription_id" integer,
	"user_id" integer NOT NULL,
	"actor_id" integer,
	"action" text NOT NULL,
	"summary" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscription_pauses" (
	"id" serial PRIMARY KEY NOT NULL,
	"organisation_id" integer NOT NULL,
	"subscription_id" integer NOT NULL,
	"start_day" date NOT NULL,
	"end_day" date NOT NULL,
	"reason" text,
	"created_by" integer,
	"ended_early_at" timestamp with time zone,
	"removed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "reply_to" text;--> statement-breakpoint
ALTER TABLE "subscription_events" ADD CONSTRAINT "subscription_events_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_events" ADD CONSTRAINT "subscription_events_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_events" ADD CONSTRAINT "subscription_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_events" ADD CONSTRAINT "subscription_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_pauses" ADD CONSTRAINT "subscription_pauses_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_pauses" ADD CONSTRAINT "subscription_pauses_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_pauses" ADD CONSTRAINT "subscription_pauses_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subscription_events_user_idx" ON "subscription_events" USING btree ("organisation_id","user_id","created_at");--> statement-breakpoint
CREATE INDEX "subscription_pauses_subscription_idx" ON "subscription_pauses" USING btree ("subscription_id");--> statement-breakpoint
-- The pauses subscriptions hold today become their first rows (a pause with no end stays on the subscription only).
INSERT INTO "subscription_pauses" ("organisation_id", "subscription_id", "start_day", "end_day", "created_at")
SELECT "organisation_id", "id", ("pause_start_at" AT TIME ZONE 'Pacific/Auckland')::date, ("pause_end_at" AT TIME ZONE 'Pacific/Auckland')::date, "updated_at"
FROM "subscriptions" WHERE "pause_start_at" IS NOT NULL AND "pause_end_at" IS NOT NULL;
--> statement-breakpoint
-- Both are an organisation's rows, behind the same wall as every organisation table (0013).
ALTER TABLE "subscription_pauses" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "subscription_pauses" TO gym_tenant
  USING (organisation_id = tenant_organisation_id()) WITH CHECK (organisation_id = tenant_organisation_id());
--> statement-breakpoint
ALTER TABLE "subscription_events" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "subscription_events" TO gym_tenant
  USING (organisation_id = tenant_organisation_id()) WITH CHECK (organisation_id = tenant_organisation_id());
