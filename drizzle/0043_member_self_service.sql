ALTER TABLE "organisations" ADD COLUMN "members_may_pause" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "member_pause_days_per_year" integer DEFAULT 28 NOT NULL;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "members_may_cancel" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "member_cancel_notice_days" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "cancel_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "cancel_request" jsonb;