/**
 * The sandboxes' test bank accounts, as Stripe's test cards are for cards: a New Zealand account number
 * (BB-bbbb-AAAAAAA-SSS) whose account part ends in one of these four digits behaves so with the offline direct
 * debit (GoCardless) and bank payment (Akahu) providers. Any other account pays.
 */
export type SandboxAccountBehaviour = "pays" | "insufficient_funds" | "refused" | "closed" | "authority_cancelled" | "needs_approval";

const BY_LAST_FOUR: Record<string, SandboxAccountBehaviour> = {
  "9995": "insufficient_funds",
  "0002": "refused",
  "9987": "closed",
  "9979": "authority_cancelled",
  "4000": "needs_approval",
};

/** The account part's last four digits ("12-3456-0009995-00" → "9995"), or null when it is not an NZ number. */
export function accountLastFour(accountNumber: string | null | undefined): string | null {
  const parts = (accountNumber ?? "").split(/[-\s]/).filter(Boolean);
  if (parts.length === 4 && /^\d{6,8}$/.test(parts[2])) return parts[2].slice(-4);
  const digits = (accountNumber ?? "").replace(/\D/g, "");
  return digits.length >= 15 && digits.length <= 16 ? digits.slice(6, 13).slice(-4) : null;
}

export function sandboxAccountBehaviour(accountNumber: string | null | undefined): SandboxAccountBehaviour {
  return BY_LAST_FOUR[accountLastFour(accountNumber) ?? ""] ?? "pays";
}
