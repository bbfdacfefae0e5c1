import { eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { forbidden, invalid, notFound } from "../core/errors";
import type { CurrentUser } from "../core/current-user";
import { can, gymsWhere } from "../core/permissions";
import { gym_users, gyms, organisation_users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";

/**
 * Who may see and book what on the calendar (issue 16), for appointments and recurring schedules alike: a personal
 * trainer sees and books their own; admins (those who manage a gym's staff) see and book everyone's at their gyms.
 */
export function visibleTo(user: CurrentUser, table: { trainer_id: PgColumn; gym_id: PgColumn }): SQL | undefined {
  const gymsRun = gymsWhere(user, "staff.write");
  if (gymsRun === "all") return undefined;
  const own = eq(table.trainer_id, user.row.id);
  return gymsRun.length ? or(own, inArray(table.gym_id, gymsRun)) : own;
}

/** A trainer's booking at a gym: theirs (where they work), or an admin's of that gym. */
export function assertMayBook(user: CurrentUser, trainerId: number, gymId: number) {
  if (can(user, "staff.write", gymId)) return;
  if (trainerId === user.row.id && user.gyms.some((g) => g.id === gymId)) return;
  throw forbidden("You can book only your own appointments.");
}

/** The gym asked for, or the session's, and one of the organisation's. */
export async function gymFor(t: Tenant, asked: number | undefined): Promise<number> {
  const gymId = asked ?? t.gymId;
  if (!gymId) throw invalid({ gym_id: ["Choose a gym from the list"] });
  const [gym] = await t.db.select({ id: gyms.id }).from(gyms).where(t.where(gyms, eq(gyms.id, gymId)));
  if (!gym) throw invalid({ gym_id: ["Choose a gym from the list"] });
  return gymId;
}

/** The trainer works at the gym (an organisation admin at every gym), and is neither switched off nor removed. */
export async function assertTrainerAt(t: Tenant, trainerId: number, gymId: number) {
  const [row] = await t.db
    .select({ role: organisation_users.role, at_gym: sql<boolean>`exists (select 1 from ${gym_users} where ${gym_users.user_id} = ${trainerId} and ${gym_users.gym_id} = ${gymId})` })
    .from(organisation_users)
    .where(t.where(organisation_users, eq(organisation_users.user_id, trainerId), isNull(organisation_users.deleted_at), isNull(organisation_users.deactivated_at)));
  if (!row || row.role === "member" || (row.role !== "admin" && !row.at_gym)) throw invalid({ trainer_id: ["Choose a trainer who works at this gym"] });
}

const isMember = async (t: Tenant, memberId: number) =>
  (await t.db.select({ one: sql`1` }).from(organisation_users).where(t.where(organisation_users, eq(organisation_users.user_id, memberId), eq(organisation_users.role, "member"), isNull(organisation_users.deleted_at)))).length > 0;

export async function assertMember(t: Tenant, memberId: number) {
  if (!(await isMember(t, memberId))) throw invalid({ member_id: ["Choose one of your members"] });
}

/** A path's member: one of this organisation's, or 404. */
export async function assertMemberHere(t: Tenant, memberId: number) {
  if (!(await isMember(t, memberId))) throw notFound("No such member.");
}

/** Everything a new booking or series must pass: the gym, who books, the trainer there, the member ours. */
export async function assertBooking(t: Tenant, user: CurrentUser, input: { gym_id?: number; trainer_id: number; member_id: number }): Promise<number> {
  const gymId = await gymFor(t, input.gym_id);
  assertMayBook(user, input.trainer_id, gymId);
  await assertTrainerAt(t, input.trainer_id, gymId);
  await assertMember(t, input.member_id);
  return gymId;
}
