CREATE TABLE "recurring_schedules" (
	"id" serial PRIMARY KEY NOT NULL,
	"organisation_id" integer NOT NULL,
	"gym_id" integer NOT NULL,
	"trainer_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"rrule" text NOT NULL,
	"starts_on" date NOT NULL,
	"ends_on" date,
	"start_time" text NOT NULL,
	"duration_minutes" integer NOT NULL,
	"notes" text,
	"previous_id" integer,
	"created_by" integer NOT NULL,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recurring_schedules_duration" CHECK ("recurring_schedules"."duration_minutes" > 0)
);
--> statement-breakpoint
ALTER TABLE "organisation_users" ADD COLUMN "calendar_feed_token" text;--> statement-breakpoint
ALTER TABLE "organisation_users" ADD COLUMN "calendar_feed_hash" text;--> statement-breakpoint
ALTER TABLE "recurring_schedules" ADD CONSTRAINT "recurring_schedules_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recurring_schedules" ADD CONSTRAINT "recurring_schedules_gym_id_gyms_id_fk" FOREIGN KEY ("gym_id") REFERENCES "public"."gyms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recurring_schedules" ADD CONSTRAINT "recurring_schedules_trainer_id_users_id_fk" FOREIGN KEY ("trainer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recurring_schedules" ADD CONSTRAINT "recurring_schedules_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recurring_schedules" ADD CONSTRAINT "recurring_schedules_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recurring_schedules_trainer_idx" ON "recurring_schedules" USING btree ("organisation_id","trainer_id");--> statement-breakpoint
CREATE INDEX "recurring_schedules_member_idx" ON "recurring_schedules" USING btree ("organisation_id","member_id");--> statement-breakpoint
CREATE UNIQUE INDEX "appointments_occurrence_idx" ON "appointments" USING btree ("series_id","occurrence_start");--> statement-breakpoint
ALTER TABLE "organisation_users" ADD CONSTRAINT "organisation_users_calendar_feed_hash_unique" UNIQUE("calendar_feed_hash");--> statement-breakpoint
-- An organisation's rows, behind the same wall as every organisation table (0013).
ALTER TABLE "recurring_schedules" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "recurring_schedules" TO gym_tenant
  USING (organisation_id = tenant_organisation_id()) WITH CHECK (organisation_id = tenant_organisation_id());
