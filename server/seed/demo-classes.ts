import { and, asc, eq, gt, inArray, lt, lte, ne, sql } from "drizzle-orm";
import { addCalendarDays, formatLocal, localDay, localWeekStart } from "../../domain/dates";
import type { Db } from "../core/db/client";
import { class_bookings, class_occurrences, class_schedules, class_type_inclusions, class_types, offerings } from "../core/db/schema";
import { tenantOn } from "../core/db/tenant";
import { writeOccurrences } from "../classes/occurrences";
import { insertAll } from "./bulk-insert";

/**
 * The demo's group classes (issue 34, decision 0065 "Attendance and the demo"): class types in both organisations,
 * which memberships include them, a weekly timetable of 60 classes at the four gyms (Taylor Trainer at Central, Alex
 * Admin at the other three, never two classes of one trainer at once nor over their personal-training sessions), seven
 * weeks of it already past with attendance closed, and bookings: past classes attended, missed and cancelled late,
 * the coming week's filling up (a few full, with a waitlist). Morgan Member has been to classes and has some booked.
 *
 * The same for every demo size: with 100,000 members it is the bench's timetable (bench/classes.ts). Bookings are
 * written directly, not through server/classes/places.ts (a seed's thousands at once), so they keep its rules
 * themselves: places and waitlist never over, one booking a member a class, at most the organisation's
 * `class_max_bookings` upcoming. Attendance here has no visit behind it: the demo's visits (and every count of them)
 * stay as they were.
 */

type Day = string;

/**
 * A one-off class at Central starting ten minutes after the seed's `now` (90 minutes long), Morgan booked: the demo (and
 * the end-to-end tests, whose server seeds the demo as it starts) always has a class to check in to. Its trainer is
 * whichever of Taylor and Alex has no personal-training session then; their regular class it overlaps is cancelled.
 */
export const OPEN_STUDIO = "Open Studio";
/** Taylor's and Alex's personal-training sessions (demo-data.ts seedCalendar) by ISO weekday: [from, to) minutes. */
const PT_SESSIONS: Record<"taylor" | "alex", [number, number, number][]> = {
  taylor: [
    [2, 360, 420],
    [3, 720, 765],
    [3, 1020, 1080],
    [4, 1050, 1095],
    [5, 450, 510],
  ],
  alex: [[6, 540, 600]],
};

export interface ClassSeedPerson {
  userId: number;
  gymId: number;
  /** Their membership's offering's name: which class types it includes. */
  offering: string;
}

export interface ClassSeedInput {
  now: Date;
  today: Day;
  /** The instant of wall-clock `minutes` after midnight on `day`. */
  at(day: Day, minutes: number): Date;
  demo: { id: number; gymIds: number[] };
  harbour: { id: number; gymIds: number[] };
  trainerId: number;
  adminId: number;
  morganId: number;
  /** Members with a running membership, by home gym, who may book (in the order they were made). */
  pool: ClassSeedPerson[];
  random: () => number;
}

const TYPES: Record<
  "demo" | "harbour",
  { name: string; description: string; minutes: number; capacity: number; waitlist: number; colour: string; dropIn: number | null; offerings: string[] }[]
