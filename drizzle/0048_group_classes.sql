CREATE TABLE "class_bookings" (
	"id" serial PRIMARY KEY NOT NULL,
	"organisation_id" integer NOT NULL,
	"occurrence_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"status" text NOT NULL,
	"waitlisted_at" timestamp with time zone,
	"booked_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"attended_at" timestamp with time zone,
	"visit_id" integer,
	"payment_id" integer,
	"source" text NOT NULL,
	"created_by" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "class_occurrences" (
	"id" serial PRIMARY KEY NOT NULL,
	"organisation_id" integer NOT NULL,
	"gym_id" integer NOT NULL,
	"class_type_id" integer NOT NULL,
	"schedule_id" integer NOT NULL,
	"occurrence_day" date NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"trainer_id" integer NOT NULL,
	"room" text,
	"capacity" integer NOT NULL,
	"waitlist_size" integer DEFAULT 0 NOT NULL,
	"cancelled_at" timestamp with time zone,
	"cancel_reason" text,
	"attendance_closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "class_occurrences_order" CHECK ("class_occurrences"."ends_at" > "class_occurrences"."starts_at"),
	CONSTRAINT "class_occurrences_sizes" CHECK ("class_occurrences"."capacity" > 0 and "class_occurrences"."waitlist_size" >= 0)
);
--> statement-breakpoint
CREATE TABLE "class_schedules" (
	"id" serial PRIMARY KEY NOT NULL,
	"organisation_id" integer NOT NULL,
	"gym_id" integer NOT NULL,
	"class_type_id" integer NOT NULL,
	"trainer_id" integer NOT NULL,
	"room" text,
	"capacity" integer NOT NULL,
	"waitlist_size" integer DEFAULT 0 NOT NULL,
	"rrule" text,
	"starts_on" date NOT NULL,
	"ends_on" date,
	"start_time" text NOT NULL,
	"duration_minutes" integer NOT NULL,
	"generated_until" date,
	"previous_id" integer,
	"created_by" integer NOT NULL,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "class_schedules_sizes" CHECK ("class_schedules"."duration_minutes" > 0 and "class_schedules"."capacity" > 0 and "class_schedules"."waitlist_size" >= 0)
);
--> statement-breakpoint
CREATE TABLE "class_type_inclusions" (
	"id" serial PRIMARY KEY NOT NULL,
	"organisation_id" integer NOT NULL,
	"class_type_id" integer NOT NULL,
	"offering_id" integer,
	"price_id" integer,
	CONSTRAINT "class_type_inclusions_one" CHECK (("class_type_inclusions"."offering_id" is null) <> ("class_type_inclusions"."price_id" is null))
);
--> statement-breakpoint
CREATE TABLE "class_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"organisation_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"duration_minutes" integer NOT NULL,
	"default_capacity" integer NOT NULL,
	"default_waitlist" integer DEFAULT 0 NOT NULL,
	"colour" text NOT NULL,
	"drop_in_amount" integer,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "class_types_sizes" CHECK ("class_types"."duration_minutes" > 0 and "class_types"."default_capacity" > 0 and "class_types"."default_waitlist" >= 0),
	CONSTRAINT "class_types_drop_in" CHECK ("class_types"."drop_in_amount" is null or "class_types"."drop_in_amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "class_booking_window_days" integer DEFAULT 7 NOT NULL;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "class_cancel_cutoff_minutes" integer DEFAULT 120 NOT NULL;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "class_max_bookings" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "class_bookings" ADD CONSTRAINT "class_bookings_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_bookings" ADD CONSTRAINT "class_bookings_occurrence_id_class_occurrences_id_fk" FOREIGN KEY ("occurrence_id") REFERENCES "public"."class_occurrences"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_bookings" ADD CONSTRAINT "class_bookings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_bookings" ADD CONSTRAINT "class_bookings_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_occurrences" ADD CONSTRAINT "class_occurrences_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_occurrences" ADD CONSTRAINT "class_occurrences_gym_id_gyms_id_fk" FOREIGN KEY ("gym_id") REFERENCES "public"."gyms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_occurrences" ADD CONSTRAINT "class_occurrences_class_type_id_class_types_id_fk" FOREIGN KEY ("class_type_id") REFERENCES "public"."class_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_occurrences" ADD CONSTRAINT "class_occurrences_schedule_id_class_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."class_schedules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_occurrences" ADD CONSTRAINT "class_occurrences_trainer_id_users_id_fk" FOREIGN KEY ("trainer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_schedules" ADD CONSTRAINT "class_schedules_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_schedules" ADD CONSTRAINT "class_schedules_gym_id_gyms_id_fk" FOREIGN KEY ("gym_id") REFERENCES "public"."gyms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_schedules" ADD CONSTRAINT "class_schedules_class_type_id_class_types_id_fk" FOREIGN KEY ("class_type_id") REFERENCES "public"."class_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_schedules" ADD CONSTRAINT "class_schedules_trainer_id_users_id_fk" FOREIGN KEY ("trainer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_schedules" ADD CONSTRAINT "class_schedules_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_type_inclusions" ADD CONSTRAINT "class_type_inclusions_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_type_inclusions" ADD CONSTRAINT "class_type_inclusions_class_type_id_class_types_id_fk" FOREIGN KEY ("class_type_id") REFERENCES "public"."class_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_type_inclusions" ADD CONSTRAINT "class_type_inclusions_offering_id_offerings_id_fk" FOREIGN KEY ("offering_id") REFERENCES "public"."offerings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_type_inclusions" ADD CONSTRAINT "class_type_inclusions_price_id_prices_id_fk" FOREIGN KEY ("price_id") REFERENCES "public"."prices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_types" ADD CONSTRAINT "class_types_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "class_bookings_live_idx" ON "class_bookings" USING btree ("occurrence_id","user_id") WHERE status not in ('cancelled', 'late_cancelled');--> statement-breakpoint
CREATE INDEX "class_bookings_occurrence_idx" ON "class_bookings" USING btree ("occurrence_id","status");--> statement-breakpoint
CREATE INDEX "class_bookings_user_idx" ON "class_bookings" USING btree ("organisation_id","user_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "class_occurrences_day_idx" ON "class_occurrences" USING btree ("schedule_id","occurrence_day");--> statement-breakpoint
CREATE INDEX "class_occurrences_gym_idx" ON "class_occurrences" USING btree ("organisation_id","gym_id","starts_at");--> statement-breakpoint
CREATE INDEX "class_occurrences_trainer_idx" ON "class_occurrences" USING btree ("organisation_id","trainer_id","starts_at");--> statement-breakpoint
CREATE INDEX "class_schedules_gym_idx" ON "class_schedules" USING btree ("organisation_id","gym_id");--> statement-breakpoint
CREATE UNIQUE INDEX "class_type_inclusions_offering_idx" ON "class_type_inclusions" USING btree ("class_type_id","offering_id") WHERE offering_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "class_type_inclusions_price_idx" ON "class_type_inclusions" USING btree ("class_type_id","price_id") WHERE price_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "class_types_name_idx" ON "class_types" USING btree ("organisation_id",lower("name")) WHERE archived_at is null;--> statement-breakpoint
ALTER TABLE "class_types" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "class_types" TO gym_tenant
  USING (organisation_id = tenant_organisation_id()) WITH CHECK (organisation_id = tenant_organisation_id());
--> statement-breakpoint
ALTER TABLE "class_type_inclusions" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "class_type_inclusions" TO gym_tenant
  USING (organisation_id = tenant_organisation_id()) WITH CHECK (organisation_id = tenant_organisation_id());
--> statement-breakpoint
ALTER TABLE "class_schedules" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "class_schedules" TO gym_tenant
  USING (organisation_id = tenant_organisation_id()) WITH CHECK (organisation_id = tenant_organisation_id());
--> statement-breakpoint
ALTER TABLE "class_occurrences" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "class_occurrences" TO gym_tenant
  USING (organisation_id = tenant_organisation_id()) WITH CHECK (organisation_id = tenant_organisation_id());
--> statement-breakpoint
ALTER TABLE "class_bookings" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "class_bookings" TO gym_tenant
  USING (organisation_id = tenant_organisation_id()) WITH CHECK (organisation_id = tenant_organisation_id());
