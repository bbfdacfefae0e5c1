import { z } from "zod";
import { REFUND_REASONS } from "../refunds";
import { flag, optional } from "./fields";
import { MSG } from "./messages";
import { money, type Money } from "./offerings";

/**
 * POST /api/payments/{id}/refunds (issue 28): how much of a paid payment goes back, why, and the form's key (the
 * same form sent twice refunds once). The page takes dollars ("12.50"); the API integer cents. `preview` answers what
 * would happen and writes nothing.
 */
export function refundSchema(kind: Money) {
  return z.object({
    amount: money(kind),
    reason: z.enum(REFUND_REASONS, { errorMap: () => ({ message: "Choose why it is refunded" }) }),
    note: optional(z.string().trim().max(500, MSG.max(500))),
    key: z.string().trim().regex(/^[A-Za-z0-9_-]{8,64}$/, "Reload the page: its refund key is missing"),
    preview: optional(flag),
  });
}
export const refundRequest = refundSchema("cents");
export const refundForm = refundSchema("dollars");
export type RefundRequest = z.infer<typeof refundRequest>;