> = {
  demo: [
    {
      name: "Spin",
      description: "45 minutes on the bikes, intervals to music.",
      minutes: 45,
      capacity: 16,
      waitlist: 4,
      colour: "#0284c7",
      dropIn: 1500,
      offerings: ["Anytime 24/7", "Student"],
    },
    {
      name: "Yoga",
      description: "Vinyasa flow for every level. Mats provided.",
      minutes: 60,
      capacity: 20,
      waitlist: 5,
      colour: "#7c3aed",
      dropIn: 1500,
      offerings: ["Anytime 24/7", "Off-Peak"],
    },
    {
      name: "HIIT",
      description: "Short, hard intervals: 30 minutes, done.",
      minutes: 30,
      capacity: 14,
      waitlist: 4,
      colour: "#dc2626",
      dropIn: null,
      offerings: ["Anytime 24/7", "Student"],
    },
    {
      name: "Pilates",
      description: "Mat Pilates for core strength and posture.",
      minutes: 50,
      capacity: 12,
      waitlist: 3,
      colour: "#db2777",
      dropIn: 1800,
      offerings: ["Anytime 24/7", "Off-Peak"],
    },
    {
      name: "Boxfit",
      description: "Pads, bags and footwork. Gloves to borrow.",
      minutes: 45,
      capacity: 14,
      waitlist: 4,
      colour: "#d97706",
      dropIn: null,
      offerings: ["Anytime 24/7", "Student"],
    },
    {
      name: "Strength Club",
      description: "Coached barbell lifts in a small group.",
      minutes: 60,
      capacity: 10,
      waitlist: 2,
      colour: "#15803d",
      dropIn: null,
      offerings: ["Anytime 24/7"],
    },
    {
      name: OPEN_STUDIO,
      description: "A coach on the floor: bring your own programme.",
      minutes: 90,
      capacity: 20,
      waitlist: 0,
      colour: "#0f766e",
      dropIn: null,
      offerings: ["Anytime 24/7", "Off-Peak", "Student"],
    },
  ],
  harbour: [
    {
      name: "Barbell Club",
      description: "Squat, bench, deadlift: coached, in small groups.",
      minutes: 60,
      capacity: 10,
      waitlist: 3,
      colour: "#1d4ed8",
      dropIn: 2000,
      offerings: ["Anytime 24/7"],
    },
    {
      name: "Olympic Lifting",
      description: "Snatch and clean and jerk, from the basics.",
      minutes: 60,
      capacity: 8,
      waitlist: 2,
      colour: "#b91c1c",
      dropIn: null,
      offerings: ["Anytime 24/7"],
    },
    {
      name: "Conditioning",
      description: "Sleds, rowers and carries: 30 minutes.",
      minutes: 30,
      capacity: 14,
      waitlist: 4,
      colour: "#047857",
      dropIn: null,
      offerings: ["Anytime 24/7", "Student"],
    },
  ],
};

/** The weekly slots, 75 minutes apart so no class of one trainer runs into the next. ISO weekday and start. */
const WEEKDAY_TIMES = ["06:00", "07:15", "09:30", "12:15", "17:30", "18:45"];
const SLOTS: [number, string][] = [
  ...[1, 2, 3, 4, 5].flatMap((d) => WEEKDAY_TIMES.map((time) => [d, time] as [number, string])),
  [6, "08:00"],
  [6, "09:15"],
  [6, "10:30"],
  [7, "08:30"],
  [7, "09:45"],
];
/** Taylor's personal-training sessions (demo-data.ts seedCalendar) sit in these: no class of theirs there. */
const TAYLOR_BUSY = new Set(["2 06:00", "4 17:30", "3 12:15", "5 07:15", "3 17:30"]);
/** Alex's Saturday induction at 9 am. */
const ALEX_BUSY = new Set(["6 09:15"]);
/** Which demo class type each slot's start runs (by the slot's order, so the week has a mix). */
const DEMO_BY_TIME: Record<string, string[]> = {
  "06:00": ["Spin", "HIIT"],
  "07:15": ["HIIT", "Boxfit", "Spin"],
  "08:00": ["Spin"],
  "08:30": ["Yoga"],
  "09:15": ["Boxfit"],
  "09:30": ["Yoga", "Pilates"],
  "09:45": ["Pilates"],
  "10:30": ["Yoga"],
  "12:15": ["Pilates", "HIIT", "Yoga"],
  "17:30": ["Spin", "Boxfit", "Strength Club"],
  "18:45": ["Yoga", "Strength Club", "HIIT"],
};
const HARBOUR_ORDER = ["Barbell Club", "Conditioning", "Olympic Lifting"];
const ROOMS: Record<string, string> = {
  Spin: "Spin room",
  Yoga: "Studio",
  Pilates: "Studio",
  "Strength Club": "Platforms",
  "Barbell Club": "Platforms",
  "Olympic Lifting": "Platforms",
};
const WEEKS_PAST = 7;
const BYDAY = ["", "MO", "TU", "WE", "TH", "FR", "SA", "SU"];

export interface ClassSeedSummary {
  class_types: number;
  class_schedules: number;
  classes: number;
  class_bookings: number;
}

