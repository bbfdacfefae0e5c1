DROP INDEX "organisation_users_joined_idx";--> statement-breakpoint
DROP INDEX "organisation_users_last_visit_idx";--> statement-breakpoint
CREATE INDEX "organisation_users_joined_all_idx" ON "organisation_users" USING btree ("organisation_id","created_at","user_id") WHERE "organisation_users"."role" = 'member' and "organisation_users"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "organisation_users_last_visit_all_idx" ON "organisation_users" USING btree ("organisation_id",coalesce("last_visit_at", '-infinity'::timestamptz),"user_id") WHERE "organisation_users"."role" = 'member' and "organisation_users"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "organisation_users_joined_idx" ON "organisation_users" USING btree ("organisation_id","home_gym_id","created_at","user_id") WHERE "organisation_users"."role" = 'member' and "organisation_users"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "organisation_users_last_visit_idx" ON "organisation_users" USING btree ("organisation_id","home_gym_id",coalesce("last_visit_at", '-infinity'::timestamptz),"user_id") WHERE "organisation_users"."role" = 'member' and "organisation_users"."deleted_at" is null;--> statement-breakpoint
ANALYZE organisation_users;
