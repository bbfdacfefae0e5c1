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

/** A member's personal-training appointment booked, moved or cancelled (issue 16). `when` is in New Zealand time. */
export function appointmentMail(
  brand: Brand,
  kind: "booked" | "moved" | "cancelled",
  to: string,
  name: string,
  p: { trainer: string; when: string; was?: string },
): Mail {
  const subject = { booked: "Your session is booked", moved: "Your session has moved", cancelled: "Your session is cancelled" }[kind];
  const line =
    kind === "booked"
      ? `Your session with ${p.trainer} at ${brand.gym} is booked for ${p.when}.`
      : kind === "moved"
      ? `Your session with ${p.trainer} at ${brand.gym} has moved from ${p.was} to ${p.when}.`
      : `Your session with ${p.trainer} at ${brand.gym} on ${p.when} is cancelled.`;
  return memberMail(brand, { to, subject, title: subject, paragraphs: [hi(name), line, "If that does not suit you, reply to the gym in the app."] });
}

/** A member's recurring sessions (issue 16) booked, changed from a date, or ended. `pattern` says the days and times. */
export function seriesMail(
  brand: Brand,
  kind: "booked" | "changed" | "ended",
  to: string,
  name: string,
  p: { trainer: string; pattern: string; from: string },
): Mail {
  const subject = { booked: "Your regular sessions are booked", changed: "Your regular sessions have changed", ended: "Your regular sessions are ending" }[
    kind
  ];
  const line =
    kind === "booked"
      ? `Your regular sessions with ${p.trainer} at ${brand.gym} are booked: ${p.pattern}.`
      : kind === "changed"
      ? `From ${p.from}, your regular sessions with ${p.trainer} at ${brand.gym} are: ${p.pattern}. Sessions before then stay as they were.`
      : `Your regular sessions with ${p.trainer} at ${brand.gym} (${p.pattern}) end: the last one is before ${p.from}.`;
  return memberMail(brand, { to, subject, title: subject, paragraphs: [hi(name), line, "If that does not suit you, reply to the gym in the app."] });
}

/** A charge that did not go through but may on a later try (domain/failures.ts: a soft decline). */
export function paymentFailedMail(
  brand: Brand,
  to: string,
  name: string,
  p: { amount: string; retryOn: string | null; graceEnds: string | null; url: string },
): Mail {
  return memberMail(brand, {
    to,
    subject: `Your ${brand.gym} payment did not go through`,
    title: "Your payment did not go through",
    paragraphs: [
      hi(name),
      `Your ${brand.gym} membership payment of ${p.amount} did not go through.`,
      p.retryOn
        ? `We will try again on ${p.retryOn}. If your card or bank details have changed, update them before then.`
        : "If your card or bank details have changed, please update them.",
      ...(p.graceEnds ? [`Your membership keeps working until ${p.graceEnds}; after that it stops until the payment is made.`] : []),
    ],
    action: { label: "Update your payment method", url: p.url },
  });
}

/** A payment method that cannot be charged again as it is (a hard decline: a lost or expired card, a cancelled direct debit, a bank to connect again). */
export function cardUnusableMail(brand: Brand, to: string, name: string, p: { amount: string; reason: string; graceEnds: string | null; url: string }): Mail {
  return memberMail(brand, {
    to,
    subject: `Please update your payment method for ${brand.gym}`,
    title: "Please update your payment method",
    paragraphs: [
      hi(name),
      `We could not take your ${brand.gym} membership payment of ${p.amount}: ${p.reason}. We will not try this payment method again.`,
      "Please add a new card or another payment method.",
      ...(p.graceEnds ? [`Your membership keeps working until ${p.graceEnds}; after that it stops until the payment is made.`] : []),
    ],
    action: { label: "Update your payment method", url: p.url },
  });
}

/** The grace period after a failed payment is about to run out. */
export function graceEndingMail(brand: Brand, to: string, name: string, p: { owing: string; ends: string; url: string }): Mail {
  return memberMail(brand, {
    to,
    subject: `Your ${brand.gym} membership stops on ${p.ends}`,
    title: "Your membership is about to stop",
    paragraphs: [hi(name), `Your ${brand.gym} membership has ${p.owing} unpaid. It stops working on ${p.ends} unless the payment is made.`],
    action: { label: "Update your payment method", url: p.url },
  });
}

/**
 * A member's price is changing (issue 12): from when, from what to what, and where to ask. The gym's reply-to
 * (price_change_notification_reply_to) is the brand's, so answers reach the gym, not our no-reply address.
 */
export function priceChangeMail(
  brand: Brand,
  to: string,
  name: string,
  p: { offering: string; fromAmount: string; toAmount: string; frequency: string; takesEffect: string },
): Mail {
  return memberMail(brand, {
    to,
    subject: `Your ${brand.gym} membership price is changing`,
    title: "Your membership price is changing",
    paragraphs: [
      hi(name),
      `Your ${brand.gym} membership (${p.offering}) changes from ${p.fromAmount} to ${p.toAmount} ${p.frequency}, from ${p.takesEffect}.`,
      "You don't need to do anything: the new amount is taken from your usual payment method from then on.",
      brand.replyTo ? "If you have a question, just reply to this e-mail." : `If you have a question, please contact ${brand.gym}.`,
    ],
  });
}

/** A chargeback lost (issue 28): the member's bank took a payment back, so the amount is owing again. */
export function chargebackMail(brand: Brand, to: string, name: string, p: { amount: string; paid: string; paidOn: string; accessUntil: string | null }): Mail {
  const subject = `Your bank took back ${p.amount} paid to ${brand.gym}`;
  return memberMail(brand, {
    to,
    subject,
    title: subject,
    paragraphs: [
      hi(name),
      `Your bank took back ${p.amount} of your ${brand.gym} payment of ${p.paid} on ${p.paidOn} (a chargeback or a returned direct debit).`,
      p.accessUntil
        ? `The ${p.amount} is owing again. Your membership keeps working until ${p.accessUntil}; after that it stops until it is paid. Please pay it at the desk or ask the gym how.`
        : `The ${p.amount} is owing again: please settle it with the gym.`,
      "If you think this is a mistake, reply to the gym in the app.",
    ],
  });
}

/** Money going back to the member (issue 28): a refund made, or on its way through their card or bank. */
export function refundMail(brand: Brand, to: string, name: string, p: { amount: string; paid: string; paidOn: string; how: string; pending: boolean }): Mail {
  const subject = `${brand.gym} refunded ${p.amount}`;
  return memberMail(brand, {
    to,
    subject,
    title: subject,
    paragraphs: [
      hi(name),
      `${brand.gym} has refunded ${p.amount} of your payment of ${p.paid} on ${p.paidOn}.`,
      p.pending ? `${p.how}. It is on its way and can take a few business days to reach you.` : `${p.how}.`,
      "If you have questions about it, reply to the gym in the app.",
    ],
  });
}

/** A reply from the gym in Messages (issue 31): who wrote, what they wrote, and where to read and answer. */
export function messageReplyMail(brand: Brand, to: string, name: string, p: { from: string; body: string; url: string }): Mail {
  return memberMail(brand, {
    to,
    subject: `${p.from} at ${brand.gym} replied to you`,
    title: `A message from ${brand.gym}`,
    paragraphs: [hi(name), `${p.from} at ${brand.gym} wrote:`, p.body],
    after: ["Answer in your messages: replies to this e-mail may not reach the gym's staff."],
    action: { label: "Read and answer", url: p.url },
  });
}
