import { asc, count, eq, inArray, isNull, sql } from "drizzle-orm";
import { findGym } from "../core/find-gym";
import { maskAccount } from "../../domain/bank-account";
import type { CredentialService, DestinationAccountInput, GymDetailsInput } from "../../domain/schemas/gyms";
import { GYM_CREDENTIALS } from "../../domain/schemas/gyms";
import { sealSecret } from "../core/crypto/secrets";
import { destination_accounts, gym_users, gyms, organisation_users, organisations } from "../core/db/schema";
import { organisationView } from "../entities/organisation";
import { gymDoors } from "../doors/integration";
import type { Tenant } from "../core/db/tenant";
import { invalid, notFound } from "../core/errors";
import { gymCredential } from "../core/providers/gym-accounts";

/**
 * A gym's own settings (issue 15): its details, bank account, visit tracking and stored provider credentials.
 * Credentials are write-only: they are stored sealed and only ever said to be set or not.
 */

type GymRow = typeof gyms.$inferSelect;


const credentialState = (g: GymRow) =>
  Object.fromEntries(
    (Object.keys(GYM_CREDENTIALS) as CredentialService[]).map((service) => [
      service,
      Object.fromEntries(Object.keys(GYM_CREDENTIALS[service].fields).map((k) => [k, gymCredential(g, service, k) !== null])),
    ]),
  ) as { [S in CredentialService]: Record<keyof (typeof GYM_CREDENTIALS)[S]["fields"], boolean> };

/** Staff (admins and trainers of the gym) and members (whose home gym it is), per gym. */
async function counts(t: Tenant, ids: number[]) {
  if (!ids.length) return { staff: new Map<number, number>(), members: new Map<number, number>() };
  const [staff, members] = await Promise.all([
    t.db.select({ id: gym_users.gym_id, n: count() }).from(gym_users).where(t.where(gym_users, inArray(gym_users.gym_id, ids))).groupBy(gym_users.gym_id),
    t.db
      .select({ id: organisation_users.home_gym_id, n: count() })
      .from(organisation_users)
      .where(t.where(organisation_users, eq(organisation_users.role, "member"), isNull(organisation_users.deleted_at), inArray(organisation_users.home_gym_id, ids)))
      .groupBy(organisation_users.home_gym_id),
  ]);
  return { staff: new Map(staff.map((r) => [r.id, r.n])), members: new Map(members.map((r) => [r.id!, r.n])) };
}

const providers = (g: GymRow) => ({
  stripe: g.stripe_id !== null,
  gocardless: g.gocardless_organisation_id !== null,
  akahu: gymCredential(g, "akahu", "app_token") !== null,
  onesignal: gymCredential(g, "onesignal", "app_id") !== null,
  branch: gymCredential(g, "branch", "key") !== null,
});

/** Who is asking, for a gym's `selected` and `role` (SPEC §3 Gym): their current gym and their role at each gym. */
export interface GymViewer {
  currentGymId: number | null;
  roles: Map<number, "admin" | "personal_trainer">;
}

/** SPEC §3 Gym for each row, in their order: its settings, counts, account, place and doors, organisation, and the viewer's place at it. */
async function gymEntities(t: Tenant, rows: GymRow[], viewer: GymViewer) {
  const ids = rows.map((g) => g.id);
  const [accounts, c, doors, [organisation]] = await Promise.all([
    ids.length
      ? t.db
          .select()
          .from(destination_accounts)
          .where(t.where(destination_accounts, inArray(destination_accounts.gym_id, ids)))
          .orderBy(asc(destination_accounts.id))
      : [],
    counts(t, ids),
    Promise.all(ids.map((id) => gymDoors(t, id))),
    t.db.select().from(organisations).where(eq(organisations.id, t.organisationId)),
  ]);
  return rows.map((g, i) => {
    const account = accounts.find((a) => a.gym_id === g.id);
    return {
      id: g.id,
      name: g.name,
      selected: g.id === viewer.currentGymId,
      role: viewer.roles.get(g.id) ?? (-1 as const),
      organisation: organisationView(organisation),
      uuid: g.uuid,
      logo: g.logo,
      address: g.address,
      created_at: g.created_at,
      archived_at: g.archived_at,
      staff_count: c.staff.get(g.id) ?? 0,
      members_count: c.members.get(g.id) ?? 0,
      stripe_id: g.stripe_id,
      gocardless_organisation_id: g.gocardless_organisation_id,
      providers: providers(g),
      price_change_notification_reply_to: g.price_change_notification_reply_to,
      break_fee_percentage: g.break_fee_percentage,
      card_surcharge_basis_points: g.card_surcharge_basis_points,
      card_surcharge_fixed: g.card_surcharge_fixed,
      general_card_surcharge_text: g.general_card_surcharge_text,
      tracks_visits: g.tracks_visits,
      destination_account: account ? { id: account.id, name: account.name, bank_account_number: maskAccount(account.bank_account_number) } : null,
      credentials: credentialState(g),
      /** Its place in the door system and that place's doors (SPEC §3 Gym: place, doors). */
      place: doors[i].place,
      doors: doors[i].doors,
    };
  });
}