export async function seedClasses(db: Db, input: ClassSeedInput): Promise<ClassSeedSummary> {
  const r = input.random;
  const monday = localWeekStart(input.now);
  const startsOn = addCalendarDays(monday, -7 * WEEKS_PAST);
  const typeIds = new Map<string, { id: number; orgId: number }>();
  let typeCount = 0;

  for (const [key, org] of [
    ["demo", input.demo],
    ["harbour", input.harbour],
  ] as const) {
    const made = await db
      .insert(class_types)
      .values(
        TYPES[key].map((k) => ({
          organisation_id: org.id,
          name: k.name,
          description: k.description,
          duration_minutes: k.minutes,
          default_capacity: k.capacity,
          default_waitlist: k.waitlist,
          colour: k.colour,
          drop_in_amount: k.dropIn,
        })),
      )
      .returning({ id: class_types.id, name: class_types.name });
    typeCount += made.length;
    for (const m of made) typeIds.set(m.name, { id: m.id, orgId: org.id });
    const offered = await db.select({ id: offerings.id, name: offerings.name }).from(offerings).where(eq(offerings.organisation_id, org.id));
    const inclusions = TYPES[key].flatMap((k) =>
      offered.filter((o) => k.offerings.includes(o.name)).map((o) => ({ organisation_id: org.id, class_type_id: typeIds.get(k.name)!.id, offering_id: o.id })),
    );
    await db.insert(class_type_inclusions).values(inclusions);
  }

  // The timetable: Taylor at Central, Alex round the other three gyms slot by slot.
  const alexGyms = [input.demo.gymIds[1], input.demo.gymIds[2], input.harbour.gymIds[0]];
  const plan: { orgId: number; gymId: number; trainerId: number; type: string; weekday: number; time: string }[] = [];
  let alexTurn = 0;
  SLOTS.forEach(([weekday, time], i) => {
    const key = `${weekday} ${time}`;
    const demoType = (n: number) => DEMO_BY_TIME[time][n % DEMO_BY_TIME[time].length];
    if (!TAYLOR_BUSY.has(key) && (weekday <= 5 || key === "6 08:00"))
      plan.push({ orgId: input.demo.id, gymId: input.demo.gymIds[0], trainerId: input.trainerId, type: demoType(i), weekday, time });
    if (!ALEX_BUSY.has(key)) {
      const gymId = alexGyms[alexTurn++ % alexGyms.length];
      const harbour = gymId === input.harbour.gymIds[0];
      plan.push({
        orgId: harbour ? input.harbour.id : input.demo.id,
        gymId,
        trainerId: input.adminId,
        type: harbour ? HARBOUR_ORDER[i % HARBOUR_ORDER.length] : demoType(i + 1),
        weekday,
        time,
      });
    }
  });

  const schedules = await db
    .insert(class_schedules)
    .values(
      plan.map((p) => {
        const spec = [...TYPES.demo, ...TYPES.harbour].find((k) => k.name === p.type)!;
        return {
          organisation_id: p.orgId,
          gym_id: p.gymId,
          class_type_id: typeIds.get(p.type)!.id,
          trainer_id: p.trainerId,
          room: ROOMS[p.type] ?? "Studio",
          capacity: spec.capacity,
          waitlist_size: spec.waitlist,
          rrule: `FREQ=WEEKLY;BYDAY=${BYDAY[p.weekday]}`,
          starts_on: startsOn,
          start_time: p.time,
          duration_minutes: spec.minutes,
          created_by: input.adminId,
        };
      }),
    )
    .returning();
  for (const s of schedules) await writeOccurrences(tenantOn(db, s.organisation_id), s, startsOn, input.today);
  const open = await openStudio(db, input, typeIds.get(OPEN_STUDIO)!.id);
  schedules.push(open.schedule);

  const classes = await db
    .select()
    .from(class_occurrences)
    .where(
      inArray(
        class_occurrences.schedule_id,
        schedules.map((s) => s.id),
      ),
    )
    .orderBy(asc(class_occurrences.starts_at), asc(class_occurrences.id));
  const bookings = planBookings(classes, input, typeIds, r, open.classId);
  await insertAll(db, class_bookings, bookings.rows);
  // Ended classes have had their attendance closed (the class-attendance job's work), and one class next week is off.
  await db
    .update(class_occurrences)
    .set({ attendance_closed_at: sql`${class_occurrences.ends_at}` })
    .where(
      and(
        inArray(
          class_occurrences.schedule_id,
          schedules.map((s) => s.id),
        ),
        lte(class_occurrences.ends_at, input.now),
      ),
    );
  if (bookings.offClass) {
    await db
      .update(class_occurrences)
      .set({ cancelled_at: input.now, cancel_reason: "Trainer away at a course" })
      .where(eq(class_occurrences.id, bookings.offClass));
  }
  return { class_types: typeCount, class_schedules: schedules.length, classes: classes.length, class_bookings: bookings.rows.length };
}

type ClassRow = typeof class_occurrences.$inferSelect;
type BookingInsert = typeof class_bookings.$inferInsert;

