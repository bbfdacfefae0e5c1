import { eq, ne } from "drizzle-orm";
import { formatLocal, localDay } from "../../domain/dates";
import type { Db } from "../core/db/client";
import {
  class_bookings,
  class_occurrences,
  class_schedules,
  class_type_inclusions,
  class_types,
  gyms,
  offerings,
  organisation_users,
  users,
} from "../core/db/schema";
import { withTenant } from "../core/db/tenant";
import { writeOccurrences } from "../classes/occurrences";

/**
 * A STAND-IN (issue 34, helper "book"): the demo's classes are the attend helper's seed. Until that lands, the
 * booking pages and their e2e need a timetable at the demo member's gym, so this writes a small one, only when the
 * demo organisation has no class types yet: Spin (included, 4 places, a waitlist of 3) at 6 am and 6 pm, Boxing
 * (included, 1 place already taken, a waitlist of 3) at 7 am, Yoga (not included, a drop-in price) at noon, every day;
 * and one Spin running now with two booked, so attendance can be marked. Remove this file once the real seed is in.
 */
const EVERY_DAY = "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA,SU";

export async function seedDemoClassesStandIn(db: Db, now = new Date()) {
  const [admin] = await db.select({ org: users.current_organisation_id, gym: users.current_gym_id }).from(users).where(eq(users.email, "admin@example.com"));
  const [trainer] = await db.select({ id: users.id }).from(users).where(eq(users.email, "trainer@example.com"));
  const [member] = await db.select({ id: users.id }).from(users).where(eq(users.email, "member@example.com"));
  if (!admin?.org || !admin.gym || !trainer || !member) return;
  const orgId = admin.org;
  const gymId = admin.gym;
  if ((await db.select({ id: class_types.id }).from(class_types).where(eq(class_types.organisation_id, orgId)).limit(1)).length) return;
  const today = localDay(now);
  await withTenant(
    db,
    orgId,
    null,
    async (t) => {
      const type = async (name: string, colour: string, capacity: number, waitlist: number, dropIn: number | null) =>
        (
          await t.db
            .insert(class_types)
            .values(
              t.owned({
                name,
                colour,
                duration_minutes: 45,
                default_capacity: capacity,
                default_waitlist: waitlist,
                drop_in_amount: dropIn,
                description: `${name} at the demo gym.`,
              }),
            )
            .returning()
        )[0];
      const spin = await type("Spin", "#dc2626", 4, 3, null);
      const boxing = await type("Boxing", "#7c3aed", 1, 3, null);
      const yoga = await type("Yoga", "#0d9488", 12, 0, 1500);
      const sold = await t.db.select({ id: offerings.id }).from(offerings).where(t.where(offerings));
      for (const o of sold)
        await t.db
          .insert(class_type_inclusions)
          .values([t.owned({ class_type_id: spin.id, offering_id: o.id }), t.owned({ class_type_id: boxing.id, offering_id: o.id })]);
      const schedule = async (typeId: number, capacity: number, waitlist: number, start: string, rrule: string | null, duration = 45, room = "Studio 1") => {
        const [s] = await t.db
          .insert(class_schedules)
          .values(
            t.owned({
              gym_id: gymId,
              class_type_id: typeId,
              trainer_id: trainer.id,
              room,
              capacity,
              waitlist_size: waitlist,
              rrule,
              starts_on: today,
              start_time: start,
              duration_minutes: duration,
              created_by: trainer.id,
            }),
          )
          .returning();
        await writeOccurrences(t, s, today, today);
        return t.db
          .select({ id: class_occurrences.id })
          .from(class_occurrences)
          .where(t.where(class_occurrences, eq(class_occurrences.schedule_id, s.id)));
      };
      await schedule(spin.id, 4, 3, "06:00", EVERY_DAY);
      await schedule(spin.id, 4, 3, "18:00", EVERY_DAY);
      const boxingClasses = await schedule(boxing.id, 1, 3, "07:00", EVERY_DAY, 45, "The ring");
      await schedule(yoga.id, 12, 0, "12:00", EVERY_DAY, 45, "Studio 2");
      const running = await schedule(spin.id, 10, 0, formatLocal(new Date(now.getTime() - 15 * 60_000), "HH:mm"), null, 180);
      const others = await t.db
        .select({ id: organisation_users.user_id })
        .from(organisation_users)
        .innerJoin(gyms, eq(gyms.id, organisation_users.home_gym_id))
        .where(
          t.where(
            organisation_users,
            eq(organisation_users.role, "member"),
            eq(organisation_users.home_gym_id, gymId),
            ne(organisation_users.user_id, member.id),
          ),
        )
        .orderBy(organisation_users.user_id)
        .limit(2);
      const book = (occurrenceId: number, userId: number) =>
        t.db
          .insert(class_bookings)
          .values(
            t.owned({
              occurrence_id: occurrenceId,
              user_id: userId,
              status: "booked" as const,
              booked_at: now,
              source: "staff" as const,
              created_by: trainer.id,
            }),
          );
      if (others[0]) for (const c of boxingClasses) await book(c.id, others[0].id);
      for (const o of others) if (running[0]) await book(running[0].id, o.id);
    },
    { atomic: true },
  );
}
