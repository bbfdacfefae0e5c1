-- Row-level security: the second wall behind server/db/tenant.ts. Every API request for an organisation runs
-- in one transaction that sets app.organisation_id and switches to the role gym_tenant
-- (select set_config('app.organisation_id', …, true), set_config('role', 'gym_tenant', true)); for that role
-- PostgreSQL itself shows and accepts only rows of that organisation, whatever filter a query forgot.
-- The app's own login role (the tables' owner) is not subject to these policies: sign-in, sign-up, the seed
-- and migrations read across organisations on purpose. Shared identity tables (users, sessions, codes, links,
-- rate limits, the mail outbox, profile photos) carry no organisation and have no policy.
-- Creating the role needs CREATEROLE (or a superuser); on a managed PostgreSQL where the app's role lacks it,
-- create gym_tenant once by hand and grant it to the app's role (README, "Deploying").
DO $$
BEGIN
  CREATE ROLE gym_tenant NOLOGIN;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
  NULL; -- roles are cluster-wide: another database (a test run beside this one) made it already
END $$;
--> statement-breakpoint
DO $$
BEGIN
  EXECUTE format('GRANT gym_tenant TO %I', current_user);
EXCEPTION WHEN duplicate_object OR unique_violation OR insufficient_privilege THEN
  NULL; -- already a member (a superuser needs no grant)
END $$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO gym_tenant;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO gym_tenant;
--> statement-breakpoint
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO gym_tenant;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO gym_tenant;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO gym_tenant;
--> statement-breakpoint
CREATE FUNCTION tenant_organisation_id() RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT nullif(current_setting('app.organisation_id', true), '')::integer
$$;
--> statement-breakpoint
ALTER TABLE "organisations" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "organisations" TO gym_tenant
  USING ("id" = tenant_organisation_id()) WITH CHECK ("id" = tenant_organisation_id());
--> statement-breakpoint
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY[
    'gyms', 'destination_accounts', 'organisation_users', 'gym_users', 'offerings', 'offering_gyms', 'offering_hours',
    'prices', 'payment_types', 'subscriptions', 'payments', 'visits', 'access_control_credentials', 'price_changes',
    'daily_revenue', 'daily_visits', 'conversations', 'messages', 'figures_cache'
  ] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I TO gym_tenant USING (organisation_id = tenant_organisation_id()) WITH CHECK (organisation_id = tenant_organisation_id())',
      t
    );
  END LOOP;
END $$;
--> statement-breakpoint
-- The one question a tenant may ask across organisations: does this person also belong to another one (then
-- their sign-in e-mail is not this organisation's to change)? Answered as a yes or no, by the tables' owner.
CREATE FUNCTION person_belongs_elsewhere(person integer) RETURNS boolean
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT EXISTS (
    SELECT 1 FROM organisation_users
    WHERE user_id = person AND deleted_at IS NULL AND organisation_id IS DISTINCT FROM tenant_organisation_id()
  )
$$;
