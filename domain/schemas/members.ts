import { z } from "zod";
import { calendarDay, DAY_SHAPE } from "./dates";
import { optional } from "./fields";
import { CONFIDENCE_ANSWERS, HEAR_ABOUT_US_ANSWERS } from "../member";
import { databaseId } from "./ids";
import { MSG } from "./messages";
import { defaultDirection, MEMBER_SORTS, MEMBER_STATUS_FILTERS, MEMBERS_PER_PAGE, type MemberSort, type MemberStatusFilter } from "../member-list";

export { defaultDirection, MEMBER_SORTS, MEMBER_STATUS_FILTERS, MEMBERS_PER_PAGE, type MemberSort, type MemberStatusFilter };

/** A GET form sends every field, empty ones as "": those mean "no filter". */
const id = (what: string) => {
  const message = `Choose ${/^[aeiou]/.test(what) ? "an" : "a"} ${what} from the list`;
  return databaseId(message);
};

/**
 * The members list's filters, sort and page (GET /api/members, POST /api/members/export, and the /members
 * page's query string, so a filtered list is a link anyone can share). Unknown parameters are ignored.
 */
export const memberListQuery = z.object({
  page: optional(z.coerce.number().int().min(1).max(1_000_000)).transform((v) => v ?? 1),
  status: optional(z.enum(MEMBER_STATUS_FILTERS, { errorMap: () => ({ message: "Choose a status from the list" }) })),
  offering: optional(id("offering")),
  price: optional(id("price")),
  tag: optional(z.string().trim().max(50, "Tags are at most 50 characters")),
  /** A gym of the organisation, or "all" (organisation admins only); the current gym when absent. */
  gym: optional(z.union([z.literal("all"), id("gym")])),
  q: optional(z.string().trim().max(100, "Search for at most 100 characters")),
  sort: optional(z.enum(MEMBER_SORTS, { errorMap: () => ({ message: "Sort by name, joined or last visit" }) })).transform((v) => v ?? "name"),
  dir: optional(z.enum(["asc", "desc"], { errorMap: () => ({ message: "Sort ascending or descending" }) })),
});
export type MemberListQuery = z.infer<typeof memberListQuery>;

/** Name A→Z; joined and last visit newest first, unless the link says otherwise. */

// ───────────────────────────── editing a member ─────────────────────────────

const blank = (v: unknown) => ((typeof v === "string" && v.trim() === "") || v === null ? undefined : v);
const text = (max: number) => z.preprocess(blank, z.string().trim().max(max, MSG.max(max)).optional());
const phone = z.preprocess(
  blank,
  z
    .string()
    .trim()
    .regex(/^\+?[\d\s().-]{6,20}$/, "Enter a phone number, such as 021 555 0123")
    .optional(),
);
/** An HTML checkbox sends "on" when ticked and nothing when not; JSON sends a boolean. */
const checkbox = z.preprocess((v) => v === true || v === "on" || v === "true" || v === "1", z.boolean());

export const MEMBER_TAGS_MAX = 20;

/**
 * PUT /api/members/{id}: the member's whole editable profile. A field left out is cleared (PUT replaces),
 * which is what lets the form drop empty values and still clear a field; an unticked checkbox is false.
 */
export const memberUpdateSchema = z
  .object({
    name: z.string({ required_error: MSG.required }).trim().min(1, MSG.required).max(120, MSG.max(120)),
    email: z.string({ required_error: MSG.required }).trim().min(1, MSG.required).email(MSG.email).max(254, MSG.max(254)),
    mobile_number: phone,
    dob: z.preprocess(
      blank,
      z
        .string()
        .regex(DAY_SHAPE, "Enter a date such as 1990-04-21")
        .refine((d) => d <= new Date().toISOString().slice(0, 10), "Enter a date of birth in the past")
        .pipe(calendarDay("Enter a real date of birth, such as 1990-04-21"))
        .optional(),
    ),
    address: text(200),
    suburb: text(100),
    city: text(100),
    post_code: text(10),
    emergency_contact_name: text(120),
    emergency_contact_number: phone,
    emergency_contact_relationship: text(60),
    notes: text(2000),
    tags: z.preprocess(
      (v) => (typeof v === "string" ? v.split(",") : v ?? []),
      z
        .array(z.string().trim().max(50, "Tags are at most 50 characters"))
        .transform((tags) => [...new Set(tags.filter(Boolean))])
        .refine((tags) => tags.length <= MEMBER_TAGS_MAX, `At most ${MEMBER_TAGS_MAX} tags`),
    ),
    email_notifications: checkbox,
    push_notifications: checkbox,
    payment_reminders: checkbox,
    confidence_and_experience: z.preprocess(blank, z.enum(CONFIDENCE_ANSWERS, { errorMap: () => ({ message: "Choose an answer from the list" }) }).optional()),
    hear_about_us: z.preprocess(blank, z.enum(HEAR_ABOUT_US_ANSWERS, { errorMap: () => ({ message: "Choose an answer from the list" }) }).optional()),
    hear_about_us_other: text(200),
    home_gym_id: z.preprocess(blank, databaseId("Choose a gym from the list").optional()),
  })
  .superRefine((v, ctx) => {
    if (v.hear_about_us === "other" && !v.hear_about_us_other) ctx.addIssue({ code: "custom", path: ["hear_about_us_other"], message: MSG.required });
  });
export type MemberUpdate = z.infer<typeof memberUpdateSchema>;

/**
 * PUT /api/me/details (issue 31): what a member changes about themselves on the sign-up host, checked by the same
 * rules as staff's form. The e-mail (their sign-in) and date of birth (the age rule) stay with the gym's staff.
 */
export const memberSelfUpdateSchema = memberUpdateSchema.innerType().pick({
  name: true,
  mobile_number: true,
  address: true,
  suburb: true,
  city: true,
  post_code: true,
  emergency_contact_name: true,
  emergency_contact_number: true,
  emergency_contact_relationship: true,
  email_notifications: true,
  push_notifications: true,
  payment_reminders: true,
});
export type MemberSelfUpdate = z.infer<typeof memberSelfUpdateSchema>;

/** The person's own fields (decision 0048), as the form and the users row name them:
 * an organisation writes them only while no other holds the person (server/members/edit.ts). */
export const PERSON_FIELDS = [
  "name",
  "mobile_number",
  "dob",
  "address",
  "suburb",
  "city",
  "post_code",
  "emergency_contact_name",
  "emergency_contact_number",
  "emergency_contact_relationship",
  "email_notifications",
  "push_notifications",
  "payment_reminders",
  "confidence_and_experience",
  "hear_about_us",
  "hear_about_us_other",
] as const;

const weeksMessage = "Weeks must be a whole number from 1 to 104";
/** ?weeks= of a member's weekly figures (visits, cost per visit, periods): 1 to 104, 26 when not given. */
export const weeksQuery = z.object({
  weeks: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce.number({ invalid_type_error: weeksMessage }).int(weeksMessage).min(1, weeksMessage).max(104, weeksMessage).default(26),
  ),
});
