CREATE TABLE "webhook_calls" (
	"id" serial PRIMARY KEY NOT NULL,
	"organisation_id" integer,
	"provider" text NOT NULL,
	"event_id" text,
	"event_type" text,
	"status" text NOT NULL,
	"result" text,
	"headers" jsonb NOT NULL,
	"body" text NOT NULL,
	"duration_ms" integer,
	"replay_of_id" integer,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_calls" ADD CONSTRAINT "webhook_calls_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_calls_event_idx" ON "webhook_calls" USING btree ("provider","event_id");--> statement-breakpoint
CREATE INDEX "webhook_calls_organisation_idx" ON "webhook_calls" USING btree ("organisation_id","received_at");--> statement-breakpoint
-- Hand-written: webhook calls belong to the organisation they were resolved to, behind the same row-level policy
-- as every table that carries one (drizzle/0013). Calls no organisation could be resolved for are seen by none.
ALTER TABLE "webhook_calls" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "webhook_calls" TO gym_tenant
  USING ("organisation_id" = tenant_organisation_id()) WITH CHECK ("organisation_id" = tenant_organisation_id());
