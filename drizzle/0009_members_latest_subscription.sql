ALTER TABLE "organisation_users" ADD COLUMN "latest_state" text;--> statement-breakpoint
ALTER TABLE "organisation_users" ADD COLUMN "latest_pause_start_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "organisation_users" ADD COLUMN "latest_pause_end_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "organisation_users" ADD COLUMN "latest_price_id" integer;--> statement-breakpoint
ALTER TABLE "organisation_users" ADD COLUMN "latest_offering_id" integer;--> statement-breakpoint
-- The latest subscription's state (leaving pauses aside), pause, price and offering, copied onto the membership
-- row so the members list filters by status, price or offering from this row and its indexes alone
-- (server/api/members/list.ts). The state rule is domain/subscription.ts's subscriptionState; paused is decided
-- at query time from the pause dates, since it changes with the clock.
CREATE FUNCTION subscription_state_unpaused(cancelled_at timestamptz, grace_period_ends_at timestamptz, upcoming_state text)
RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN cancelled_at IS NOT NULL THEN 'cancelled'
              WHEN grace_period_ends_at IS NOT NULL THEN 'grace_period'
              WHEN upcoming_state IS NOT NULL THEN 'upcoming'
              ELSE 'active' END
$$;
--> statement-breakpoint
CREATE FUNCTION member_latest_facts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.latest_state := NULL; NEW.latest_pause_start_at := NULL; NEW.latest_pause_end_at := NULL;
  NEW.latest_price_id := NULL; NEW.latest_offering_id := NULL;
  SELECT subscription_state_unpaused(s.cancelled_at, s.grace_period_ends_at, s.upcoming_state), s.pause_start_at, s.pause_end_at, s.price_id, p.offering_id
  INTO NEW.latest_state, NEW.latest_pause_start_at, NEW.latest_pause_end_at, NEW.latest_price_id, NEW.latest_offering_id
  FROM subscriptions s JOIN prices p ON p.id = s.price_id WHERE s.id = NEW.latest_subscription_id;
  RETURN NEW;
END $$;
--> statement-breakpoint
-- Fires after organisation_users_defaults (triggers fire in name order), which sets latest_subscription_id on insert.
CREATE TRIGGER organisation_users_latest_facts BEFORE INSERT OR UPDATE OF latest_subscription_id ON organisation_users
FOR EACH ROW EXECUTE FUNCTION member_latest_facts();
--> statement-breakpoint
CREATE FUNCTION follow_latest_subscription() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE organisation_users ou SET
    latest_state = subscription_state_unpaused(n.cancelled_at, n.grace_period_ends_at, n.upcoming_state),
    latest_pause_start_at = n.pause_start_at, latest_pause_end_at = n.pause_end_at,
    latest_price_id = n.price_id, latest_offering_id = p.offering_id
  FROM new_rows n JOIN prices p ON p.id = n.price_id
  WHERE ou.organisation_id = n.organisation_id AND ou.user_id = n.user_id AND ou.latest_subscription_id = n.id
    AND (ou.latest_state, ou.latest_pause_start_at, ou.latest_pause_end_at, ou.latest_price_id, ou.latest_offering_id)
        IS DISTINCT FROM (subscription_state_unpaused(n.cancelled_at, n.grace_period_ends_at, n.upcoming_state), n.pause_start_at, n.pause_end_at, n.price_id, p.offering_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Transition tables cannot go with a column list, so every update looks; the IS DISTINCT FROM writes only changes.
CREATE TRIGGER subscriptions_latest_update AFTER UPDATE ON subscriptions REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION follow_latest_subscription();
--> statement-breakpoint
UPDATE organisation_users ou SET
  latest_state = subscription_state_unpaused(s.cancelled_at, s.grace_period_ends_at, s.upcoming_state),
  latest_pause_start_at = s.pause_start_at, latest_pause_end_at = s.pause_end_at,
  latest_price_id = s.price_id, latest_offering_id = p.offering_id
FROM subscriptions s JOIN prices p ON p.id = s.price_id
WHERE s.id = ou.latest_subscription_id;
--> statement-breakpoint
CREATE INDEX "organisation_users_state_idx" ON "organisation_users" USING btree ("organisation_id","latest_state","home_gym_id","latest_pause_start_at","latest_pause_end_at","latest_offering_id") WHERE "organisation_users"."role" = 'member' and "organisation_users"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "organisation_users_paused_idx" ON "organisation_users" USING btree ("organisation_id","latest_pause_start_at") WHERE "organisation_users"."role" = 'member' and "organisation_users"."deleted_at" is null and "organisation_users"."latest_pause_start_at" is not null;--> statement-breakpoint
CREATE INDEX "organisation_users_price_idx" ON "organisation_users" USING btree ("organisation_id","latest_price_id","home_gym_id") WHERE "organisation_users"."role" = 'member' and "organisation_users"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "organisation_users_offering_idx" ON "organisation_users" USING btree ("organisation_id","latest_offering_id","home_gym_id") WHERE "organisation_users"."role" = 'member' and "organisation_users"."deleted_at" is null;--> statement-breakpoint
ANALYZE organisation_users;
