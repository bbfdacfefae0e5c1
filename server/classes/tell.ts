import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { formatDateTime } from "../../domain/dates";
import type { ApiDeps, ApiEnv } from "../core/context";
import { formatCents } from "../../domain/money";
import { class_occurrences, class_types, users } from "../core/db/schema";
import type { Mail } from "../core/mail/mailer";
import { brandFor, mailSite } from "../member-mail/brand";
import { memberMail, type Brand } from "../member-mail/layout";
import { tellMember } from "../member-mail/notify";
import type { BookingRow } from "./places";

/**
 * What members hear about their classes (issue 34): a place freed and given to them from the waitlist, and staff's
 * message to everyone booked. By e-mail unless they turned e-mails off, and as a push where they allow it
 * (member-mail/notify.ts), once the change is committed: a rolled-back cancellation tells no one.
 */
const hi = (name: string) => `Hi ${name.split(" ")[0]},`;

export function placeFreedMail(brand: Brand, to: string, name: string, p: { className: string; when: string; url: string; charged?: number | null }): Mail {
  const subject = `You have a place in ${p.className}`;
  return memberMail(brand, {
    to,
    subject,
    title: subject,
    paragraphs: [
      hi(name),
      `A place came free in ${p.className} at ${brand.gym} on ${p.when}, and it is yours: you were first on the waitlist.`,
      ...(p.charged ? [`Your drop-in of ${formatCents(p.charged)} was charged to your card.`] : []),
    ],
    after: ["If you cannot come, cancel it in your classes so the next person on the waitlist gets it."],
    action: { label: "See your classes", url: p.url },
  });
}

export function classMessageMail(
  brand: Brand,
  to: string,
  name: string,
  p: { className: string; when: string; subject?: string; from: string; body: string; url: string },
): Mail {
  return memberMail(brand, {
    to,
    subject: p.subject ?? `About ${p.className} on ${p.when}`,
    title: `${p.className}, ${p.when}`,
    paragraphs: [hi(name), `${p.from} at ${brand.gym} wrote to everyone booked into ${p.className} on ${p.when}:`, p.body],
    action: { label: "See your classes", url: p.url },
  });
}

type ClassText = { name: string; when: string; gymId: number };

async function classText(db: ApiEnv["Variables"]["deps"]["db"], classId: number): Promise<ClassText | null> {
  const [row] = await db
    .select({ name: class_types.name, starts_at: class_occurrences.starts_at, gym_id: class_occurrences.gym_id })
    .from(class_occurrences)
    .innerJoin(class_types, eq(class_types.id, class_occurrences.class_type_id))
    .where(eq(class_occurrences.id, classId));
  return row ? { name: row.name, when: formatDateTime(row.starts_at), gymId: row.gym_id } : null;
}

/** The member given a freed place hears of it (once committed). A drop-in's is told once its card is charged (./drop-ins.ts). */
export function tellPromotedAfterCommit(c: Context<ApiEnv>, promoted: BookingRow | null) {
  if (!promoted || promoted.payment_id) return;
  const deps = c.var.deps;
  const organisationId = c.var.tenant.organisationId;
  c.var.afterCommit(() => tellPromoted(deps, organisationId, promoted));
}

type TellDeps = Pick<ApiDeps, "db" | "mailer" | "config" | "providers">;

/** Tells a member their class booking changed: `mail` made from the class's name and time, once per `key`. */
async function tellAboutBooking(deps: TellDeps, organisationId: number, booking: BookingRow, key: string, mail: (brand: Brand, to: string, name: string, cls: ClassText, url: string) => Mail) {
  const cls = await classText(deps.db, booking.occurrence_id);
  const [member] = await deps.db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(eq(users.id, booking.user_id));
  if (!cls || !member) return;
  const site = mailSite(deps.config);
  const url = `${site.origin}/membership/classes`;
  await tellMember(deps, member.id, cls.gymId, mail(await brandFor(deps.db, cls.gymId, member.id, site), member.email, member.name, cls, url), key, {
    url,
    channel: "push",
    feature: "classes",
    data: { organisation_id: String(organisationId) },
  });
}

export const tellPromoted = (deps: TellDeps, organisationId: number, promoted: BookingRow) =>
  tellAboutBooking(deps, organisationId, promoted, `class-place:${promoted.id}`, (brand, to, name, cls, url) =>
    placeFreedMail(brand, to, name, { className: cls.name, when: cls.when, url, charged: promoted.payment_id ? promoted.drop_in_amount : null }),
  );

/** A drop-in whose card was declined: the place is released, and the member hears why. */
export const tellDropInDeclined = (deps: TellDeps, organisationId: number, booking: BookingRow, reason: string) =>
  tellAboutBooking(deps, organisationId, booking, `class-drop-in-declined:${booking.id}`, (brand, to, name, cls, url) =>
    memberMail(brand, {
      to,
      subject: `Your place in ${cls.name} was not kept`,
      title: `Your place in ${cls.name} was not kept`,
      paragraphs: [
        hi(name),
        `The drop-in for ${cls.name} at ${brand.gym} on ${cls.when} could not be charged to your card (${reason.replace(/\.$/, "")}), so the place went back to the class.`,
      ],
      after: ["Update your card in your payment details and book again if there is still room."],
      action: { label: "See your classes", url },
    }),
  );

/** Staff's message reaches everyone holding a place (once committed). */
export function tellClassAfterCommit(
  c: Context<ApiEnv>,
  classId: number,
  to: { id: number; name: string; email: string }[],
  message: { subject?: string; body: string; key: string },
) {
  const deps = c.var.deps;
  const from = c.var.user!.row.name.split(" ")[0];
  const organisationId = c.var.tenant.organisationId;
  c.var.afterCommit(async () => {
    const cls = await classText(deps.db, classId);
    if (!cls) return;
    const site = mailSite(deps.config);
    const url = `${site.origin}/membership/classes`;
    for (const member of to) {
      const mail = classMessageMail(await brandFor(deps.db, cls.gymId, member.id, site), member.email, member.name, {
        className: cls.name,
        when: cls.when,
        from,
        url,
        ...message,
      });
      await tellMember(deps, member.id, cls.gymId, mail, `class-message:${message.key}:${member.id}`, {
        url,
        channel: "push",
        feature: "classes",
        data: { organisation_id: String(organisationId) },
      });
    }
  });
}
