import type { Mail } from "../core/mail/mailer";

/**
 * What every e-mail to a member carries (issue 31): the gym's name and logo at the top, its reply-to, a way to sign
 * in, and the rules SPEC's notification flags set: where to choose which e-mails come, and a one-click unsubscribe
 * (List-Unsubscribe with List-Unsubscribe-Post, RFC 8058, which mail apps show as their own button).
 */
export interface Brand {
  gym: string;
  /** An absolute address of the gym's logo, or null (its name stands alone). */
  logo: string | null;
  replyTo: string | null;
  /** `unsubscribe` is the page a person opens; `oneClick` the API address mail apps post to (no page, no cookie). */
  links: { signIn: string; membership: string; preferences: string; unsubscribe: string; oneClick: string };
}

export interface MemberMailBody {
  to: string;
  subject: string;
  title: string;
  paragraphs: string[];
  /** Label and value rows (a receipt's lines), shown as a table and as aligned lines in the text part. */
  rows?: [string, string][];
  /** Paragraphs after the rows. */
  after?: string[];
  action?: { label: string; url: string };
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const para = (p: string) => `<p style="margin:0 0 16px">${escape(p)}</p>`;

export function memberMail(brand: Brand, body: MemberMailBody): Mail {
  const footer = [
    `You are getting this e-mail because you are a member of ${brand.gym}.`,
    `Sign in to see your membership: ${brand.links.signIn}`,
    `Choose which e-mails you get: ${brand.links.preferences}`,
    `Unsubscribe from ${brand.gym}'s e-mails: ${brand.links.unsubscribe}`,
  ];
  const width = Math.max(0, ...(body.rows ?? []).map(([label]) => label.length));
  const text = [
    ...body.paragraphs,
    ...(body.rows?.length ? [body.rows.map(([label, value]) => `${`${label}:`.padEnd(width + 2)}${value}`).join("\n")] : []),
    ...(body.after ?? []),
    ...(body.action ? [`${body.action.label}: ${body.action.url}`] : []),
    `--\n${footer.join("\n")}`,
  ].join("\n\n");

  const header = brand.logo
    ? `<img src="${escape(brand.logo)}" alt="${escape(brand.gym)}" height="48" style="height:48px;max-width:200px;object-fit:contain">`
    : `<strong style="font-size:18px">${escape(brand.gym)}</strong>`;
  const table = body.rows?.length
    ? `<table role="presentation" style="width:100%;border-collapse:collapse;margin:0 0 16px">${body.rows
        .map(
          ([label, value]) =>
            `<tr><td style="padding:6px 0;border-bottom:1px solid #e5e7eb;color:#4b5563">${escape(
              label,
            )}</td><td style="padding:6px 0;border-bottom:1px solid #e5e7eb;text-align:right">${escape(value)}</td></tr>`,
        )
        .join("")}</table>`
    : "";
  const button = body.action
    ? `<p style="margin:0 0 16px"><a href="${escape(
        body.action.url,
      )}" style="background:#1d4ed8;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none;display:inline-block">${escape(
        body.action.label,
      )}</a></p>`
    : "";
  const links = `<p style="margin:0;font-size:12px;color:#6b7280">${escape(footer[0])}<br><a href="${escape(
    brand.links.signIn,
  )}" style="color:#6b7280">Sign in</a> · <a href="${escape(
    brand.links.preferences,
  )}" style="color:#6b7280">Choose which e-mails you get</a> · <a href="${escape(brand.links.unsubscribe)}" style="color:#6b7280">Unsubscribe</a></p>`;
  const html = `<!doctype html><html lang="en-NZ"><head><meta charset="utf-8"><title>${escape(
    body.subject,
  )}</title></head><body style="font-family:system-ui,sans-serif;color:#111;max-width:560px;margin:auto;padding:24px"><div style="margin:0 0 24px">${header}</div><h1 style="font-size:20px">${escape(
    body.title,
  )}</h1>${body.paragraphs.map(para).join("")}${table}${(body.after ?? [])
    .map(para)
    .join("")}${button}<hr style="border:0;border-top:1px solid #e5e7eb;margin:24px 0">${links}</body></html>`;

  return {
    to: body.to,
    subject: body.subject,
    text,
    html,
    replyTo: brand.replyTo,
    headers: { "List-Unsubscribe": `<${brand.links.oneClick}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}
