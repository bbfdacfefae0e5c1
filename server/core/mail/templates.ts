import { formatDateTime } from "../../../domain/dates";
import type { Mail } from "./mailer";

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function layout(title: string, paragraphs: string[], action?: { label: string; url: string }) {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${escape(p)}</p>`).join("");
  const button = action
    ? `<p><a href="${escape(action.url)}" style="background:#1d4ed8;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escape(action.label)}</a></p>`
    : "";
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111;max-width:560px;margin:auto;padding:24px"><h1 style="font-size:20px">${escape(title)}</h1>${body}${button}</body></html>`;
}

/**
 * The six-digit codes are never in a subject (issue 29): a subject shows on a locked phone's notification, in
 * mail lists and in logs of mail relays; the code is in the body only.
 */
export function signInCodeMail(to: string, name: string, code: string): Mail {
  const lines = [`Hi ${name},`, `Your code is ${code}. It works for 10 minutes.`, "If you did not try to sign in, change your password."];
  return { to, subject: "Your sign-in code", text: lines.join("\n\n"), html: layout("Your code", lines) };
}

/**
 * The code for an address not yet confirmed: a person who has just signed up (welcomed to their gym when we
 * know it). Whoever did not sign up has nothing to change: without the code the address is not confirmed.
 */
export function confirmEmailCodeMail(to: string, name: string, code: string, gymName?: string): Mail {
  const lines = [
    `Hi ${name},`,
    ...(gymName ? [`Welcome to ${gymName}, and thanks for signing up.`] : ["Thanks for signing up."]),
    `Your code is ${code}. Enter it to confirm your e-mail address. It works for 10 minutes.`,
    "If you did not sign up with this address, ignore this e-mail: without the code the address is not confirmed.",
  ];
  return { to, subject: "Confirm your e-mail address", text: lines.join("\n\n"), html: layout("Confirm your e-mail address", lines) };
}

/** Sent once, when too many wrong codes lock code entry for the account (server/core/auth/email-codes.ts). */
export function codeEntryLockedMail(to: string, name: string, until: Date, resetUrl: string): Mail {
  const lines = [
    `Hi ${name},`,
    "Someone signed in with your password and then entered the wrong e-mailed code too many times, so we have stopped accepting codes for your account for now.",
    `You can sign in again after ${formatDateTime(until)} (New Zealand time).`,
    "If it was not you, your password is known to someone else: reset it now with the link below.",
  ];
  return {
    to,
    subject: "Sign-in paused after too many wrong codes",
    text: `${lines.join("\n\n")}\n\n${resetUrl}`,
    html: layout("Sign-in paused", lines, { label: "Reset your password", url: resetUrl }),
  };
}

export function resetPasswordMail(to: string, name: string, url: string): Mail {
  const lines = [`Hi ${name},`, "Someone asked to reset the password for this e-mail address. The link works once, for one hour.", "If it was not you, ignore this e-mail: your password stays the same."];
  return {
    to,
    subject: "Reset your password",
    text: `${lines.join("\n\n")}\n\n${url}`,
    html: layout("Reset your password", lines, { label: "Choose a new password", url }),
  };
}

/** A member's sign-in link (issue 31): single-use, fifteen minutes (server/session/sign-in-links.ts). */
export function signInLinkMail(to: string, name: string, url: string, gymName?: string): Mail {
  const lines = [
    `Hi ${name},`,
    `Here is your link to sign in${gymName ? ` to ${gymName}` : ""}. It works once, for 15 minutes.`,
    "If you did not ask for it, ignore this e-mail: nobody can sign in without opening it.",
  ];
  return {
    to,
    subject: "Your sign-in link",
    text: `${lines.join("\n\n")}\n\n${url}`,
    html: layout("Sign in", lines, { label: "Sign in", url }),
  };
}

/** A staff invitation (issue 15): a link to set a password, which works once, for seven days (server/core/auth/password-links.ts). */
export function staffInviteMail(to: string, name: string | null, p: { organisation: string; role: string; invitedBy: string; url: string }): Mail {
  const lines = [
    name ? `Hi ${name},` : "Hi,",
    `${p.invitedBy} has invited you to the staff of ${p.organisation} (${p.role}).`,
    "Set your password with the link below to sign in. The link works once, for seven days; if it has run out, ask for a new one.",
  ];
  return {
    to,
    subject: `You're invited to ${p.organisation}`,
    text: `${lines.join("\n\n")}\n\n${p.url}`,
    html: layout(`Join ${p.organisation}`, lines, { label: "Set your password", url: p.url }),
  };
}

