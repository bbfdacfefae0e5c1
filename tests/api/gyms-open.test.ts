import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../server/core/auth/password";
import { createApi } from "../../server/api/app";
import { destination_accounts, gym_users, gyms } from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { addStaff, makeGym, makeOffering, makeOrganisation, makePrice, makeUser } from "../../server/seed/factories";
import { browser, setup, signedIn } from "./harness";

/**
 * Opening a new location and archiving one (issue 32, decision 0061): organisation admins only; the creator becomes
 * its gym admin; an archived gym is not sold, listed to join or switched to, and is never deleted.
 */
const PASSWORD = "open a gym passphrase";
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let gymAdmin: Awaited<ReturnType<typeof signedIn>>;
let adminId: number;
let north: { id: number; uuid: string };
let org: { id: number };

beforeAll(async () => {
  env = await setup();
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config });
  org = await makeOrganisation(env.db, { name: "Opening Ltd", multi_gym: true });
  north = await makeGym(env.db, org.id, "North");
  await makePrice(env.db, await makeOffering(env.db, org.id, { name: "Anytime", all_gyms_access: true }), { amount: 1500 });
  const hash = await hashPassword(PASSWORD);
  const staff = async (email: string, role: "admin" | "personal_trainer", gymRoles: { gymId: number; role: "admin" | "personal_trainer" }[] = []) => {
    const u = await makeUser(env.db, { name: email.split("@")[0], email, password_hash: hash });
    await addStaff(env.db, u.id, org.id, role, gymRoles);
    return { id: u.id, session: await signedIn(api, env.db, email, PASSWORD) };
  };
  const a = await staff("open.admin@example.com", "admin");
  admin = a.session;
  adminId = a.id;
  gymAdmin = (await staff("open.gymadmin@example.com", "personal_trainer", [{ gymId: north.id, role: "admin" }])).session;
});
afterAll(() => env?.close?.());

const publicNames = async () =>
  (await browser(env.api, { host: "signup.localhost:3000" }).call("GET", "/api/public/gyms")).json.data
    .filter((g: { organisation: { name: string } }) => g.organisation.name === "Opening Ltd")
    .map((g: { name: string }) => g.name);

describe("POST /api/gyms", () => {
  let south: number;

  it("opens a gym with its address, bank account and visit tracking; its creator is its gym admin", async () => {
    const res = await admin.call("POST", "/api/gyms", {
      name: "  South  ",
      address: "1 Dominion Road\nMount Eden\nAuckland 1024",
      tracks_visits: true,
      bank_account_name: "South trading",
      bank_account_number: "12-3140-0171323-50",
      bank_account_number_confirmation: "12 3140 0171323 50",
    });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({ name: "South", address: "1 Dominion Road\nMount Eden\nAuckland 1024", tracks_visits: true, archived_at: null });
    expect(res.json.data.destination_account).toMatchObject({ name: "South trading", bank_account_number: "12-••••-•••1323-50" });
    south = res.json.data.id;
    expect(await env.db.select().from(gym_users).where(eq(gym_users.gym_id, south))).toMatchObject([{ user_id: adminId, role: "admin" }]);
    // In the switcher at once, and in the list people join from: the organisation's price is sold at every gym.
    const me = (await admin.call("GET", "/api/me")).json.data;
    expect(me.gyms.map((g: { name: string }) => g.name)).toEqual(["North", "South"]);
    expect(await publicNames()).toEqual(["North", "South"]);
  });

  it("refuses bad input with the fields' messages and writes nothing", async () => {
    const before = (await env.db.select().from(gyms)).length;
    const res = await admin.call("POST", "/api/gyms", {
      name: "Bad bank",
      bank_account_name: "Half",
      bank_account_number: "99-1",
      bank_account_number_confirmation: "nope",
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.json.errors).sort()).toEqual(["bank_account_number", "bank_account_number_confirmation"]);
    expect((await admin.call("POST", "/api/gyms", { name: " " })).json.errors).toEqual({ name: ["Value is required"] });
    expect((await env.db.select().from(gyms)).length).toBe(before);
    expect((await admin.call("POST", "/api/gyms", { name: "Bank half", bank_account_number: "12-3140-0171323-50" })).json.errors).toMatchObject({
      bank_account_name: ["Value is required"],
      bank_account_number_confirmation: ["Value is required"],
    });
  });

  it("is for organisation admins only", async () => {
    const res = await gymAdmin.call("POST", "/api/gyms", { name: "Mine" });
    expect(res.status).toBe(403);
    expect(res.json.message).toBe("Only organisation admins can open or archive a gym.");
    expect((await gymAdmin.call("DELETE", `/api/gyms/${north.id}/archive`)).status).toBe(403);
  });

  it("archives a gym: not sold, not listed to join, not switched to; restored, it is all three again", async () => {
    const archived = await admin.call("DELETE", `/api/gyms/${south}/archive`);
    expect(archived.status).toBe(200);
    expect(archived.json.data.archived_at).not.toBeNull();
    expect(await publicNames()).toEqual(["North"]);
    const [{ uuid }] = await env.db.select({ uuid: gyms.uuid }).from(gyms).where(eq(gyms.id, south));
    expect((await browser(env.api, { host: "signup.localhost:3000" }).call("GET", `/api/public/gyms/${uuid}`)).json.data.prices).toEqual([]);
    expect((await admin.call("POST", `/api/gyms/${south}/switch`)).status).toBe(409);
    const me = (await admin.call("GET", "/api/me")).json.data;
    expect(me.current_gym.name).toBe("North");
    expect(me.gyms.find((g: { name: string }) => g.name === "South")).toMatchObject({ archived: true });
    // Still there, with its account: archived, never deleted.
    expect(
      (await admin.call("GET", "/api/gyms")).json.data.data.map((g: { name: string; archived_at: string | null }) => [g.name, Boolean(g.archived_at)]),
    ).toEqual([
      ["North", false],
      ["South", true],
    ]);
    expect(await env.db.select().from(destination_accounts).where(eq(destination_accounts.gym_id, south))).toHaveLength(1);

    expect((await admin.call("POST", `/api/gyms/${south}/restore`)).json.data.archived_at).toBeNull();
    expect(await publicNames()).toEqual(["North", "South"]);
    expect((await admin.call("POST", `/api/gyms/${south}/switch`)).status).toBe(200);
  });

  it("never archives the organisation's last open gym", async () => {
    expect((await admin.call("DELETE", `/api/gyms/${south}/archive`)).status).toBe(200);
    const last = await admin.call("DELETE", `/api/gyms/${north.id}/archive`);
    expect(last.status).toBe(409);
    expect(last.json).toMatchObject({ error: "last_gym" });
    expect((await env.db.select({ archived_at: gyms.archived_at }).from(gyms).where(eq(gyms.id, north.id)))[0].archived_at).toBeNull();
  });
});
