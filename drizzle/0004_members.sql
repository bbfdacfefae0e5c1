CREATE TABLE "access_control_credentials" (
	"id" serial PRIMARY KEY NOT NULL,
	"organisation_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"gym_id" integer,
	"provider" text NOT NULL,
	"kind" text NOT NULL,
	"identifier_hint" text,
	"status" text DEFAULT 'active' NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "price_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"organisation_id" integer NOT NULL,
	"subscription_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"from_price_id" integer,
	"to_price_id" integer NOT NULL,
	"from_amount" integer NOT NULL,
	"to_amount" integer NOT NULL,
	"takes_effect_at" timestamp with time zone,
	"applied_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"member_notified_at" timestamp with time zone,
	"changed_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "profile_pictures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" integer NOT NULL,
	"content_type" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "payments_user_idx";--> statement-breakpoint
DROP INDEX "visits_user_idx";--> statement-breakpoint
ALTER TABLE "organisation_users" ADD COLUMN "latest_subscription_id" integer;--> statement-breakpoint
ALTER TABLE "organisation_users" ADD COLUMN "last_visit_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "organisation_users" ADD COLUMN "visits_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "organisation_users" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "access_control_credentials" ADD CONSTRAINT "access_control_credentials_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_control_credentials" ADD CONSTRAINT "access_control_credentials_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_control_credentials" ADD CONSTRAINT "access_control_credentials_gym_id_gyms_id_fk" FOREIGN KEY ("gym_id") REFERENCES "public"."gyms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_changes" ADD CONSTRAINT "price_changes_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_changes" ADD CONSTRAINT "price_changes_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_changes" ADD CONSTRAINT "price_changes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_changes" ADD CONSTRAINT "price_changes_from_price_id_prices_id_fk" FOREIGN KEY ("from_price_id") REFERENCES "public"."prices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_changes" ADD CONSTRAINT "price_changes_to_price_id_prices_id_fk" FOREIGN KEY ("to_price_id") REFERENCES "public"."prices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_changes" ADD CONSTRAINT "price_changes_changed_by_users_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_pictures" ADD CONSTRAINT "profile_pictures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "access_control_credentials_user_idx" ON "access_control_credentials" USING btree ("organisation_id","user_id");--> statement-breakpoint
CREATE INDEX "price_changes_user_idx" ON "price_changes" USING btree ("organisation_id","user_id");--> statement-breakpoint
ALTER TABLE "organisation_users" ADD CONSTRAINT "organisation_users_latest_subscription_id_subscriptions_id_fk" FOREIGN KEY ("latest_subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "organisation_users_joined_idx" ON "organisation_users" USING btree ("organisation_id","created_at");--> statement-breakpoint
CREATE INDEX "organisation_users_last_visit_idx" ON "organisation_users" USING btree ("organisation_id","last_visit_at");--> statement-breakpoint
CREATE INDEX "organisation_users_tags_idx" ON "organisation_users" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "payments_user_idx" ON "payments" USING btree ("organisation_id","user_id","created_at");--> statement-breakpoint
CREATE INDEX "visits_user_idx" ON "visits" USING btree ("organisation_id","user_id","visited_at");--> statement-breakpoint
-- organisation_users.latest_subscription_id, last_visit_at and visits_count are kept by the triggers below
-- in the writing transaction, so the members list can filter by status and sort by last visit from one row
-- per member. Only successful visits count (a refused door entry is not a visit).
CREATE FUNCTION member_latest_subscription(org integer, member integer) RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT id FROM subscriptions WHERE organisation_id = org AND user_id = member ORDER BY created_at DESC, id DESC LIMIT 1
$$;
--> statement-breakpoint
CREATE FUNCTION track_latest_subscription() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE organisation_users ou SET latest_subscription_id = member_latest_subscription(ou.organisation_id, ou.user_id)
    FROM (SELECT DISTINCT organisation_id, user_id FROM new_rows) c
    WHERE ou.organisation_id = c.organisation_id AND ou.user_id = c.user_id;
  ELSE
    UPDATE organisation_users ou SET latest_subscription_id = member_latest_subscription(ou.organisation_id, ou.user_id)
    FROM (SELECT DISTINCT organisation_id, user_id FROM old_rows) c
    WHERE ou.organisation_id = c.organisation_id AND ou.user_id = c.user_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER subscriptions_latest_insert AFTER INSERT ON subscriptions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION track_latest_subscription();
--> statement-breakpoint
CREATE TRIGGER subscriptions_latest_delete AFTER DELETE ON subscriptions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION track_latest_subscription();
--> statement-breakpoint
CREATE FUNCTION track_member_visits() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- New visits only add: a count and a later last visit, without reading the member's other visits.
    UPDATE organisation_users ou
    SET visits_count = ou.visits_count + c.n, last_visit_at = greatest(ou.last_visit_at, c.last)
    FROM (SELECT organisation_id, user_id, count(*) AS n, max(visited_at) AS last FROM new_rows WHERE successful GROUP BY 1, 2) c
    WHERE ou.organisation_id = c.organisation_id AND ou.user_id = c.user_id;
  ELSE
    -- Corrections and deletions are rare: count the members' visits again.
    UPDATE organisation_users ou
    SET visits_count = (SELECT count(*) FROM visits v WHERE v.organisation_id = ou.organisation_id AND v.user_id = ou.user_id AND v.successful),
        last_visit_at = (SELECT max(visited_at) FROM visits v WHERE v.organisation_id = ou.organisation_id AND v.user_id = ou.user_id AND v.successful)
    FROM (SELECT DISTINCT organisation_id, user_id FROM old_rows) c
    WHERE ou.organisation_id = c.organisation_id AND ou.user_id = c.user_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER visits_member_insert AFTER INSERT ON visits REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION track_member_visits();
--> statement-breakpoint
CREATE TRIGGER visits_member_update AFTER UPDATE ON visits REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION track_member_visits();
--> statement-breakpoint
CREATE TRIGGER visits_member_delete AFTER DELETE ON visits REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION track_member_visits();
--> statement-breakpoint
-- A membership made after the member's subscriptions or visits (a returning member, an import) starts
-- from what is already there.
CREATE FUNCTION member_row_defaults() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.latest_subscription_id := member_latest_subscription(NEW.organisation_id, NEW.user_id);
  SELECT count(*), max(visited_at) INTO NEW.visits_count, NEW.last_visit_at
  FROM visits WHERE organisation_id = NEW.organisation_id AND user_id = NEW.user_id AND successful;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER organisation_users_defaults BEFORE INSERT ON organisation_users FOR EACH ROW EXECUTE FUNCTION member_row_defaults();
--> statement-breakpoint
UPDATE organisation_users ou SET latest_subscription_id = member_latest_subscription(ou.organisation_id, ou.user_id);
--> statement-breakpoint
UPDATE organisation_users ou SET visits_count = v.n, last_visit_at = v.last
FROM (SELECT organisation_id, user_id, count(*) AS n, max(visited_at) AS last FROM visits WHERE successful GROUP BY 1, 2) v
WHERE ou.organisation_id = v.organisation_id AND ou.user_id = v.user_id;
--> statement-breakpoint
ANALYZE organisation_users;
