import { z } from "zod";
import { BILLING_FREQUENCIES, TERM_UNITS } from "../billing";
import { parseAmountToCents } from "../money";
import { OFFERING_TYPES } from "../offering";
import { databaseId } from "./ids";
import { MSG } from "./messages";
import { flag, optional } from "./fields";

/**
 * Offerings and their prices and hours (issue 14; SPEC §5): one set of rules for the /offerings forms and for
 * POST/PUT /api/offerings and /api/prices. The forms take money in dollars ("49.00"); the API in integer cents.
 * Each schema is built for one or the other, and the rules are the same.
 */
export const CHOOSE = "The value is required";
export const ADD_A_DAY = "Add at least one day";
export const SELECT_A_GYM = "Select at least one gym";
export const SELECT_TERM_UNIT = "Please select a term unit";
export const ENTER_TERM_AMOUNT = "Please enter a term amount";

/** The largest amount a price or joining fee may be: $100,000. */
export const MAX_CENTS = 10_000_000;

export type Money = "dollars" | "cents";

/** A required text field: empty is "Value is required". */
const text = (max: number) => z.string({ required_error: MSG.required, invalid_type_error: MSG.required }).trim().min(1, MSG.required).max(max, MSG.max(max));

/** A required choice (a select or radios): empty is "The value is required", a value not on the list another message. */
const choice = <T extends readonly [string, ...string[]]>(values: T, notOnList = "Choose one of the options") =>
  z.preprocess((v) => (v === "" || v === null ? undefined : v), z.enum(values, { errorMap: (issue) => ({ message: issue.code === "invalid_enum_value" ? notOnList : CHOOSE }) }));

/** JSON may send numbers as numeric strings (SPEC §5). */
const numeric = (v: unknown) => (typeof v === "string" && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v);

/** Money: dollars from a form ("49", "49.50", "$1,049.50") or integer cents from the API; empty is absent. */
export function money(kind: Money) {
  const max = kind === "dollars" ? MAX_CENTS / 100 : MAX_CENTS;
  const amount =
    kind === "dollars"
      ? z
          .string({ required_error: MSG.required })
          .trim()
          .transform((s, ctx) => {
            const cents = parseAmountToCents(s);
            if (cents === null) {
              ctx.addIssue({ code: "custom", message: "Enter an amount such as 49.00" });
              return z.NEVER;
            }
            return cents;
          })
      : z.preprocess(numeric, z.number({ required_error: MSG.required, invalid_type_error: "Enter the amount in cents, as a whole number" }).int("Enter the amount in cents, as a whole number").min(0, "The amount cannot be negative"));
  return amount.pipe(z.number().max(MAX_CENTS, MSG.max(max)));
}

const wholeNumber = (min: number, max: number) =>
  z.preprocess(numeric, z.coerce.number({ invalid_type_error: "Enter a whole number" }).int("Enter a whole number").min(min, `The minimum value allowed is ${min}`).max(max, MSG.max(max)));

/** One price (SPEC §3 Price; §5: amount and frequency required, a term needs both its amount and its unit). */
export function priceSchema(kind: Money) {
  return z
    .object({
      /** An existing price being edited within its offering's form. */
      id: optional(databaseId("No such price.")),
      amount: z.preprocess((v) => (v === "" || v === null ? undefined : v), money(kind)),
      billing_frequency: choice(BILLING_FREQUENCIES, "Choose a billing frequency from the list"),
      joining_fee: optional(money(kind)).transform((v) => v ?? 0),
      term_amount: optional(wholeNumber(1, 120)),
      term_unit: optional(z.enum(TERM_UNITS, { errorMap: () => ({ message: SELECT_TERM_UNIT }) })),
      private: flag,
    })
    .superRefine((p, ctx) => {
      if (p.term_amount !== undefined && p.term_unit === undefined) ctx.addIssue({ code: "custom", path: ["term_unit"], message: SELECT_TERM_UNIT });
      if (p.term_unit !== undefined && p.term_amount === undefined) ctx.addIssue({ code: "custom", path: ["term_amount"], message: ENTER_TERM_AMOUNT });
      if (p.billing_frequency === "one_off" && p.term_amount !== undefined) ctx.addIssue({ code: "custom", path: ["term_amount"], message: "A PIF price is paid once, so it has no term" });
    });
}
export type PriceInput = z.output<ReturnType<typeof priceSchema>>;

