-- Global member search (POST /api/search, server/api/search/queries.ts). The query spells these exact
-- expressions: PostgreSQL only uses an expression index for the same expression.
-- Trigram GIN indexes answer "contains" (lower(x) LIKE '%q%'); btree indexes in the "C" collation answer
-- "starts with" (LIKE 'q%' becomes an index range) in index order, so prefix hits come back already sorted.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_name_trgm_idx" ON "users" USING gin (lower("name") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_email_trgm_idx" ON "users" USING gin (lower("email") gin_trgm_ops);
--> statement-breakpoint
-- Digits only, so "0215550" finds "021 555 0123" whatever spaces or dashes the number was stored with.
CREATE INDEX IF NOT EXISTS "users_mobile_digits_trgm_idx" ON "users" USING gin (regexp_replace("mobile_number", '\D', '', 'g') gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_name_prefix_idx" ON "users" USING btree (lower("name") COLLATE "C");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_email_prefix_idx" ON "users" USING btree (lower("email") COLLATE "C");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_mobile_digits_prefix_idx" ON "users" USING btree (regexp_replace("mobile_number", '\D', '', 'g') COLLATE "C");
--> statement-breakpoint
-- Creating an index does not trigger auto-analyze; without statistics on these expressions the planner
-- would guess how many rows a pattern matches until enough rows change.
ANALYZE "users";