/** Who booked what: fuller when sooner, past classes attended or missed, Morgan's own. */
function planBookings(classes: ClassRow[], input: ClassSeedInput, typeIds: Map<string, { id: number; orgId: number }>, r: () => number, openId: number) {
  const { now } = input;
  const windowEnd = new Date(now.getTime() + 7 * 86_400_000);
  const typeName = new Map([...typeIds].map(([name, t]) => [t.id, name]));
  const includedBy = new Map<string, number[]>();
  const allTypes = [...TYPES.demo, ...TYPES.harbour];
  const byGym = new Map<number, ClassSeedPerson[]>();
  for (const p of input.pool) {
    if (p.userId === input.morganId) continue;
    const list = byGym.get(p.gymId) ?? [];
    list.push(p);
    byGym.set(p.gymId, list);
  }
  const upcoming = new Map<number, number>();
  const rows: BookingInsert[] = [];
  const minutes = (n: number) => n * 60_000;
  const pick = <T>(items: T[]) => items[Math.floor(r() * items.length)];
  const upcomingClasses = classes.filter((c) => c.starts_at > now && c.starts_at < windowEnd);
  // One class in the coming week is cancelled (no bookings on it): the timetable shows it struck through.
  const offClass = upcomingClasses.find((c) => c.gym_id === input.demo.gymIds[1] && c.starts_at.getTime() - now.getTime() > 3 * 86_400_000)?.id ?? null;

  const base = (c: ClassRow, userId: number, createdAt: Date) => ({
    organisation_id: c.organisation_id,
    occurrence_id: c.id,
    user_id: userId,
    source: "member" as const,
    created_by: userId,
    created_at: createdAt,
    updated_at: createdAt,
  });

  // Morgan: a regular at Taylor's early classes at Central, with two booked this week and a place on a waitlist: with the
  // class starting soon, four of the five bookings allowed at once, so the demo member can still book one.
  const morganClasses = classes.filter((c) => c.gym_id === input.demo.gymIds[0] && !c.cancelled_at && c.id !== openId);
  const morganPast = morganClasses.filter((c) => c.ends_at <= now).filter((_, i) => i % 12 === 0);
  const morganNext = morganClasses
    .filter((c) => c.starts_at > new Date(now.getTime() + 3 * 3_600_000) && c.starts_at < windowEnd && c.id !== offClass)
    .slice(0, 2);
  const morganOf = new Map<number, BookingInsert>();
  morganPast.forEach((c, i) => {
    const at = new Date(c.starts_at.getTime() - minutes(60 * 24));
    morganOf.set(c.id, {
      ...base(c, input.morganId, at),
      status: i % 6 === 5 ? "no_show" : "attended",
      booked_at: at,
      attended_at: i % 6 === 5 ? null : new Date(c.starts_at.getTime() - minutes(10)),
    });
  });
  morganNext.forEach((c, i) => {
    const at = new Date(now.getTime() - minutes(90 * (i + 1)));
    morganOf.set(c.id, { ...base(c, input.morganId, at), status: "booked", booked_at: at });
  });
  const openClass = classes.find((c) => c.id === openId)!;
  morganOf.set(openId, {
    ...base(openClass, input.morganId, new Date(now.getTime() - minutes(45))),
    status: "booked",
    booked_at: new Date(now.getTime() - minutes(45)),
  });

  for (const c of classes) {
    if (c.id === offClass || c.cancelled_at || c.starts_at >= windowEnd) continue;
    const type = typeName.get(c.class_type_id)!;
    const spec = allTypes.find((k) => k.name === type)!;
    // Those at this gym whose membership includes the class's type.
    let people = includedBy.get(`${c.gym_id}:${type}`);
    if (!people) {
      people = (byGym.get(c.gym_id) ?? []).filter((p) => spec.offerings.includes(p.offering)).map((p) => p.userId);
      includedBy.set(`${c.gym_id}:${type}`, people);
    }
    if (!people.length) continue;
    const past = c.ends_at <= now;
    const daysAhead = (c.starts_at.getTime() - now.getTime()) / 86_400_000;
    // Fuller the sooner it is; past classes were 50–100% full; some of the coming ones are full with a queue.
    const share = past ? 0.5 + r() * 0.5 : Math.max(0.15, 1 - daysAhead / 7 + (r() - 0.5) * 0.5);
    const full = !past && r() < 0.12;
    const own = morganOf.get(c.id);
    // Morgan's own place first; a waitlist only once every place is taken.
    const places = c.capacity - (own && own.status !== "waitlisted" ? 1 : 0);
    const wanted = full
      ? places + Math.min(c.waitlist_size, 1 + Math.floor(r() * c.waitlist_size))
      : Math.min(places, Math.round(c.capacity * Math.min(1, share)));
    const chosen = new Set<number>();
    if (own) rows.push(own);
    for (let tries = 0; chosen.size < wanted && tries < wanted * 4; tries++) {
      const who = pick(people);
      if (chosen.has(who) || who === input.morganId) continue;
      if (!past && (upcoming.get(who) ?? 0) >= 5) continue;
      chosen.add(who);
    }
    let n = 0;
    for (const who of chosen) {
      const bookedAt = new Date(Math.min(now.getTime(), c.starts_at.getTime()) - minutes(30 + Math.floor(r() * 60 * 24 * 5)));
      const row: BookingInsert = { ...base(c, who, bookedAt), status: "booked", booked_at: bookedAt };
      if (n++ >= places) {
        Object.assign(row, { status: "waitlisted", booked_at: null, waitlisted_at: bookedAt });
      } else if (past) {
        const roll = r();
        if (roll < 0.08) Object.assign(row, { status: "late_cancelled", cancelled_at: new Date(c.starts_at.getTime() - minutes(20 + Math.floor(r() * 90))) });
        else if (roll < 0.2) row.status = "no_show";
        else Object.assign(row, { status: "attended", attended_at: new Date(c.starts_at.getTime() - minutes(Math.floor(r() * 25))) });
      } else if (c.starts_at <= now) {
        // Started: most of those booked are in.
        if (r() < 0.85) Object.assign(row, { status: "attended", attended_at: new Date(c.starts_at.getTime() - minutes(Math.floor(r() * 20))) });
      }
      if (!past) upcoming.set(who, (upcoming.get(who) ?? 0) + 1);
      rows.push(row);
    }
  }
  // A place on a waitlist for Morgan: the first full class ahead at Central she has not booked.
  const fullAhead = classes.find(
    (c) =>
      c.gym_id === input.demo.gymIds[0] &&
      c.starts_at > now &&
      c.starts_at < windowEnd &&
      !morganOf.has(c.id) &&
      rows.filter((b) => b.occurrence_id === c.id && b.status === "waitlisted").length > 0,
  );
  if (fullAhead) {
    const waiting = rows.filter((b) => b.occurrence_id === fullAhead.id && b.status === "waitlisted");
    if (waiting.length < fullAhead.waitlist_size)
      rows.push({ ...base(fullAhead, input.morganId, now), status: "waitlisted", waitlisted_at: new Date(now.getTime() - minutes(5)) });
  }
  return { rows, offClass };
}

