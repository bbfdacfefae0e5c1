DROP INDEX "payments_pending_idx";--> statement-breakpoint
CREATE INDEX "payments_pending_id_idx" ON "payments" USING btree ("id") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "payments_failed_idx" ON "payments" USING btree ("created_at") WHERE status = 'failed';--> statement-breakpoint
CREATE INDEX "subscriptions_grace_idx" ON "subscriptions" USING btree ("grace_period_ends_at") WHERE grace_period_ends_at is not null;