ALTER TABLE "sandbox_ledger" ADD COLUMN "webhook_state" text;--> statement-breakpoint
ALTER TABLE "sandbox_ledger" ADD COLUMN "webhook_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "sandbox_ledger_webhooks_due_idx" ON "sandbox_ledger" USING btree ("created_at") WHERE webhook_state is null;--> statement-breakpoint
-- Hand-written: charges made before the sandbox sent webhooks are owed none.
UPDATE "sandbox_ledger" SET "webhook_state" = 'delivered', "webhook_at" = "created_at";
