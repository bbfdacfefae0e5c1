-- A cache every server process shares (server/cache/shared-figures.ts). UNLOGGED: not written to the WAL and
-- emptied after a crash, which a cache can afford.
CREATE UNLOGGED TABLE "figures_cache" (
	"key" text PRIMARY KEY NOT NULL,
	"organisation_id" integer NOT NULL,
	"entry" jsonb NOT NULL
);
