import type { Db } from "../core/db/client";
import { gym_users, gyms, offerings, organisation_users, organisations, payments, prices, subscriptions, users, visits } from "../core/db/schema";

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

/** An offering of the organisation (24/7 unless told otherwise). */
export async function makeOffering(db: Db, organisationId: number, values: Partial<typeof offerings.$inferInsert> & { name: string }) {
  const [offering] = await db.insert(offerings).values({ organisation_id: organisationId, type: "24_7", ...values }).returning();
  return offering;
}

/** A price of an offering (weekly unless told otherwise); `amount` in cents. */
export async function makePrice(db: Db, offering: { id: number; organisation_id: number }, values: Partial<typeof prices.$inferInsert> & { amount: number }) {
  const [price] = await db
    .insert(prices)
    .values({ organisation_id: offering.organisation_id, offering_id: offering.id, billing_frequency: "weekly", ...values })
    .returning();
  return price;
}

/** A member's subscription to a price, at a gym. */
export async function makeSubscription(
  db: Db,
  price: { id: number; organisation_id: number },
  userId: number,
  gymId: number,
  values: Partial<typeof subscriptions.$inferInsert> = {},
) {
  const [subscription] = await db
    .insert(subscriptions)
    .values({ organisation_id: price.organisation_id, price_id: price.id, user_id: userId, gym_id: gymId, ...values })
    .returning();
  return subscription;
}

/** A payment on a subscription ("sent", the subscription's price amount unless told otherwise). */
export async function makePayment(
  db: Db,
  subscription: { id: number; organisation_id: number; user_id: number; gym_id: number },
  values: Partial<typeof payments.$inferInsert> & { amount: number },
) {
  const [payment] = await db
    .insert(payments)
    .values({ organisation_id: subscription.organisation_id, subscription_id: subscription.id, user_id: subscription.user_id, gym_id: subscription.gym_id, status: "sent", ...values })
    .returning();
  return payment;
}

/** A visit to a gym (successful, now, unless told otherwise). */
export async function makeVisit(db: Db, organisationId: number, gymId: number, userId: number, values: Partial<typeof visits.$inferInsert> = {}) {
  const [visit] = await db.insert(visits).values({ organisation_id: organisationId, gym_id: gymId, user_id: userId, visited_at: new Date(), ...values }).returning();
  return visit;
}
