import type { Mail } from "../core/mail/mailer";
import { memberMail, type Brand } from "./layout";

/**
 * The e-mails a member gets about their money and membership (issue 31), each with its plain-text part, in the
 * gym's name (./layout.ts). Amounts and dates come in as words: the senders write them.
 */
const hi = (name: string) => `Hi ${name.split(" ")[0]},`;

/** A receipt for a successful payment: the same lines as the receipt page (domain/receipt.ts). */
export function receiptMail(brand: Brand, to: string, name: string, p: { number: string; total: string; rows: [string, string][]; url: string }): Mail {
  return memberMail(brand, {
    to,
    subject: `Your ${brand.gym} receipt ${p.number}`,
    title: `Receipt ${p.number}`,
    paragraphs: [hi(name), `Thank you: we have received your payment of ${p.total} to ${brand.gym}.`],
    rows: p.rows,
    after: ["Keep this e-mail as your receipt, or print it from your membership page."],
    action: { label: "See your receipt", url: p.url },
  });
}

/** After joining: what they joined, the receipt of the first payment, how to get in, and the app. */
export function welcomeMail(
  brand: Brand,
  to: string,
  name: string,
  p: {
    membership: string;
    receipt: { number: string; rows: [string, string][] } | null;
    nextCharge: string | null;
    door: string;
    appUrl: string;
    membershipUrl: string;
  },
): Mail {
  return memberMail(brand, {
    to,
    subject: `Welcome to ${brand.gym}`,
    title: `Welcome to ${brand.gym}!`,
    paragraphs: [hi(name), `Your membership: ${p.membership}.`, ...(p.receipt ? [`Your first payment (receipt ${p.receipt.number}):`] : [])],
    rows: p.receipt?.rows,
    after: [...(p.nextCharge ? [p.nextCharge] : []), `Getting in: ${p.door}`, `Get the app: ${p.appUrl}`],
    action: { label: "See your membership", url: p.membershipUrl },
  });
}

/**
 * A change to the membership: a pause, a cancellation, an undone cancellation, a new way to pay. Says who made it
 * (the member, or a named person of the gym's staff), what it does, and where to see it.
 */
export function membershipChangeMail(brand: Brand, to: string, name: string, p: { subject: string; happened: string; lines: string[]; url: string }): Mail {
  return memberMail(brand, {
    to,
    subject: p.subject,
    title: p.subject,
    paragraphs: [hi(name), p.happened, ...p.lines],
    after: ["If you did not expect this, reply to this e-mail or contact the gym."],
    action: { label: "See your membership", url: p.url },
  });
}

/** The one reminder after a person stopped part way through joining (an organisation setting, off by default). */
export function signupReminderMail(brand: Brand, to: string, name: string, p: { step: string; url: string }): Mail {
  return memberMail(brand, {
    to,
    subject: `Finish joining ${brand.gym}`,
    title: "You're nearly there",
    paragraphs: [hi(name), `You started joining ${brand.gym} but stopped at ${p.step}. Everything you entered is saved: sign in to carry on from there.`],
    after: ["If you have changed your mind, ignore this e-mail: we will not remind you again."],
    action: { label: "Carry on joining", url: p.url },
  });
}