const TIME = /^([01]?\d|2[0-3]):([0-5]\d)(:[0-5]\d)?$/;
const clock = z
  .string({ required_error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .regex(TIME, "Enter a time such as 9:00 AM")
  .transform((s) => {
    const [h, m] = s.split(":");
    return `${h.padStart(2, "0")}:${m}`;
  });

/** One opening-hours row: a day (1 Monday … 7 Sunday) and its opening and closing times (SPEC §5: all required). */
export const hourSchema = z
  .object({
    day: z.preprocess((v) => (v === "" || v === null ? undefined : numeric(v)), z.number({ required_error: CHOOSE, invalid_type_error: CHOOSE }).int(CHOOSE).min(1, CHOOSE).max(7, CHOOSE)),
    open_at: clock,
    close_at: clock,
  })
  .refine((h) => h.close_at > h.open_at, { path: ["close_at"], message: "Closing time must be after opening time" });

/** A repeated form field arrives as an array, a single one as a string, none as nothing. */
const list = <T extends z.ZodTypeAny>(item: T, max: number, tooMany: string) =>
  z.preprocess((v) => (v === undefined || v === null || v === "" ? [] : Array.isArray(v) ? v : [v]), z.array(item).max(max, tooMany));

/**
 * An offering (SPEC §3, §5): name and type required; a Limited Hours offering whose hours are mandated needs a day;
 * one not open to every gym needs a gym. `prices`: its prices, new (no id) or existing ones changed.
 */
/** The fields alone, each with its own checks (what a form's constraints are read from). */
export function offeringFields(kind: Money) {
  return z.object({
    name: text(100),
    description: optional(z.string().trim().max(1000, MSG.max(1000))),
    type: choice(OFFERING_TYPES),
    all_gyms_access: flag,
    gyms: list(databaseId("Choose gyms from the list"), 200, "Choose at most 200 gyms"),
    mandated: flag,
    hours_mandated: flag,
    prices_mandated: flag,
    hours: list(hourSchema, 28, "Add at most 28 opening-hours rows"),
    prices: list(priceSchema(kind), 30, "Add at most 30 prices at a time"),
  });
}

export function offeringSchema(kind: Money) {
  const fields = offeringFields(kind);
  // The two rules across fields read the raw input beside the fields' own checks, so a form left empty hears all
  // of its messages at once (a refinement of the object would wait until every field was valid).
  const acrossFields = z
    .unknown()
    .superRefine((raw, ctx) => {
      const o = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
      const isOn = (v: unknown) => flag.safeParse(v).data === true;
      const count = (v: unknown) => (Array.isArray(v) ? v.length : v === undefined || v === null || v === "" ? 0 : 1);
      if (o.type === "limited_access" && isOn(o.hours_mandated) && count(o.hours) === 0) ctx.addIssue({ code: "custom", path: ["hours"], message: ADD_A_DAY });
      if (!isOn(o.all_gyms_access) && count(o.gyms) === 0) ctx.addIssue({ code: "custom", path: ["gyms"], message: SELECT_A_GYM });
    })
    .transform(() => ({}));
  return z.intersection(fields, acrossFields).transform((o) => o as z.output<typeof fields>);
}
export type OfferingInput = z.output<ReturnType<typeof offeringSchema>>;

export const offeringForm = offeringSchema("dollars");
export const offeringFormFields = offeringFields("dollars");
/** The API body's fields, without the rules across them: what the OpenAPI document describes (offeringRequest checks both). */
export const offeringRequestFields = offeringFields("cents");
export const offeringRequest = offeringSchema("cents");
export const priceRequest = priceSchema("cents");

/** GET /api/offerings?status= : live offerings (the default for the page), archived ones, or all. */
export const offeringsQuery = z.object({
  status: optional(z.enum(["active", "archived", "all"], { errorMap: () => ({ message: "Show active, archived or all offerings" }) })).transform((v) => v ?? "all"),
});

/** POST /api/prices/{id}/private-links: whether the link also lets someone under the minimum age join. */
export const privateLinkRequest = z.object({ age_bypass: optional(flag).transform((v) => v ?? false) });
