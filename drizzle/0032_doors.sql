CREATE TABLE "access_control_doors" (
	"id" serial PRIMARY KEY NOT NULL,
	"organisation_id" integer NOT NULL,
	"place_row_id" integer NOT NULL,
	"gym_id" integer NOT NULL,
	"door_id" text NOT NULL,
	"name" text NOT NULL,
	"tracks_visits" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "access_control_integrations" (
	"id" serial PRIMARY KEY NOT NULL,
	"organisation_id" integer NOT NULL,
	"integration_type" text NOT NULL,
	"api_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "access_control_places" (
	"id" serial PRIMARY KEY NOT NULL,
	"organisation_id" integer NOT NULL,
	"gym_id" integer NOT NULL,
	"place_id" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_door_locks" (
	"id" serial PRIMARY KEY NOT NULL,
	"place_id" integer NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_door_places" (
	"id" serial PRIMARY KEY NOT NULL,
	"account" text NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "door_event_id" text;--> statement-breakpoint
ALTER TABLE "access_control_doors" ADD CONSTRAINT "access_control_doors_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_control_doors" ADD CONSTRAINT "access_control_doors_place_row_id_access_control_places_id_fk" FOREIGN KEY ("place_row_id") REFERENCES "public"."access_control_places"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_control_doors" ADD CONSTRAINT "access_control_doors_gym_id_gyms_id_fk" FOREIGN KEY ("gym_id") REFERENCES "public"."gyms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_control_integrations" ADD CONSTRAINT "access_control_integrations_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_control_places" ADD CONSTRAINT "access_control_places_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_control_places" ADD CONSTRAINT "access_control_places_gym_id_gyms_id_fk" FOREIGN KEY ("gym_id") REFERENCES "public"."gyms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_door_locks" ADD CONSTRAINT "sandbox_door_locks_place_id_sandbox_door_places_id_fk" FOREIGN KEY ("place_id") REFERENCES "public"."sandbox_door_places"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "access_control_doors_door_idx" ON "access_control_doors" USING btree ("organisation_id","door_id");--> statement-breakpoint
CREATE UNIQUE INDEX "access_control_integrations_org_idx" ON "access_control_integrations" USING btree ("organisation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "access_control_places_gym_idx" ON "access_control_places" USING btree ("gym_id");--> statement-breakpoint
CREATE UNIQUE INDEX "access_control_places_place_idx" ON "access_control_places" USING btree ("organisation_id","place_id");--> statement-breakpoint
CREATE UNIQUE INDEX "visits_door_event_idx" ON "visits" USING btree ("organisation_id","door_event_id") WHERE "visits"."door_event_id" is not null;
--> statement-breakpoint
-- An organisation's rows, behind the same wall as every organisation table (0013).
ALTER TABLE "access_control_integrations" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "access_control_integrations" TO gym_tenant
  USING (organisation_id = tenant_organisation_id()) WITH CHECK (organisation_id = tenant_organisation_id());
--> statement-breakpoint
ALTER TABLE "access_control_places" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "access_control_places" TO gym_tenant
  USING (organisation_id = tenant_organisation_id()) WITH CHECK (organisation_id = tenant_organisation_id());
--> statement-breakpoint
ALTER TABLE "access_control_doors" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "access_control_doors" TO gym_tenant
  USING (organisation_id = tenant_organisation_id()) WITH CHECK (organisation_id = tenant_organisation_id());
