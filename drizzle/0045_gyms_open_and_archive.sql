ALTER TABLE "gyms" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "gyms" ADD COLUMN "archived_at" timestamp with time zone;