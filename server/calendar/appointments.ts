import { eq } from "drizzle-orm";
import type { AppointmentChange, AppointmentInput } from "../../domain/schemas/calendar";
import { invalid, notFound } from "../core/errors";
import type { CurrentUser } from "../core/current-user";
import { appointments } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { assertFree, entriesBetween, selectAppointments } from "./entries";
import { assertBooking, assertMayBook, visibleTo } from "./rules";

/**
 * The calendar's one-off appointments (issue 16), and the week's listing with the recurring schedules' occurrences
 * (./entries.ts). Rules of who books what: ./rules.ts. Neither a trainer nor a member is booked twice at once (./entries.ts assertFree).
 */
export async function listAppointments(t: Tenant, user: CurrentUser, q: { from: Date; to: Date; trainer_id?: number }) {
  return entriesBetween(t, user, q.from, q.to, { trainer_id: q.trainer_id });
}

export async function findAppointment(t: Tenant, user: CurrentUser, id: number) {
  const [found] = await selectAppointments(t).where(t.where(appointments, eq(appointments.id, id), visibleTo(user, appointments)));
  if (!found) throw notFound("No such appointment.");
  return found;
}

export async function bookAppointment(t: Tenant, user: CurrentUser, input: AppointmentInput, now: Date) {
  const gymId = await assertBooking(t, user, input);
  await assertFree(t, { trainerId: input.trainer_id, memberId: input.member_id }, [input]);
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
  await assertFree(t, { trainerId: found.trainer.id, memberId: found.member.id }, [input], { except_appointment: id });
  await t.db
    .update(appointments)
    .set({ starts_at: input.starts_at, ends_at: input.ends_at, ...(input.notes !== undefined ? { notes: input.notes } : {}), updated_at: now })
    .where(t.where(appointments, eq(appointments.id, id)));
  return { before: found, after: await findAppointment(t, user, id) };
}

export async function cancelAppointment(t: Tenant, user: CurrentUser, id: number, now: Date) {
  const found = await findAppointment(t, user, id);
  assertMayBook(user, found.trainer.id, found.gym_id);
  if (!found.cancelled_at) await t.db.update(appointments).set({ cancelled_at: now, updated_at: now }).where(t.where(appointments, eq(appointments.id, id)));
  return found;
}
