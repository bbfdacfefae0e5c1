// The NZ module alone: the package's index brings every country's numbers (about 50 KB gzipped) to the browser.
import * as nzBank from "stdnum/lib/cjs/nz/bank.js";

/**
 * New Zealand bank account numbers (bank-branch-account-suffix, e.g. 12-3140-0171323-50), checked for format, the
 * bank's branch ranges and the checksum of its algorithm (the IRD's and Payments NZ's rules, as the stdnum library
 * keeps them) before anything is sent to a provider.
 */
export interface NzAccount {
  bank: string;
  branch: string;
  number: string;
  suffix: string;
  /** 12-3140-0171323-50 */
  formatted: string;
}

export function parseNzAccount(input: string): { ok: true; account: NzAccount } | { ok: false; message: string } {
  const text = input.trim();
  // Written in parts (12-3140-0171323-50, or with spaces) or as one run of digits (2 + 4 + 7 + 2 or 3).
  const parts = /[\s-]/.test(text) ? text.split(/[\s-]+/) : [text.slice(0, 2), text.slice(2, 6), text.slice(6, 13), text.slice(13)];
  const [bank = "", branch = "", number = "", suffix = ""] = parts;
  if (parts.length !== 4 || !/^\d{2}$/.test(bank) || !/^\d{4}$/.test(branch) || !/^\d{7}$/.test(number) || !/^\d{2,3}$/.test(suffix)) {
    return { ok: false, message: "Enter the whole account number: bank (2 digits), branch (4), account (7) and suffix (2 or 3)" };
  }
  if (!nzBank.validate(`${bank}-${branch}-${number}-${suffix}`).isValid) {
    return { ok: false, message: "This is not a valid New Zealand bank account number. Check it against your bank statement" };
  }
  return { ok: true, account: { bank, branch, number, suffix, formatted: `${bank}-${branch}-${number}-${suffix}` } };
}

/** "12-3140-0171323-50" → "12-••••-•••1323-50": enough for staff to recognise an account, not to use it. */
export const maskAccount = (n: string) => n.replace(/^(\d{2})-(\d{4})-(\d{3})(\d{4})-(\d{2,3})$/, "$1-••••-•••$4-$5");
