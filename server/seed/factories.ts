import type { Db } from "../db/client";
import { gym_users, gyms, organisation_users, organisations, users } from "../db/schema";

/** Builders shared by the demo seed and the tests: one way to make each kind of row. */
export async function makeOrganisation(db: Db, values: Partial<typeof organisations.$inferInsert> & { name: string }) {
  const [org] = await db.insert(organisations).values(values).returning();
  return org;
}

export async function makeGym(db: Db, organisationId: number, name: string) {
  const [gym] = await db.insert(gyms).values({ organisation_id: organisationId, name }).returning();
  return gym;
}

export async function makeUser(
  db: Db,
  values: Partial<typeof users.$inferInsert> & { name: string; email: string },
) {
  const [user] = await db
    .insert(users)
    .values({ email_verified_at: new Date(), ...values })
    .returning();
  return user;
}

/** Makes `userId` staff of an organisation: 'admin' (all gyms) or 'personal_trainer' (the gyms listed). */
export async function addStaff(
  db: Db,
  userId: number,
  organisationId: number,
  role: "admin" | "personal_trainer",
  gymRoles: { gymId: number; role: "admin" | "personal_trainer" }[] = [],
) {
  await db.insert(organisation_users).values({ organisation_id: organisationId, user_id: userId, role });
  if (gymRoles.length) {
    await db
      .insert(gym_users)
      .values(gymRoles.map((g) => ({ organisation_id: organisationId, gym_id: g.gymId, user_id: userId, role: g.role })));
  }
}

export async function addMember(db: Db, userId: number, organisationId: number, homeGymId: number, extra: Partial<typeof organisation_users.$inferInsert> = {}) {
  await db
    .insert(organisation_users)
    .values({ organisation_id: organisationId, user_id: userId, role: "member", home_gym_id: homeGymId, ...extra });
}
