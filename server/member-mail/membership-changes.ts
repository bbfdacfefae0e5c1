import { eq } from "drizzle-orm";
import { formatDay } from "../../domain/dates";
import { formatCents } from "../../domain/money";
import type { CardPreview, NextCharge } from "../../domain/lifecycle";
import type { Db } from "../core/db/client";
import { gyms, users } from "../core/db/schema";
import type { Mailer } from "../core/mail/mailer";
import type { Context } from "hono";
import type { ApiEnv } from "../core/context";
import { brandFor, mailSite, type MailSite } from "./brand";
import { membershipChangeMail } from "./templates";

/**
 * The member hears of each change to their membership (issue 31): a pause, ended early or removed; a cancellation
 * and its undoing; a new way to pay; whoever made it: "You paused…" when it was them, "Sam Staff at City Gym
 * paused…" when it was staff. Sent once the change is committed (a change rolled back e-mails nobody), to members
 * with e-mails on. The lines come from the same effect the preview showed.
 */
export type MembershipChange =
  | { kind: "pause"; start: string; end: string; effect: { card: CardPreview; nextChargeAfter: NextCharge | null } }
  | { kind: "pause.end"; effect: { card: CardPreview; nextChargeAfter: NextCharge | null } }
  | { kind: "pause.remove"; effect: { card: CardPreview; nextChargeAfter: NextCharge | null } }
  | { kind: "cancel"; when: "now" | "period_end"; effect: { card: CardPreview; breakFee: number; undoUntil: string | null; paymentsBefore?: NextCharge[] } }
  | { kind: "undo-cancel"; effect: { nextCharge: NextCharge | null } }
  | { kind: "payment-method"; method: string };

const SUBJECTS: Record<MembershipChange["kind"], string> = {
  pause: "Your membership is paused",
  "pause.end": "Your pause has ended early",
  "pause.remove": "Your planned pause is removed",
  cancel: "Your membership is cancelled",
  "undo-cancel": "Your membership carries on",
  "payment-method": "How you pay has changed",
};

const nextPayment = (n: NextCharge | null) => (n ? [`Your next payment: ${formatCents(n.amount)} on ${formatDay(n.day)}.`] : []);

export function changeInWords(change: MembershipChange, who: string): { happened: string; lines: string[] } {
  switch (change.kind) {
    case "pause":
      return {
        happened: `${who} paused your membership from ${formatDay(change.start)} until ${formatDay(change.end)}. Nothing is charged while it is paused.`,
        lines: nextPayment(change.effect.nextChargeAfter),
      };
    case "pause.end":
      return { happened: `${who} ended your pause early: ${change.effect.card.detail}.`, lines: nextPayment(change.effect.nextChargeAfter) };
    case "pause.remove":
      return { happened: `${who} removed the pause that was planned.`, lines: nextPayment(change.effect.nextChargeAfter) };
    case "cancel":
      return {
        happened: `${who} cancelled your membership${change.when === "now" ? " from today" : " at the end of the period you have paid for"}. ${
          change.effect.card.detail
        }.`,
        lines: [
          ...(change.effect.paymentsBefore?.length
            ? [
                `With your gym's notice, these payments are still taken: ${change.effect.paymentsBefore
                  .map((p) => `${formatCents(p.amount)} on ${formatDay(p.day)}`)
                  .join(", ")}.`,
              ]
            : []),
          ...(change.effect.breakFee ? [`A break fee of ${formatCents(change.effect.breakFee)} is charged, as your term's agreement says.`] : []),
          ...(change.effect.undoUntil ? [`Changed your mind? It can be undone until ${formatDay(change.effect.undoUntil)}.`] : []),
        ],
      };
    case "undo-cancel":
      return { happened: `${who} undid the cancellation: your membership carries on as before.`, lines: nextPayment(change.effect.nextCharge) };
    case "payment-method":
      return { happened: `${who} changed how you pay for your membership. From now on: ${change.method}.`, lines: [] };
  }
}

export async function tellMembershipChange(
  db: Db,
  mailer: Mailer,
  site: MailSite,
  p: { userId: number; gymId: number; actorId: number; change: MembershipChange },
) {
  const [member] = await db
    .select({ email: users.email, name: users.name, on: users.email_notifications, deleted_at: users.deleted_at })
    .from(users)
    .where(eq(users.id, p.userId));
  if (!member || !member.on || member.deleted_at) return false;
  const [actor] = p.actorId === p.userId ? [] : await db.select({ name: users.name }).from(users).where(eq(users.id, p.actorId));
  const [gym] = await db.select({ name: gyms.name }).from(gyms).where(eq(gyms.id, p.gymId));
  const who = actor ? `${actor.name} at ${gym?.name ?? "the gym"}` : "You";
  const brand = await brandFor(db, p.gymId, p.userId, site);
  const { happened, lines } = changeInWords(p.change, who);
  await mailer.send(membershipChangeMail(brand, member.email, member.name, { subject: SUBJECTS[p.change.kind], happened, lines, url: brand.links.membership }));
  return true;
}

/** Tells the member of a change made in this request, once it is committed (the staff's routes and the member's own). */
export function tellChangeAfterCommit(c: Context<ApiEnv>, m: { s: { user_id: number; gym_id: number } }, change: MembershipChange) {
  const deps = c.var.deps;
  const actorId = c.var.user!.row.id;
  c.var.afterCommit(async () => {
    await tellMembershipChange(deps.db, deps.mailer, mailSite(deps.config), { userId: m.s.user_id, gymId: m.s.gym_id, actorId, change });
  });
}
