import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi, localJobs } from "../../server/api/app";
import { hashPassword } from "../../server/core/auth/password";
import { organisation_users, prices, users } from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { addMember, addStaff, makeGym, makeOffering, makeOrganisation, makeUser } from "../../server/seed/factories";
import { lastMail, setup, signedIn } from "./harness";

/**
 * Member imports (issue 15) through the API: a file's columns guessed, a dry run that writes nothing and says why each
 * bad row is bad, a partial import by the job, the rejected rows as a file, a second import of the same file that
 * creates nothing, invitations; another organisation's import is 404.
 */
const PASSWORD = "imports passphrase";
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
let jobs: ReturnType<typeof localJobs>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let trainer: Awaited<ReturnType<typeof signedIn>>;
let org: { id: number };
let gym: { id: number };
let gold: number;

const FILE = [
  "First Name,Last Name,Email,Mobile,DOB,Membership Title,Joined Date",
  "ana,smith,Ana.Smith@example.com,021 555 0101,31/12/1990,Gold,01/03/2024",
  "Ben,Jones,ben.jones@example.com,021 555 0102,05/06/1985,Gold,15/01/2023",
  "Cat,Brown,not-an-address,021 555 0103,01/01/1990,Gold,01/01/2024",
  "Dan,Green,dan.green@example.com,021 555 0104,31/02/1990,Gold,01/01/2024",
  "Eve,White,eve.white@example.com,021 555 0105,01/01/1992,Platinum,01/01/2024",
  "Ben,Again,BEN.JONES@example.com,021 555 0106,01/01/1992,Gold,01/01/2024",
  "Kim,Existing,kim.existing@example.com,021 555 0107,02/02/1980,,",
  "Sam,Staff,imports.trainer@example.com,021 555 0108,02/02/1980,,",
  '"Lee, Jr",Quote,lee.quote@example.com,,,No membership,',
].join("\n");

beforeAll(async () => {
  env = await setup();
  const mailer = outboxMailer(env.db);
  jobs = localJobs({ db: env.db, mailer, config: env.config });
  api = createApi({ db: env.db, mailer, config: env.config, jobs });
  org = await makeOrganisation(env.db, { name: "Importing Gyms", multi_gym: true });
  gym = await makeGym(env.db, org.id, "Old System Gym");
  const offering = await makeOffering(env.db, org.id, { name: "Gold" });
  [{ id: gold }] = await env.db.insert(prices).values({ organisation_id: org.id, offering_id: offering.id, amount: 2500, billing_frequency: "weekly" }).returning();
  const hash = await hashPassword(PASSWORD);
  const a = await makeUser(env.db, { name: "Import Admin", email: "imports.admin@example.com", password_hash: hash });
  await addStaff(env.db, a.id, org.id, "admin");
  const t = await makeUser(env.db, { name: "Import Trainer", email: "imports.trainer@example.com", password_hash: hash });
  await addStaff(env.db, t.id, org.id, "personal_trainer", [{ gymId: gym.id, role: "personal_trainer" }]);
  const kim = await makeUser(env.db, { name: "Kim Existing", email: "kim.existing@example.com", mobile_number: "021 000 0000" });
  await addMember(env.db, kim.id, org.id, gym.id);
  admin = await signedIn(api, env.db, "imports.admin@example.com", PASSWORD);
  trainer = await signedIn(api, env.db, "imports.trainer@example.com", PASSWORD);
});
afterAll(() => env?.close?.());

const settings = (mapping: string[], extra: Record<string, unknown> = {}) => ({ mapping, date_order: "dmy", plans: {}, ...extra });

