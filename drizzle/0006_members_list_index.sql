CREATE INDEX "organisation_users_members_idx" ON "organisation_users" USING btree ("organisation_id","home_gym_id","latest_subscription_id") WHERE "organisation_users"."role" = 'member' and "organisation_users"."deleted_at" is null;--> statement-breakpoint
-- A person whose account is deleted leaves every organisation with it, so lists need only read
-- organisation_users.deleted_at (one table, one index) to leave them out.
CREATE FUNCTION end_memberships_of_deleted_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE organisation_users SET deleted_at = NEW.deleted_at, updated_at = now()
  WHERE user_id = NEW.id AND deleted_at IS NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_deleted_ends_memberships AFTER UPDATE OF deleted_at ON users
FOR EACH ROW WHEN (OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL) EXECUTE FUNCTION end_memberships_of_deleted_user();
--> statement-breakpoint
UPDATE organisation_users ou SET deleted_at = u.deleted_at FROM users u WHERE u.id = ou.user_id AND u.deleted_at IS NOT NULL AND ou.deleted_at IS NULL;
