CREATE TABLE "bank_connections" (
	"id" serial PRIMARY KEY NOT NULL,
	"organisation_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"provider" text DEFAULT 'akahu' NOT NULL,
	"access_token" text NOT NULL,
	"reauthenticate" boolean DEFAULT false NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"notification_id" text NOT NULL,
	"external_id" text NOT NULL,
	"heading" text NOT NULL,
	"content" text NOT NULL,
	"url" text,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_door_members" (
	"id" serial PRIMARY KEY NOT NULL,
	"account" text NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"access_enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_links" (
	"code" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"channel" text NOT NULL,
	"feature" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "sandbox_ledger_webhooks_due_idx";--> statement-breakpoint
DROP INDEX "payments_pending_id_idx";--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "akahu_payment_id" text;--> statement-breakpoint
ALTER TABLE "sandbox_ledger" ADD COLUMN "events_sent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_ledger" ADD COLUMN "next_event_at" timestamp with time zone DEFAULT now();--> statement-breakpoint
-- Charges already in the ledger: their one event is due from when they were made, unless it went already.
UPDATE "sandbox_ledger" SET "next_event_at" = CASE WHEN "webhook_state" IS NULL THEN "created_at" END;--> statement-breakpoint
ALTER TABLE "bank_connections" ADD CONSTRAINT "bank_connections_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_connections" ADD CONSTRAINT "bank_connections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bank_connections_user_idx" ON "bank_connections" USING btree ("organisation_id","user_id","provider");--> statement-breakpoint
CREATE UNIQUE INDEX "push_outbox_key_idx" ON "push_outbox" USING btree ("idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_door_members_email_idx" ON "sandbox_door_members" USING btree ("account",lower("email"));--> statement-breakpoint
CREATE INDEX "payments_stripe_id_idx" ON "payments" USING btree ("stripe_id") WHERE stripe_id is not null;--> statement-breakpoint
CREATE INDEX "payments_gocardless_id_idx" ON "payments" USING btree ("gocardless_payment_id") WHERE gocardless_payment_id is not null;--> statement-breakpoint
CREATE INDEX "payments_akahu_id_idx" ON "payments" USING btree ("akahu_payment_id") WHERE akahu_payment_id is not null;--> statement-breakpoint
CREATE INDEX "sandbox_ledger_events_due_idx" ON "sandbox_ledger" USING btree ("next_event_at") WHERE next_event_at is not null;--> statement-breakpoint
CREATE INDEX "payments_pending_id_idx" ON "payments" USING btree ("id") WHERE status in ('pending', 'awaiting_payment');--> statement-breakpoint
-- A member's bank connection is their organisation's, behind the same wall as every organisation table (0013).
ALTER TABLE "bank_connections" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "bank_connections" TO gym_tenant
  USING (organisation_id = tenant_organisation_id()) WITH CHECK (organisation_id = tenant_organisation_id());
