CREATE TABLE "installation_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- The installation's webhook secrets are no organisation's: requests scoped to one (the role gym_tenant, drizzle/0013)
-- never read them.
REVOKE ALL ON "installation_secrets" FROM gym_tenant;
