-- A member's code at the desk and the kiosk (issue 32): eight characters of Crockford's base 32 (digits and letters
-- without I, L, O and U, so none is read as another), at random. 32^8 codes: a clash in one organisation is left to
-- the unique index below. Volatile, so the column's default gives every existing row its own.
CREATE OR REPLACE FUNCTION new_member_code() RETURNS text LANGUAGE sql VOLATILE AS $$
  SELECT string_agg(substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', 1 + floor(random() * 32)::int, 1), '')
  FROM generate_series(1, 8)
$$;--> statement-breakpoint
ALTER TABLE "organisation_users" ADD COLUMN "member_code" text DEFAULT new_member_code() NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "kiosk_gym_id" integer;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "source" text DEFAULT 'door' NOT NULL;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "checked_in_by" integer;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_kiosk_gym_id_gyms_id_fk" FOREIGN KEY ("kiosk_gym_id") REFERENCES "public"."gyms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_checked_in_by_users_id_fk" FOREIGN KEY ("checked_in_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "organisation_users_member_code_idx" ON "organisation_users" USING btree ("organisation_id","member_code");