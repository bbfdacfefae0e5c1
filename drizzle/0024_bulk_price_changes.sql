CREATE TABLE "bulk_price_change_members" (
	"organisation_id" integer NOT NULL,
	"bulk_id" integer NOT NULL,
	"subscription_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"outcome" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"processed_at" timestamp with time zone,
	CONSTRAINT "bulk_price_change_members_bulk_id_subscription_id_pk" PRIMARY KEY("bulk_id","subscription_id")
);
--> statement-breakpoint
CREATE TABLE "bulk_price_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"organisation_id" integer NOT NULL,
	"key" text NOT NULL,
	"requested_by" integer,
	"from_price_ids" integer[] NOT NULL,
	"to_price_id" integer NOT NULL,
	"takes_effect" text NOT NULL,
	"takes_effect_day" date,
	"notify" boolean DEFAULT false NOT NULL,
	"replace_scheduled" boolean DEFAULT false NOT NULL,
	"filters" jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "bulk_price_change_members" ADD CONSTRAINT "bulk_price_change_members_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_price_change_members" ADD CONSTRAINT "bulk_price_change_members_bulk_id_bulk_price_changes_id_fk" FOREIGN KEY ("bulk_id") REFERENCES "public"."bulk_price_changes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_price_change_members" ADD CONSTRAINT "bulk_price_change_members_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_price_change_members" ADD CONSTRAINT "bulk_price_change_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_price_changes" ADD CONSTRAINT "bulk_price_changes_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_price_changes" ADD CONSTRAINT "bulk_price_changes_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_price_changes" ADD CONSTRAINT "bulk_price_changes_to_price_id_prices_id_fk" FOREIGN KEY ("to_price_id") REFERENCES "public"."prices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bulk_price_change_members_outcome_idx" ON "bulk_price_change_members" USING btree ("bulk_id","outcome");--> statement-breakpoint
CREATE UNIQUE INDEX "bulk_price_changes_key_idx" ON "bulk_price_changes" USING btree ("organisation_id","key");--> statement-breakpoint
CREATE INDEX "bulk_price_changes_open_idx" ON "bulk_price_changes" USING btree ("status") WHERE status <> 'done';--> statement-breakpoint
-- An organisation's rows, behind the same wall as every organisation table (0013).
ALTER TABLE "bulk_price_changes" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "bulk_price_changes" TO gym_tenant
  USING (organisation_id = tenant_organisation_id()) WITH CHECK (organisation_id = tenant_organisation_id());
--> statement-breakpoint
ALTER TABLE "bulk_price_change_members" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "bulk_price_change_members" TO gym_tenant
  USING (organisation_id = tenant_organisation_id()) WITH CHECK (organisation_id = tenant_organisation_id());
