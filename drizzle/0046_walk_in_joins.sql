ALTER TABLE "organisation_users" ADD COLUMN "signup_start_on" date;--> statement-breakpoint
ALTER TABLE "organisation_users" ADD COLUMN "walk_in_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "organisation_users_walk_in_key_idx" ON "organisation_users" USING btree ("organisation_id","walk_in_key");