ALTER TABLE "gyms" ADD COLUMN "card_surcharge_basis_points" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "gyms" ADD COLUMN "card_surcharge_fixed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "gyms" ADD COLUMN "general_card_surcharge_text" text;--> statement-breakpoint
-- A surcharge is 0–100 % and a fixed amount of at least 0 cents; the gyms screen (issue 15) says so on its form too.
ALTER TABLE "gyms" ADD CONSTRAINT "gyms_card_surcharge_range" CHECK ("card_surcharge_basis_points" BETWEEN 0 AND 10000 AND "card_surcharge_fixed" >= 0);