/** A person who already has an account, added to an organisation's staff: they sign in as they always do. */
export function staffAddedMail(to: string, name: string, p: { organisation: string; role: string; invitedBy: string; url: string }): Mail {
  const lines = [`Hi ${name},`, `${p.invitedBy} has added you to the staff of ${p.organisation} (${p.role}).`, "Sign in with your usual e-mail address and password; you can switch to it from the organisation menu."];
  return {
    to,
    subject: `You're on the staff of ${p.organisation}`,
    text: `${lines.join("\n\n")}\n\n${p.url}`,
    html: layout(`Welcome to ${p.organisation}`, lines, { label: "Sign in", url: p.url }),
  };
}

/** A member brought over from the gym's old system (issue 15): set a password, then choose how to pay. */
export function importInviteMail(to: string, name: string, gym: string, url: string): Mail {
  const lines = [
    `Hi ${name},`,
    `${gym} has moved its memberships to a new system. Set a password with the link below, then choose how you would like to pay.`,
    "The link works once, for seven days. If it has run out, ask the gym for a new one or use \"Forgot password\" on the sign-in page.",
  ];
  return { to, subject: `${gym}: set up your membership`, text: `${lines.join("\n\n")}\n\n${url}`, html: layout(`Welcome to ${gym}'s new system`, lines, { label: "Set your password", url }) };
}

/** A member who paid in full at the desk (issue 12): their membership, and the link to set a password and sign in. */
export function pifInviteMail(to: string, name: string, p: { gym: string; offering: string; from: string; until: string | null; url: string }): Mail {
  const lines = [
    `Hi ${name},`,
    `Welcome to ${p.gym}. Your ${p.offering} membership is paid in full${p.until ? `, from ${p.from} until ${p.until}` : ` from ${p.from}`}.`,
    "Set a password to sign in, see your membership and keep your details up to date. The link works once, for seven days.",
  ];
  return { to, subject: `Welcome to ${p.gym}: set your password`, text: `${lines.join("\n\n")}\n\n${p.url}`, html: layout(`Welcome to ${p.gym}`, lines, { label: "Set your password", url: p.url }) };
}

/** A walk-in's link to finish joining (issue 32): made at the desk, it opens their sign-up at the payment step. */
export function walkInJoinMail(to: string, name: string, p: { gym: string; offering: string; start: string; url: string }): Mail {
  const lines = [
    `Hi ${name},`,
    `Thanks for joining ${p.gym}. Your ${p.offering} membership is ready to start on ${p.start}: all that is left is choosing how you pay.`,
    "Open the link below to finish joining. It works once, for seven days; if it has run out, the front desk can send you a new one.",
  ];
  return { to, subject: `Finish joining ${p.gym}`, text: `${lines.join("\n\n")}\n\n${p.url}`, html: layout(`Finish joining ${p.gym}`, lines, { label: "Finish joining", url: p.url }) };
}

/**
 * An organisation's invitation to someone who already has an account (decision 0048): nothing changes until they
 * accept. `role` in words ("a member", "personal trainer").
 */
export function joinInvitationMail(to: string, p: { organisation: string; role: string; invitedBy: string; url: string; days: number }): Mail {
  const lines = [
    "Hi,",
    `${p.invitedBy} of ${p.organisation} has invited you to join them as ${p.role}.`,
    `You already have an account with us, so nothing changes until you say yes: ${p.organisation} cannot see your details before you accept. The link works for ${p.days} days.`,
    "If you don't know them, ignore this e-mail or decline.",
  ];
  return { to, subject: `${p.organisation} has invited you to join`, text: `${lines.join("\n\n")}\n\n${p.url}`, html: layout(`Join ${p.organisation}?`, lines, { label: "See the invitation", url: p.url }) };
}

/** An outgoing webhook endpoint disabled (issue 33): to each organisation admin, with why and where to enable it again. */
export function webhookEndpointDisabledMail(to: string, name: string, p: { organisation: string; url: string; reason: string; pageUrl: string }): Mail {
  const lines = [
    `Hi ${name},`,
    `We have stopped sending ${p.organisation}'s webhook events to ${p.url}. ${p.reason}`,
    "Events that happen from now on are not queued for it. Once the receiver works again, enable the endpoint on its page; you can resend any delivery that failed from there too.",
  ];
  return {
    to,
    subject: `Webhook endpoint disabled: ${p.url}`,
    text: `${lines.join("\n\n")}\n\n${p.pageUrl}`,
    html: layout("A webhook endpoint was disabled", lines, { label: "Open the endpoint", url: p.pageUrl }),
  };
}
