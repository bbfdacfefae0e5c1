import { and, asc, eq, gt, inArray, isNull, lt, ne, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { formatLocal, formatTime } from "../../domain/dates";
import type { AppointmentChange, AppointmentInput } from "../../domain/schemas/calendar";
import { forbidden, invalid, notFound } from "../api/errors";
import type { CurrentUser } from "../api/users/current";
import { can, gymsWhere } from "../api/permissions";
import { appointments, gym_users, gyms, organisation_users, users } from "../db/schema";
import type { Tenant } from "../db/tenant";

/**
 * The calendar's appointments (issue 16). Who: a personal trainer sees and books their own; admins (those who manage
 * a gym's staff) see and book everyone's at their gyms. A trainer is never booked twice at once: a new or moved
 * appointment that overlaps another of theirs is refused, naming it, checked under a lock on the trainer so two
 * bookings at once cannot both pass.
 */
const trainer = alias(users, "trainer");
const member = alias(users, "member");

const view = {
  id: appointments.id,
  gym_id: appointments.gym_id,
  gym: gyms.name,
  starts_at: appointments.starts_at,
  ends_at: appointments.ends_at,
  notes: appointments.notes,
  cancelled_at: appointments.cancelled_at,
  series_id: appointments.series_id,
  trainer: { id: trainer.id, name: trainer.name, calendar_colour: trainer.calendar_colour },
  member: { id: member.id, name: member.name, email: member.email },
};

const select = (t: Tenant) =>
  t.db.select(view).from(appointments).innerJoin(trainer, eq(trainer.id, appointments.trainer_id)).innerJoin(member, eq(member.id, appointments.member_id)).innerJoin(gyms, eq(gyms.id, appointments.gym_id));

/** What `user` may see: their own, and everyone's at the gyms where they manage staff. */
function visibleTo(user: CurrentUser): SQL | undefined {
  const gymsRun = gymsWhere(user, "staff.write");
  if (gymsRun === "all") return undefined;
  const own = eq(appointments.trainer_id, user.row.id);
  return gymsRun.length ? or(own, inArray(appointments.gym_id, gymsRun)) : own;
}

export async function listAppointments(t: Tenant, user: CurrentUser, q: { from: Date; to: Date; trainer_id?: number }) {
  return select(t)
    .where(t.where(appointments, lt(appointments.starts_at, q.to), gt(appointments.ends_at, q.from), isNull(appointments.cancelled_at), q.trainer_id ? eq(appointments.trainer_id, q.trainer_id) : undefined, visibleTo(user)))
    .orderBy(asc(appointments.starts_at), asc(appointments.id));
}

export async function findAppointment(t: Tenant, user: CurrentUser, id: number) {
  const [found] = await select(t).where(t.where(appointments, eq(appointments.id, id), visibleTo(user)));
  if (!found) throw notFound("No such appointment.");
  return found;
}

/** A trainer's booking at a gym: theirs (where they work), or an admin's of that gym. */
function assertMayBook(user: CurrentUser, trainerId: number, gymId: number) {
  if (can(user, "staff.write", gymId)) return;
  if (trainerId === user.row.id && user.gyms.some((g) => g.id === gymId)) return;
  throw forbidden("You can book only your own appointments.");
}

/** The trainer works at the gym (an organisation admin at every gym), and is neither switched off nor removed. */
async function assertTrainerAt(t: Tenant, trainerId: number, gymId: number) {
  const [row] = await t.db
    .select({ role: organisation_users.role, at_gym: sql<boolean>`exists (select 1 from ${gym_users} where ${gym_users.user_id} = ${trainerId} and ${gym_users.gym_id} = ${gymId})` })
    .from(organisation_users)
    .where(t.where(organisation_users, eq(organisation_users.user_id, trainerId), isNull(organisation_users.deleted_at), isNull(organisation_users.deactivated_at)));
  if (!row || row.role === "member" || (row.role !== "admin" && !row.at_gym)) throw invalid({ trainer_id: ["Choose a trainer who works at this gym"] });
}

async function assertMember(t: Tenant, memberId: number) {
  const [row] = await t.db
    .select({ one: sql`1` })
    .from(organisation_users)
    .where(t.where(organisation_users, eq(organisation_users.user_id, memberId), eq(organisation_users.role, "member"), isNull(organisation_users.deleted_at)));
  if (!row) throw invalid({ member_id: ["Choose one of your members"] });
}

/** Refuses a time that overlaps another appointment of the trainer's, naming it. */
async function assertFree(t: Tenant, trainerId: number, starts: Date, ends: Date, except?: number) {
  await t.db.execute(sql`select pg_advisory_xact_lock(${7_000_000_000 + trainerId})`);
  const [clash] = await select(t)
    .where(t.where(appointments, eq(appointments.trainer_id, trainerId), isNull(appointments.cancelled_at), lt(appointments.starts_at, ends), gt(appointments.ends_at, starts), except ? ne(appointments.id, except) : undefined))
    .orderBy(asc(appointments.starts_at))
    .limit(1);
  if (clash) {
    const when = `${formatLocal(clash.starts_at, "EEE d MMM")}, ${formatTime(clash.starts_at)} to ${formatTime(clash.ends_at)}`;
    throw invalid({ starts_at: [`${clash.trainer.name} is already booked then: ${when} with ${clash.member.name}`] });
  }
}

export async function bookAppointment(t: Tenant, user: CurrentUser, input: AppointmentInput, now: Date) {
  const gymId = input.gym_id ?? t.gymId;
  if (!gymId) throw invalid({ gym_id: ["Choose a gym from the list"] });
  const [gym] = await t.db.select({ id: gyms.id }).from(gyms).where(t.where(gyms, eq(gyms.id, gymId)));
  if (!gym) throw invalid({ gym_id: ["Choose a gym from the list"] });
  assertMayBook(user, input.trainer_id, gymId);
  await assertTrainerAt(t, input.trainer_id, gymId);
  await assertMember(t, input.member_id);
  await assertFree(t, input.trainer_id, input.starts_at, input.ends_at);
  const [made] = await t.db
    .insert(appointments)
    .values(t.owned({ gym_id: gymId, trainer_id: input.trainer_id, member_id: input.member_id, starts_at: input.starts_at, ends_at: input.ends_at, notes: input.notes ?? null, created_by: user.row.id, created_at: now, updated_at: now }))
    .returning({ id: appointments.id });
  return findAppointment(t, user, made.id);
}

export async function changeAppointment(t: Tenant, user: CurrentUser, id: number, input: AppointmentChange, now: Date) {
  const found = await findAppointment(t, user, id);
  if (found.cancelled_at) throw invalid({ _: ["This appointment was cancelled: book a new one"] });
  assertMayBook(user, found.trainer.id, found.gym_id);
  await assertFree(t, found.trainer.id, input.starts_at, input.ends_at, id);
  await t.db
    .update(appointments)
    .set({ starts_at: input.starts_at, ends_at: input.ends_at, ...(input.notes !== undefined ? { notes: input.notes } : {}), updated_at: now })
    .where(t.where(appointments, eq(appointments.id, id)));
  return { before: found, after: await findAppointment(t, user, id) };
}

export async function cancelAppointment(t: Tenant, user: CurrentUser, id: number, now: Date) {
  const found = await findAppointment(t, user, id);
  assertMayBook(user, found.trainer.id, found.gym_id);
  if (!found.cancelled_at) await t.db.update(appointments).set({ cancelled_at: now, updated_at: now }).where(t.where(appointments, and(eq(appointments.id, id))));
  return found;
}
