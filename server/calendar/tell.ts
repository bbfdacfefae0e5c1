import type { Context } from "hono";
import { formatLocal, formatTime } from "../../domain/dates";
import { tellMember } from "./notify";
import { appointmentMail, seriesMail } from "../core/mail/templates";
import type { ApiEnv } from "../core/context";
import { publicOrigin } from "../core/links";
import { now } from "../core/middleware";

/** E-mail (and push) to the member once the change is committed (server/calendar/notify.ts). */
const when = (d: Date | string) => `${formatLocal(d, "EEEE d MMMM")} at ${formatTime(d)}`;
type Who = { gym_id: number; gym: string; trainer: { name: string }; member: { id: number; email: string; name: string } };
/** Where the push opens: the member app's sessions (what it reads from the link), or the member's page on the web. */
const sessionsLink = (c: Context<ApiEnv>, data: Record<string, string>) => ({ url: `${publicOrigin(c, "signup")}/welcome-to-gym`, channel: "push", feature: "calendar", data });

export function tellAppointment(c: Context<ApiEnv>, kind: "booked" | "moved" | "cancelled", a: Who & { starts_at: Date | string }, ref: string, was?: Date | string) {
  const mail = appointmentMail(kind, a.member.email, a.member.name, { trainer: a.trainer.name, gym: a.gym, when: when(a.starts_at), was: was ? when(was) : undefined });
  const key = `calendar:${kind}:${ref}:${new Date(a.starts_at).getTime()}:${now(c).getTime()}`;
  const link = sessionsLink(c, { session_starts_at: new Date(a.starts_at).toISOString() });
  c.var.afterCommit(() => tellMember(c.var.deps, a.member.id, a.gym_id, mail, key, link));
}

export function tellSeries(c: Context<ApiEnv>, kind: "booked" | "changed" | "ended", s: Who & { id: number }, pattern: string, from: string) {
  const mail = seriesMail(kind, s.member.email, s.member.name, { trainer: s.trainer.name, gym: s.gym, pattern, from });
  const key = `calendar:series-${kind}:${s.id}:${from}:${now(c).getTime()}`;
  const link = sessionsLink(c, { recurring_schedule_id: String(s.id) });
  c.var.afterCommit(() => tellMember(c.var.deps, s.member.id, s.gym_id, mail, key, link));
}
