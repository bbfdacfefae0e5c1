import { eq, sql } from "drizzle-orm";
import { formatLocal, formatTime } from "../../domain/dates";
import { invalid } from "../core/errors";
import { users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { trainerClassesBetween } from "../calendar/class-busy";
import { entriesBetween, TRAINER_LOCK } from "../calendar/entries";

/**
 * A class's trainer may not be in two places at once (issue 34): a class clashing with the trainer's appointments,
 * recurring sessions or other classes is refused, naming the first clash, as appointments are. Under the same
 * per-trainer lock the calendar's bookings take, so a class and an appointment made at once cannot both pass.
 */
const when = (d: { starts_at: Date; ends_at: Date }) => `${formatLocal(d.starts_at, "EEE d MMM")}, ${formatTime(d.starts_at)} to ${formatTime(d.ends_at)}`;

export async function assertTrainerFree(
  t: Tenant,
  trainerId: number,
  wanted: { starts_at: Date; ends_at: Date }[],
  except: { schedule_id?: number; occurrence_id?: number } = {},
  field = "start_time",
) {
  if (!wanted.length) return;
  await t.db.execute(sql`select pg_advisory_xact_lock(${TRAINER_LOCK + trainerId})`);
  const from = new Date(Math.min(...wanted.map((w) => w.starts_at.getTime())));
  const to = new Date(Math.max(...wanted.map((w) => w.ends_at.getTime())));
  const overlaps = <B extends { starts_at: Date; ends_at: Date }>(busy: B[]) => {
    for (const w of wanted) {
      const hit = busy.find((b) => b.starts_at < w.ends_at && b.ends_at > w.starts_at);
      if (hit) return hit;
    }
    return null;
  };
  const [trainer] = await t.db.select({ name: users.name }).from(users).where(eq(users.id, trainerId));
  const name = trainer?.name ?? "The trainer";
  const session = overlaps(await entriesBetween(t, null, from, to, { trainer_id: trainerId }));
  if (session) throw invalid({ [field]: [`${name} is already booked then: ${when(session)} with ${session.member.name}`] });
  const cls = overlaps(await trainerClassesBetween(t, trainerId, from, to, except));
  if (cls) throw invalid({ [field]: [`${name} already runs a class then: ${cls.name} at ${cls.gym}, ${when(cls)}`] });
}
