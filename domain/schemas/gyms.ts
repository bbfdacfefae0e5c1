import { z } from "zod";
import { parseNzAccount } from "../bank-account";
import { flag, optional } from "./fields";
import { MSG } from "./messages";
import { GYM_CREDENTIALS, type CredentialService } from "../gym-credentials";
import { money, type Money } from "./offerings";

/**
 * A gym's own settings (issue 15, /gyms/{id}/edit; SPEC §7 Gyms, §5 Destination account). One schema per section,
 * for the page and the API alike. The card surcharge's fixed part is money: dollars on the page, cents in the API.
 */
const text = (max: number) => z.string({ required_error: MSG.required, invalid_type_error: MSG.required }).trim().min(1, MSG.required).max(max, MSG.max(max));
const numeric = (v: unknown) => (v === "" || v === null ? undefined : typeof v === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v);

export function gymDetailsSchema(kind: Money) {
  return z.object({
    name: text(100),
    address: optional(z.string().trim().max(300, MSG.max(300))),
    price_change_notification_reply_to: optional(z.string().trim().max(254, MSG.max(254)).email(MSG.email)),
    break_fee_percentage: optional(z.preprocess(numeric, z.number({ invalid_type_error: "Enter a whole number" }).int("Enter a whole number").min(0, "The minimum value allowed is 0").max(100, MSG.max(100)))),
    /** The card surcharge's percentage, up to two decimals ("1.5" is 1.5 %), kept as basis points. */
    card_surcharge_percent: optional(
      z.preprocess(numeric, z.number({ invalid_type_error: "Enter a percentage such as 1.5" }).min(0, "The minimum value allowed is 0").max(10, MSG.max(10)))
        .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-9, "Use at most two decimals"),
    ),
    card_surcharge_fixed: optional(money(kind)),
    general_card_surcharge_text: optional(z.string().trim().max(200, MSG.max(200))),
  });
}
export const gymDetailsForm = gymDetailsSchema("dollars");
export const gymDetailsRequest = gymDetailsSchema("cents");
export type GymDetailsInput = z.output<ReturnType<typeof gymDetailsSchema>>;

/**
 * PUT /api/gyms/{gymId}/destination-accounts/{accountId} (SPEC §5): the name always; the number only when it is being
 * changed, and then its repeat too, equal to it (sent as bank_account_number_confirmation). An account that has no
 * number yet must be given one. New Zealand numbers are checked for format and checksum.
 */
export const destinationAccountRequest = z
  .object({
    name: text(100),
    bank_account_number: optional(z.string().trim().max(30, MSG.max(30))),
    bank_account_number_confirmation: optional(z.string().trim().max(30, MSG.max(30))),
  })
  .superRefine((a, ctx) => {
    if (a.bank_account_number === undefined) {
      if (a.bank_account_number_confirmation !== undefined) ctx.addIssue({ code: "custom", path: ["bank_account_number"], message: MSG.required });
      return;
    }
    const parsed = parseNzAccount(a.bank_account_number);
    if (!parsed.ok) ctx.addIssue({ code: "custom", path: ["bank_account_number"], message: parsed.message });
    if (a.bank_account_number_confirmation === undefined) ctx.addIssue({ code: "custom", path: ["bank_account_number_confirmation"], message: MSG.required });
    else if (a.bank_account_number_confirmation.replace(/[\s-]/g, "") !== a.bank_account_number.replace(/[\s-]/g, "")) ctx.addIssue({ code: "custom", path: ["bank_account_number_confirmation"], message: MSG.same });
  })
  .transform((a) => {
    const parsed = a.bank_account_number ? parseNzAccount(a.bank_account_number) : null;
    return { name: a.name, bank_account_number: parsed?.ok ? parsed.account.formatted : undefined };
  });
export type DestinationAccountInput = z.output<typeof destinationAccountRequest>;

/**
 * POST /api/gyms and /gyms/new (issue 32): a new gym's name, address, visit tracking and, optionally, the bank account
 * its money goes to (all three account fields or none; the number as PUT …/destination-accounts checks it). Its time
 * zone is not asked: every gym shows dates in Pacific/Auckland (SPEC §1), which the page says.
 */
export const newGymRequest = z
  .object({
    name: text(100),
    address: optional(z.string().trim().max(300, MSG.max(300))),
    tracks_visits: flag,
    bank_account_name: optional(z.string().trim().max(100, MSG.max(100))),
    bank_account_number: optional(z.string().trim().max(30, MSG.max(30))),
    bank_account_number_confirmation: optional(z.string().trim().max(30, MSG.max(30))),
  })
  .superRefine((g, ctx) => {
    if (g.bank_account_name === undefined && g.bank_account_number === undefined && g.bank_account_number_confirmation === undefined) return;
    if (g.bank_account_name === undefined) ctx.addIssue({ code: "custom", path: ["bank_account_name"], message: MSG.required });
    if (g.bank_account_number === undefined) {
      ctx.addIssue({ code: "custom", path: ["bank_account_number"], message: MSG.required });
      return;
    }
    const parsed = parseNzAccount(g.bank_account_number);
    if (!parsed.ok) ctx.addIssue({ code: "custom", path: ["bank_account_number"], message: parsed.message });
    if (g.bank_account_number_confirmation === undefined) ctx.addIssue({ code: "custom", path: ["bank_account_number_confirmation"], message: MSG.required });
    else if (g.bank_account_number_confirmation.replace(/[\s-]/g, "") !== g.bank_account_number.replace(/[\s-]/g, "")) ctx.addIssue({ code: "custom", path: ["bank_account_number_confirmation"], message: MSG.same });
  })
  .transform((g) => {
    const parsed = g.bank_account_number ? parseNzAccount(g.bank_account_number) : null;
    return {
      name: g.name,
      address: g.address ?? null,
      tracks_visits: g.tracks_visits as boolean,
      bank_account: g.bank_account_name && parsed?.ok ? { name: g.bank_account_name, bank_account_number: parsed.account.formatted } : null,
    };
  });
export type NewGymInput = z.output<typeof newGymRequest>;

export const tracksVisitsRequest = z.object({ tracks_visits: flag });

export { GYM_CREDENTIALS, type CredentialService };

export function credentialsRequest(service: CredentialService) {
  const keys = Object.keys(GYM_CREDENTIALS[service].fields);
  const shape: Record<string, z.ZodTypeAny> = { clear: flag };
  for (const k of keys) shape[k] = optional(z.string().trim().max(500, MSG.max(500)));
  return z.object(shape).transform((o) => ({ clear: o.clear as boolean, values: Object.fromEntries(keys.map((k) => [k, o[k] as string | undefined])) }));
}
