import type { Context } from "hono";
import { formatLocal, formatTime } from "../../domain/dates";
import type { ApiEnv } from "../core/context";
import { publicOrigin } from "../core/links";
import { now } from "../core/middleware";
import { brandFor, mailSite } from "../member-mail/brand";
import { memberMail } from "../member-mail/layout";
import { tellMember } from "../member-mail/notify";

/**
 * What staff changing the timetable tells those booked (issue 34): a class cancelled (everyone who held a place or
 * waited, once: the key names the class and the person) or moved to another time. Sent after the change commits.
 */
export interface Told {
  occurrence_id: number;
  gym_id: number;
  name: string;
  starts_at: Date;
  reason: string | null;
  people: { user_id: number; email: string; name: string }[];
  /** Drop-ins' refunds written with the cancellation, sent to their provider after the commit (./drop-ins.ts). */
  refunds: number[];
}

const when = (d: Date) => `${formatLocal(d, "EEEE d MMMM")} at ${formatTime(d)}`;
const hi = (name: string) => `Hi ${name.split(" ")[0]},`;

export function tellClassChanged(c: Context<ApiEnv>, kind: "cancelled" | "moved", told: Told[], was?: Date) {
  const deps = c.var.deps;
  const link = { url: `${publicOrigin(c, "signup")}/membership/classes`, channel: "push", feature: "classes", data: {} as Record<string, string> };
  const stamp = now(c).getTime();
  c.var.afterCommit(async () => {
    for (const cls of told) {
      for (const p of cls.people) {
        const brand = await brandFor(deps.db, cls.gym_id, p.user_id, mailSite(deps.config));
        const subject = kind === "cancelled" ? `${cls.name} on ${formatLocal(cls.starts_at, "EEE d MMM")} is cancelled` : `${cls.name} has moved`;
        const line =
          kind === "cancelled"
            ? `${cls.name} at ${brand.gym} on ${when(cls.starts_at)} is cancelled${cls.reason ? `: ${cls.reason}` : "."}${
                cls.reason && !/[.!?]$/.test(cls.reason) ? "." : ""
              } Your booking is cancelled with it.`
            : `${cls.name} at ${brand.gym} has moved from ${when(was!)} to ${when(cls.starts_at)}. Your booking moves with it.`;
        const mail = memberMail(brand, {
          to: p.email,
          subject,
          title: subject,
          paragraphs: [hi(p.name), line, "See the timetable for another class in the member area."],
        });
        const key = kind === "cancelled" ? `class:cancelled:${cls.occurrence_id}:${p.user_id}` : `class:moved:${cls.occurrence_id}:${p.user_id}:${stamp}`;
        await tellMember(deps, p.user_id, cls.gym_id, mail, key, { ...link, data: { class_id: String(cls.occurrence_id) } });
      }
    }
  });
}
