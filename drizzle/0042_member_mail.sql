ALTER TABLE "mail_outbox" ADD COLUMN "headers" jsonb;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "payment_receipts" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "signup_reminders" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "membership_terms_text" text;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "membership_terms_url" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "paid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "terms_accepted" jsonb;--> statement-breakpoint
CREATE INDEX "payments_paid_at_idx" ON "payments" USING btree ("paid_at") WHERE status = 'sent';--> statement-breakpoint
-- When a payment became successful, as 0035 keeps when one failed: whatever wrote it (the billing run, a webhook,
-- staff at the desk, an import). A receipt goes out from this moment (server/member-notices/payment-mail.ts); rows paid
-- before this column keep it empty, so nobody is sent a receipt for an old payment.
CREATE FUNCTION payments_fill_paid_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.paid_at := CASE WHEN TG_OP = 'INSERT' THEN coalesce(NEW.created_at, now()) ELSE now() END;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER payments_fill_paid_at BEFORE INSERT OR UPDATE OF status ON payments
  FOR EACH ROW WHEN (NEW.status = 'sent' AND NEW.paid_at IS NULL) EXECUTE FUNCTION payments_fill_paid_at();
