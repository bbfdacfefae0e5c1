-- When each refund's or chargeback's payment was made, on the adjustment itself (issue 28): /payments' `adjusted`
-- filter then reads the adjustments of the list's days from an index, instead of every adjustment the organisation
-- ever had. Kept by a trigger, so every writer (staff refunds, the providers' events, reconciliation, the seed,
-- imports) gets it right without saying; a payment's created_at never changes.
ALTER TABLE "payment_adjustments" ADD COLUMN "payment_created_at" timestamp with time zone;--> statement-breakpoint
UPDATE "payment_adjustments" a SET "payment_created_at" = p."created_at" FROM "payments" p WHERE p."id" = a."payment_id";--> statement-breakpoint
ALTER TABLE "payment_adjustments" ALTER COLUMN "payment_created_at" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "payment_adjustments_payment_day_idx" ON "payment_adjustments" USING btree ("organisation_id","kind","payment_created_at");--> statement-breakpoint
CREATE FUNCTION payment_adjustments_fill_payment_day() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.payment_created_at := (SELECT created_at FROM payments WHERE id = NEW.payment_id);
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER payment_adjustments_fill_payment_day BEFORE INSERT OR UPDATE OF payment_id, payment_created_at ON payment_adjustments
  FOR EACH ROW EXECUTE FUNCTION payment_adjustments_fill_payment_day();
