import type { Context } from "hono";
import { formatLocal, formatTime } from "../../domain/dates";
import { tellMember } from "../member-mail/notify";
import { appointmentMail, seriesMail } from "../member-mail/templates";
import { brandFor, mailSite } from "../member-mail/brand";
import type { ApiEnv } from "../core/context";
import { publicOrigin } from "../core/links";
import { now } from "../core/middleware";

/** E-mail (and push) to the member once the change is committed (server/member-mail/notify.ts), in the gym's name (server/member-mail/). */
const when = (d: Date | string) => `${formatLocal(d, "EEEE d MMMM")} at ${formatTime(d)}`;
type Who = { gym_id: number; gym: string; trainer: { name: string }; member: { id: number; email: string; name: string } };
/** Where the push opens: the member app's sessions (what it reads from the link), or the member's page on the web. */
const sessionsLink = (c: Context<ApiEnv>, data: Record<string, string>) => ({ url: `${publicOrigin(c, "signup")}/welcome-to-gym`, channel: "push", feature: "calendar", data });

export function tellAppointment(c: Context<ApiEnv>, kind: "booked" | "moved" | "cancelled", a: Who & { starts_at: Date | string }, ref: string, was?: Date | string) {
  const key = `calendar:${kind}:${ref}:${new Date(a.starts_at).getTime()}:${now(c).getTime()}`;
  const link = sessionsLink(c, { session_starts_at: new Date(a.starts_at).toISOString() });
  const deps = c.var.deps;
  c.var.afterCommit(async () => {
    const brand = await brandFor(deps.db, a.gym_id, a.member.id, mailSite(deps.config));
    const mail = appointmentMail(brand, kind, a.member.email, a.member.name, { trainer: a.trainer.name, when: when(a.starts_at), was: was ? when(was) : undefined });
    await tellMember(deps, a.member.id, a.gym_id, mail, key, link);
  });
}

export function tellSeries(c: Context<ApiEnv>, kind: "booked" | "changed" | "ended", s: Who & { id: number }, pattern: string, from: string) {
  const key = `calendar:series-${kind}:${s.id}:${from}:${now(c).getTime()}`;
  const link = sessionsLink(c, { recurring_schedule_id: String(s.id) });
  const deps = c.var.deps;
  c.var.afterCommit(async () => {
    const brand = await brandFor(deps.db, s.gym_id, s.member.id, mailSite(deps.config));
    const mail = seriesMail(brand, kind, s.member.email, s.member.name, { trainer: s.trainer.name, pattern, from });
    await tellMember(deps, s.member.id, s.gym_id, mail, key, link);
  });
}
