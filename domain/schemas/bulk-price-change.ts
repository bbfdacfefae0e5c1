import { z } from "zod";
import { optional, flag } from "./fields";
import { MEMBER_STATUS_FILTERS } from "./members";
import { databaseId } from "./ids";
import { MSG } from "./messages";
import { calendarDay } from "./subscriptions";

/**
 * The bulk price change (issue 12, POST /api/members/change-price and its preview; the /members/change-price form):
 * the prices members move from (one or more), the price they move to, from when, and which members (the /members
 * list's filters). `key` is the form's own: a form sent twice makes one change.
 */
/** Repeated form fields arrive as an array, a single one as a string. */
const ids = (message: string) =>
  z.preprocess(
    (v) => (v === undefined || v === null || v === "" ? [] : Array.isArray(v) ? v : [v]),
    z.array(databaseId(message), { invalid_type_error: message }).min(1, message).max(100, "Choose at most 100 prices"),
  );

const fields = z.object({
    from_price_ids: ids("Choose the prices members move from"),
    to_price_id: databaseId("Choose the price members move to"),
    from: z.enum(["period_end", "date"], { errorMap: () => ({ message: "Choose when the new price starts" }) }),
    date: optional(calendarDay("Enter the day the new price starts")),
    notify: optional(flag),
    /** Replace a change a member already has scheduled (else they are skipped, with the reason). */
    replace_scheduled: optional(flag),
    gym: optional(z.union([z.literal("all"), databaseId("Choose a gym from the list")])),
    status: optional(z.enum(MEMBER_STATUS_FILTERS, { errorMap: () => ({ message: "Choose a status from the list" }) })),
    tag: optional(z.string().trim().max(50, "Tags are at most 50 characters")),
    q: optional(z.string().trim().max(100, "Search for at most 100 characters")),
});
const dayWhenChosen = (r: { from: string; date?: string }) => r.from !== "date" || Boolean(r.date);
const dayMissing = { message: "Enter the day the new price starts", path: ["date"] };

export const bulkPriceChangeRequest = fields.refine(dayWhenChosen, dayMissing);
export type BulkPriceChangeRequest = z.infer<typeof bulkPriceChangeRequest>;

/** Confirming: the same, and the form's key. */
export const bulkPriceChangeConfirm = fields
  .extend({ key: z.string({ required_error: "Reload the page: the form's key is missing" }).trim().min(8, "Reload the page: the form's key is missing").max(100, MSG.max(100)) })
  .refine(dayWhenChosen, dayMissing);

export const bulkReportQuery = z.object({
  page: optional(z.coerce.number().int().min(1).max(100_000)).transform((v) => v ?? 1),
  show: optional(z.enum(["skipped", "changed", "all"], { errorMap: () => ({ message: "Show skipped, changed or all members" }) })).transform((v) => v ?? "skipped"),
});
