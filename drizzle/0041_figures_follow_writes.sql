-- Kept figures follow the writes (issue 30, decision 0055): a write that changes what the dashboard's member
-- summary counts drops that organisation's kept figures (figures_cache), whoever makes it (the API, a job, a
-- webhook, a billing run, an import). It replaces the hand-placed drops after twelve API writes.
-- Statement-level, with transition tables: one DELETE per statement however many rows it changed. An update of
-- organisation_users counts only when a column the summary reads changed: a door visit updates each member's
-- last_visit_at and visits_count (drizzle/0004) and must not empty the dashboard's cache every few seconds.
CREATE OR REPLACE FUNCTION drop_kept_figures() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM figures_cache WHERE organisation_id IN (SELECT DISTINCT organisation_id FROM changed_rows);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION drop_kept_figures_for_members() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM figures_cache WHERE organisation_id IN (
    SELECT DISTINCT n.organisation_id FROM new_rows n JOIN old_rows o USING (organisation_id, user_id)
    WHERE (n.role, n.home_gym_id, n.deleted_at, n.latest_state, n.latest_offering_id, n.latest_pause_start_at, n.latest_pause_end_at)
      IS DISTINCT FROM (o.role, o.home_gym_id, o.deleted_at, o.latest_state, o.latest_offering_id, o.latest_pause_start_at, o.latest_pause_end_at)
  );
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER organisation_users_drop_figures_insert AFTER INSERT ON organisation_users REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION drop_kept_figures();
--> statement-breakpoint
CREATE TRIGGER organisation_users_drop_figures_update AFTER UPDATE ON organisation_users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION drop_kept_figures_for_members();
--> statement-breakpoint
CREATE TRIGGER organisation_users_drop_figures_delete AFTER DELETE ON organisation_users REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION drop_kept_figures();
--> statement-breakpoint
CREATE TRIGGER offerings_drop_figures_insert AFTER INSERT ON offerings REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION drop_kept_figures();
--> statement-breakpoint
CREATE TRIGGER offerings_drop_figures_update AFTER UPDATE ON offerings REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION drop_kept_figures();
--> statement-breakpoint
CREATE TRIGGER offerings_drop_figures_delete AFTER DELETE ON offerings REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION drop_kept_figures();
--> statement-breakpoint
CREATE TRIGGER offering_gyms_drop_figures_insert AFTER INSERT ON offering_gyms REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION drop_kept_figures();
--> statement-breakpoint
CREATE TRIGGER offering_gyms_drop_figures_delete AFTER DELETE ON offering_gyms REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION drop_kept_figures();