/** GET /api/gyms: the gyms of `ids` (the ones the user administers), each SPEC's Gym with its connected providers. */
export async function listGyms(t: Tenant, ids: number[] | "all", viewer: GymViewer) {
  const rows = await t.db
    .select()
    .from(gyms)
    .where(t.where(gyms, ids === "all" ? undefined : inArray(gyms.id, ids.length ? ids : [0])))
    .orderBy(sql`${gyms.archived_at} is not null`, asc(gyms.name), asc(gyms.id));
  return gymEntities(t, rows, viewer);
}

/** GET /api/gyms/{id}: everything its settings page shows; the account number masked, credentials as set or not. */
export async function gymDetail(t: Tenant, id: number, viewer: GymViewer) {
  const [gym] = await gymEntities(t, [await findGym(t, id)], viewer);
  return gym;
}

export async function updateGymDetails(t: Tenant, id: number, input: GymDetailsInput) {
  await findGym(t, id);
  await t.db
    .update(gyms)
    .set({
      name: input.name,
      address: input.address ?? null,
      price_change_notification_reply_to: input.price_change_notification_reply_to ?? null,
      break_fee_percentage: input.break_fee_percentage ?? null,
      card_surcharge_basis_points: Math.round((input.card_surcharge_percent ?? 0) * 100),
      card_surcharge_fixed: input.card_surcharge_fixed ?? 0,
      general_card_surcharge_text: input.general_card_surcharge_text ?? null,
      updated_at: new Date(),
    })
    .where(t.where(gyms, eq(gyms.id, id)));
}

export async function setTracksVisits(t: Tenant, id: number, on: boolean) {
  await findGym(t, id);
  await t.db.update(gyms).set({ tracks_visits: on, updated_at: new Date() }).where(t.where(gyms, eq(gyms.id, id)));
}

/**
 * PUT /api/gyms/{gymId}/destination-accounts/{accountId}: the account the gym's money is paid into. A gym without
 * one yet is given one by any account id (the form sends 0); a number is required then.
 */
export async function saveDestinationAccount(t: Tenant, gymId: number, accountId: number, input: DestinationAccountInput) {
  await findGym(t, gymId);
  const [current] = await t.db.select().from(destination_accounts).where(t.where(destination_accounts, eq(destination_accounts.gym_id, gymId))).limit(1);
  if (current && current.id !== accountId) throw notFound("No such bank account at this gym.");
  if (!current) {
    if (!input.bank_account_number) {
      throw invalid({ bank_account_number: ["Value is required"], bank_account_number_confirmation: ["Value is required"] });
    }
    await t.db.insert(destination_accounts).values(t.owned({ gym_id: gymId, name: input.name, bank_account_number: input.bank_account_number }));
    return;
  }
  await t.db
    .update(destination_accounts)
    .set({ name: input.name, ...(input.bank_account_number ? { bank_account_number: input.bank_account_number } : {}) })
    .where(t.where(destination_accounts, eq(destination_accounts.id, current.id)));
}

/** PUT …/{service}-config: each field given is sealed and stored; empty ones keep theirs; `clear` removes the service's. */
export async function saveCredentials(t: Tenant, gymId: number, service: CredentialService, input: { clear: boolean; values: Record<string, string | undefined> }) {
  const g = await findGym(t, gymId);
  const kept = { ...(g.integrations[service] ?? {}) };
  if (input.clear) for (const k of Object.keys(kept)) delete kept[k];
  for (const [k, v] of Object.entries(input.values)) if (v) kept[k] = sealSecret(v);
  const integrations = { ...g.integrations, [service]: kept };
  if (!Object.keys(kept).length) delete integrations[service];
  await t.db.update(gyms).set({ integrations, updated_at: new Date() }).where(t.where(gyms, eq(gyms.id, gymId)));
}

export { findGym };
