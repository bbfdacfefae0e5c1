CREATE TABLE "private_price_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"organisation_id" integer NOT NULL,
	"price_id" integer NOT NULL,
	"token" uuid DEFAULT gen_random_uuid() NOT NULL,
	"age_bypass" boolean DEFAULT false NOT NULL,
	"created_by" integer,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"success_url" text NOT NULL,
	"cancel_url" text NOT NULL,
	"request" jsonb NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"result" jsonb,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organisation_users" ADD COLUMN "signup_price_id" integer;--> statement-breakpoint
ALTER TABLE "organisation_users" ADD COLUMN "signup_link_id" integer;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "signup_key" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "terms_accepted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "private_price_links" ADD CONSTRAINT "private_price_links_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "private_price_links" ADD CONSTRAINT "private_price_links_price_id_prices_id_fk" FOREIGN KEY ("price_id") REFERENCES "public"."prices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "private_price_links" ADD CONSTRAINT "private_price_links_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "private_price_links_token_idx" ON "private_price_links" USING btree ("token");--> statement-breakpoint
CREATE INDEX "private_price_links_price_idx" ON "private_price_links" USING btree ("organisation_id","price_id");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_signup_key_idx" ON "subscriptions" USING btree ("user_id","signup_key") WHERE signup_key is not null;--> statement-breakpoint
-- An organisation's rows, behind the same wall as every organisation table (0013).
ALTER TABLE "private_price_links" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "private_price_links" TO gym_tenant
  USING (organisation_id = tenant_organisation_id()) WITH CHECK (organisation_id = tenant_organisation_id());
