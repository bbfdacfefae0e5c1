/**
 * An Akahu bank payment's life, as the sandbox plays it (Akahu's statuses: READY → SENT or DECLINED, or
 * PENDING_APPROVAL while the payer approves it in their bank's app): settled a couple of minutes after it is
 * made, or a day later when the payer's approval was needed.
 */
export type BankTimelineStatus = "READY" | "PENDING_APPROVAL" | "SENT" | "DECLINED";

export const SETTLES_AFTER_MS = 2 * 60_000;
export const APPROVED_AFTER_MS = 24 * 3_600_000;

export function bankPaymentTimeline(createdAt: Date, outcome: "sent" | "declined" | "approval"): { status: BankTimelineStatus; at: Date }[] {
  const after = (ms: number) => new Date(createdAt.getTime() + ms);
  if (outcome === "approval") return [{ status: "PENDING_APPROVAL", at: createdAt }, { status: "SENT", at: after(APPROVED_AFTER_MS) }];
  return [{ status: "READY", at: createdAt }, { status: outcome === "sent" ? "SENT" : "DECLINED", at: after(SETTLES_AFTER_MS) }];
}
