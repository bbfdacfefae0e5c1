import { z } from "zod";
import { optional } from "./fields";
import { databaseId } from "./ids";

const day = (what: string) =>
  z
    .string({ required_error: `Enter the ${what}` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `Enter the ${what} as yyyy-mm-dd`)
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), `Enter a real ${what}`);

/** The longest range the expected-payments check looks at in one go: a quarter. */
export const EXPECTED_PAYMENTS_MAX_DAYS = 92;

/** GET /api/expected-payments-debugging?from=&to=&gym=&page=&mismatches=1 */
export const expectedPaymentsQuery = z
  .object({
    from: day("start date"),
    to: day("end date"),
    gym: optional(databaseId("Choose a gym from the list")),
    mismatches: optional(z.enum(["1", "0"]).transform((v) => v === "1")),
    page: optional(z.coerce.number({ invalid_type_error: "Page must be a number" }).int().min(1, "Page must be 1 or more").max(100_000)),
  })
  .refine((q) => q.from <= q.to, { message: "The end date must be on or after the start date", path: ["to"] })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < EXPECTED_PAYMENTS_MAX_DAYS, {
    message: `Look at ${EXPECTED_PAYMENTS_MAX_DAYS} days or fewer at a time`,
    path: ["to"],
  });

/** GET /api/active-user-debugging?member=&day= */
export const activeUserQuery = z.object({
  member: databaseId("Choose a member"),
  day: day("day"),
});