describe("a member import", () => {
  let id: number;
  let againId: number;
  let mapping: string[];

  it("reads the file's header and guesses each column's field and the date order", async () => {
    const res = await admin.call("POST", `/api/gyms/${gym.id}/imports`, { csv: FILE, filename: "glofox.csv" });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({ filename: "glofox.csv", row_count: 9, status: "draft", date_order: "dmy" });
    expect(res.json.data.mapping).toEqual(["first_name", "last_name", "email", "mobile_number", "dob", "plan", "joined_on"]);
    id = res.json.data.id;
    mapping = res.json.data.mapping;
  });

  it("guesses each plan's price at upload and lists the plans before the first check", async () => {
    // "Gold" is the name of an offering with one price; "No membership" means none; nothing is like "Platinum".
    expect((await admin.call("GET", `/api/imports/${id}`)).json.data.plans).toEqual({ Gold: gold, "No membership": 0 });
    expect((await admin.call("GET", `/api/imports/${id}/plans`)).json.data.data).toEqual([
      { name: "Gold", count: 5, price_id: gold },
      { name: "No membership", count: 1, price_id: 0 },
      { name: "Platinum", count: 1, price_id: null },
    ]);
    expect((await trainer.call("GET", `/api/imports/${id}/plans`)).status).toBe(403);
  });

  it("refuses what is not a member file", async () => {
    expect((await admin.call("POST", `/api/gyms/${gym.id}/imports`, { csv: "just one line" })).json.errors.file[0]).toMatch(/header row/);
    expect((await admin.call("POST", `/api/gyms/${gym.id}/imports`, { csv: "email,name\n" })).json.errors).toEqual({ file: ["The file has a header but no members"] });
    expect((await admin.call("POST", `/api/gyms/${gym.id}/imports`, {})).json.errors).toEqual({ csv: ["Paste the file's text, or upload the file"] });
    const bad = await admin.call("PUT", `/api/imports/${id}`, settings(["ignore", "ignore", "ignore", "ignore", "ignore", "ignore", "ignore"]));
    expect(bad.json.errors).toEqual({ mapping: ["Choose the column that holds the e-mail address"] });
  });

  it("dry-runs: counts, and every bad row with why, before anything is written", async () => {
    const res = await admin.call("PUT", `/api/imports/${id}`, settings(mapping));
    expect(res.status).toBe(200);
    const s = res.json.data.summary;
    expect(s.plans).toEqual([
      { name: "Gold", count: 5, price_id: null },
      { name: "No membership", count: 1, price_id: null },
      { name: "Platinum", count: 1, price_id: null },
    ]);
    expect(s.error_rows.map((e: { reason: string }) => e.reason)).toContain("Unknown price: Gold");
    const mapped = await admin.call("PUT", `/api/imports/${id}`, settings(mapping, { plans: { Gold: gold, "No membership": 0 } }));
    const m = mapped.json.data.summary;
    expect(m).toMatchObject({ total: 9, create: 3, update: 1, unchanged: 0, errors: 5 });
    expect(m.error_rows).toEqual([
      { line: 4, email: "not-an-address", reason: "Not a valid e-mail address: not-an-address" },
      { line: 5, email: "dan.green@example.com", reason: "Date of birth is not a date: 31/02/1990" },
      { line: 6, email: "eve.white@example.com", reason: "Unknown price: Platinum" },
      { line: 7, email: "ben.jones@example.com", reason: "The e-mail address is also on row 3" },
      { line: 9, email: "imports.trainer@example.com", reason: "This e-mail address belongs to a member of your staff" },
    ]);
    expect(m.sample[0]).toMatchObject({ line: 2, member: { name: "Ana Smith", email: "ana.smith@example.com", dob: "1990-12-31", joined_on: "2024-03-01", price_id: gold } });
    expect(await env.db.select().from(users).where(eq(users.email, "ana.smith@example.com"))).toEqual([]);
  });

  it("refuses to import a file with errors unless told to import the good rows only", async () => {
    const res = await admin.call("POST", `/api/imports/${id}/confirm`);
    expect(res.status).toBe(422);
    expect(res.json.errors).toEqual({ import_errors: ["5 rows have errors: fix the file, or choose to import the good rows only"] });
  });

  it("imports the good rows in the background, and offers the rejected ones as a file", async () => {
    await admin.call("PUT", `/api/imports/${id}`, settings(mapping, { plans: { Gold: gold, "No membership": 0 }, import_errors: true }));
    expect((await admin.call("POST", `/api/imports/${id}/confirm`)).status).toBe(202);
    await jobs.idle();
    const done = (await admin.call("GET", `/api/imports/${id}`)).json.data;
    expect(done).toMatchObject({ status: "done", created_count: 3, updated_count: 1, unchanged_count: 0, rejected_count: 5, progress: { processed: 9, total: 9, percent: 100 } });
    const [ana] = await env.db.select().from(users).where(eq(users.email, "ana.smith@example.com"));
    expect(ana).toMatchObject({ name: "Ana Smith", dob: "1990-12-31", mobile_number: "021 555 0101", password_hash: null });
    const [membership] = await env.db.select().from(organisation_users).where(and(eq(organisation_users.user_id, ana.id), eq(organisation_users.organisation_id, org.id)));
    expect(membership).toMatchObject({ role: "member", home_gym_id: gym.id, signup_price_id: gold, import_id: id });
    expect(membership.created_at.toISOString()).toBe("2024-03-01T00:00:00.000Z");
    const [kim] = await env.db.select().from(users).where(eq(users.email, "kim.existing@example.com"));
    expect(kim.mobile_number).toBe("021 555 0107");
    const rejected = await admin.call("GET", `/api/imports/${id}/rejected`);
    expect(rejected.headers.get("content-type")).toContain("text/csv");
    const lines = String(rejected.json).trim().split("\n");
    expect(lines[0]).toBe("First Name,Last Name,Email,Mobile,DOB,Membership Title,Joined Date,Why it was not imported");
    expect(lines).toHaveLength(6);
    expect(lines[2]).toBe("Dan,Green,dan.green@example.com,021 555 0104,31/02/1990,Gold,01/01/2024,Date of birth is not a date: 31/02/1990");
    expect((await admin.call("PUT", `/api/imports/${id}`, settings(mapping))).status).toBe(409);
  });

  it("creates nothing when the same file comes again", async () => {
    const again = (await admin.call("POST", `/api/gyms/${gym.id}/imports`, { csv: FILE, filename: "glofox.csv" })).json.data;
    againId = again.id;
    const checked = (await admin.call("PUT", `/api/imports/${again.id}`, settings(mapping, { plans: { Gold: gold, "No membership": 0 }, import_errors: true }))).json.data;
    expect(checked.summary).toMatchObject({ create: 0, update: 0, unchanged: 4, errors: 5 });
    await admin.call("POST", `/api/imports/${again.id}/confirm`);
    await jobs.idle();
    expect((await admin.call("GET", `/api/imports/${again.id}`)).json.data).toMatchObject({ status: "done", created_count: 0, updated_count: 0, unchanged_count: 4 });
  });

  it("invites the members the latest import wrote who have no password, once", async () => {
    const res = await admin.call("POST", `/api/imports/${againId}/invite`);
    expect(res.json.data.invited).toBe(4);
    const mail = (await lastMail(env.db, "ana.smith@example.com"))!;
    expect(mail.subject).toBe("Old System Gym: set up your membership");
    expect(mail.text).toMatch(/set-password\?token=/);
    expect((await admin.call("POST", `/api/imports/${againId}/invite`)).json.data.invited).toBe(0);
  });

  it("takes an uploaded file too, and lists the gym's imports", async () => {
    const form = new FormData();
    form.set("file", new File(["email,name\nzed@example.com,Zed Zulu\n"], "members.csv", { type: "text/csv" }));
    const res = await admin.call("POST", `/api/gyms/${gym.id}/imports`, form);
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({ filename: "members.csv", mapping: ["email", "name"] });
    const list = (await admin.call("GET", `/api/gyms/${gym.id}/imports`)).json.data.data;
    expect(list.map((i: { filename: string }) => i.filename)).toEqual(["members.csv", "glofox.csv", "glofox.csv"]);
    expect((await admin.call("DELETE", `/api/imports/${res.json.data.id}`)).status).toBe(200);
  });

  it("reads a status column as the member's state: active and paused join on their price, cancelled are kept without one", async () => {
    const elsewhere = await makeOrganisation(env.db, { name: "Elsewhere Gyms" });
    const elsewhereGym = await makeGym(env.db, elsewhere.id, "Elsewhere Gym");
    const held = await makeUser(env.db, { name: "Held Elsewhere", email: "held.elsewhere@example.com" });
    await addMember(env.db, held.id, elsewhere.id, elsewhereGym.id);
    const file = [
      "Email,Full Name,Membership Start Date,Plan,Status",
      "amy.active@example.com,Amy Active,01/03/2024,Gold Weekly,ACTIVE",
      "fay.frozen@example.com,Fay Frozen,02/03/2024,Gold,FROZEN",
      "con.cancelled@example.com,Con Cancelled,03/03/2024,Retired Plan,CANCELLED",
      "hal.hold@example.com,Hal Hold,04/03/2024,Gold,On Hold",
      "ian.inactive@example.com,Ian Inactive,,Gold,inactive",
      "pat.pending@example.com,Pat Pending,,Gold,Pending",
      "nat.nothing@example.com,Nat Nothing,,Gold,",
      "held.elsewhere@example.com,Held Elsewhere,,Gold,Canceled",
    ].join("\n");
    const created = (await admin.call("POST", `/api/gyms/${gym.id}/imports`, { csv: file, filename: "fitness-gm.csv" })).json.data;
    expect(created.mapping).toEqual(["email", "name", "joined_on", "plan", "status"]);
    // A cancelled member's plan needs no price: "Retired Plan" is not asked about.
    expect((await admin.call("GET", `/api/imports/${created.id}/plans`)).json.data.data).toEqual([
      { name: "Gold", count: 4, price_id: gold },
      { name: "Gold Weekly", count: 1, price_id: gold },
    ]);
    const checked = (await admin.call("PUT", `/api/imports/${created.id}`, { mapping: created.mapping, date_order: "dmy", import_errors: true })).json.data.summary;
    expect(checked).toMatchObject({ total: 8, create: 5, errors: 3, states: { active: 1, paused: 2, cancelled: 2 } });
    expect(checked.error_rows.map((e: { line: number; reason: string }) => [e.line, e.reason])).toEqual([
      [7, "Unknown membership status: Pending (use Active, Frozen or Cancelled)"],
      [8, "No membership status"],
      [9, "A cancelled member whose account another organisation holds: not invited to join"],
    ]);
    expect(checked.sample[0].member).toMatchObject({ email: "amy.active@example.com", joined_on: "2024-03-01", state: "active", price_id: gold });
    expect((await admin.call("POST", `/api/imports/${created.id}/confirm`)).status).toBe(202);
    await jobs.idle();
    const memberships = await env.db
      .select({ email: users.email, tags: organisation_users.tags, price: organisation_users.signup_price_id, joined: organisation_users.created_at })
      .from(organisation_users)
      .innerJoin(users, eq(users.id, organisation_users.user_id))
      .where(and(eq(organisation_users.organisation_id, org.id), eq(organisation_users.import_id, created.id)));
    const of = (email: string) => memberships.find((m) => m.email === email);
    expect(of("amy.active@example.com")).toMatchObject({ tags: [], price: gold });
    expect(of("amy.active@example.com")!.joined.toISOString()).toBe("2024-03-01T00:00:00.000Z");
    expect(of("fay.frozen@example.com")).toMatchObject({ tags: ["imported as paused"], price: gold });
    expect(of("hal.hold@example.com")).toMatchObject({ tags: ["imported as paused"], price: gold });
    expect(of("con.cancelled@example.com")).toMatchObject({ tags: ["imported as cancelled"], price: null });
    expect(of("ian.inactive@example.com")).toMatchObject({ tags: ["imported as cancelled"], price: null });
    // Nobody is asked to set up payment for a membership they cancelled.
    expect((await admin.call("POST", `/api/imports/${created.id}/invite`)).json.data.invited).toBe(3);
    expect(await lastMail(env.db, "con.cancelled@example.com")).toBeFalsy();
    expect(await lastMail(env.db, "held.elsewhere@example.com")).toBeFalsy();
    expect(await lastMail(env.db, "fay.frozen@example.com")).toBeTruthy();
  });

  it("is for staff who may change the gym's members, in their organisation only", async () => {
    expect((await trainer.call("GET", `/api/gyms/${gym.id}/imports`)).status).toBe(403);
    expect((await trainer.call("GET", `/api/imports/${id}`)).status).toBe(403);
    const other = await makeOrganisation(env.db, { name: "Other" });
    const otherGym = await makeGym(env.db, other.id, "Other Gym");
    expect((await admin.call("GET", `/api/gyms/${otherGym.id}/imports`)).status).toBe(404);
    expect((await admin.call("GET", `/api/imports/999999`)).status).toBe(404);
  });
});