/** The Open Studio class: written as the timetable writes a one-off class, over its trainer's regular class then. */
async function openStudio(db: Db, input: ClassSeedInput, typeId: number) {
  const start = new Date(Math.floor(input.now.getTime() / 300_000) * 300_000 + 10 * 60_000);
  const end = new Date(start.getTime() + 90 * 60_000);
  const day = localDay(start);
  const from = Number(formatLocal(start, "H")) * 60 + Number(formatLocal(start, "m"));
  const weekday = Number(formatLocal(start, "i"));
  const busy = (who: "taylor" | "alex") => PT_SESSIONS[who].some(([d, a, b]) => d === weekday && a < from + 90 && from < b);
  const trainerId = busy("taylor") ? input.adminId : input.trainerId;
  const t = tenantOn(db, input.demo.id);
  const [schedule] = await db
    .insert(class_schedules)
    .values({
      organisation_id: input.demo.id,
      gym_id: input.demo.gymIds[0],
      class_type_id: typeId,
      trainer_id: trainerId,
      room: "Studio 2",
      capacity: 20,
      waitlist_size: 0,
      starts_on: day,
      start_time: formatLocal(start, "HH:mm"),
      duration_minutes: 90,
      created_by: input.adminId,
    })
    .returning();
  await writeOccurrences(t, schedule, day, input.today);
  const [made] = await db.select({ id: class_occurrences.id }).from(class_occurrences).where(eq(class_occurrences.schedule_id, schedule.id));
  // The trainer's regular classes in that time give way to it.
  await db
    .update(class_occurrences)
    .set({ cancelled_at: input.now, cancel_reason: "The coach runs Open Studio instead" })
    .where(
      and(
        eq(class_occurrences.trainer_id, trainerId),
        lt(class_occurrences.starts_at, end),
        gt(class_occurrences.ends_at, start),
        ne(class_occurrences.id, made.id),
      ),
    );
  return { schedule, classId: made.id };
}
