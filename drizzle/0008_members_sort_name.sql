ALTER TABLE "organisation_users" ADD COLUMN "sort_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- The member's name, lower-cased, on the membership row: the list pages in name order from an index
-- instead of walking every person in name order and looking each one up (server/api/members/list.ts).
UPDATE organisation_users ou SET sort_name = lower(u.name) FROM users u WHERE u.id = ou.user_id;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION member_row_defaults() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.latest_subscription_id := member_latest_subscription(NEW.organisation_id, NEW.user_id);
  SELECT count(*), max(visited_at) INTO NEW.visits_count, NEW.last_visit_at
  FROM visits WHERE organisation_id = NEW.organisation_id AND user_id = NEW.user_id AND successful;
  SELECT lower(name) INTO NEW.sort_name FROM users WHERE id = NEW.user_id;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE FUNCTION follow_user_name() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE organisation_users SET sort_name = lower(NEW.name) WHERE user_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_name_sorts_memberships AFTER UPDATE OF name ON users
FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION follow_user_name();
--> statement-breakpoint
CREATE INDEX "organisation_users_name_idx" ON "organisation_users" USING btree ("organisation_id","home_gym_id","sort_name" collate "C","user_id") WHERE "organisation_users"."role" = 'member' and "organisation_users"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "organisation_users_name_all_idx" ON "organisation_users" USING btree ("organisation_id","sort_name" collate "C","user_id") WHERE "organisation_users"."role" = 'member' and "organisation_users"."deleted_at" is null;--> statement-breakpoint
ANALYZE organisation_users;
