import type { AnswerOf } from "../../lib/api-contract";

export type SignupState = AnswerOf<"get", "/me/signup">;
export type ConnectedMethod = SignupState["payment_types"][number];

/** "Visa ending 4242", "Direct debit from 12-3456-…", "Bank account ANZ 01-…": a connected method as the member reads it. */
export function describeMethod(m: ConnectedMethod): string {
  if (m.type === "stripe_card") return `${m.brand ? m.brand[0].toUpperCase() + m.brand.slice(1) : "Card"} ending ${m.last_four ?? "····"}`;
  if (m.type === "gocardless_bank_account") return `Direct debit from ${m.account_number ?? "your bank account"}`;
  return `Bank account ${m.name ? `${m.name} ` : ""}${m.account_number ?? ""}`.trim();
}
