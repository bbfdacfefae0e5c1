import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../server/core/auth/password";
import { createApi } from "../../server/api/app";
import { SWITCHED_OFF } from "../../server/session/routes";
import { organisation_users, sandbox_door_members, sessions } from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { addMember, addStaff, makeGym, makeOrganisation, makeUser } from "../../server/seed/factories";
import { ALREADY_STAFF, IS_A_MEMBER, lastAdmin } from "../../server/staff/write";
import { browser, lastMail, setup, signedIn } from "./harness";

/**
 * The organisation's staff (issue 15; SPEC §5 Staff, §6 role -1): invitations and their links, roles gym by gym,
 * switching off (sessions end), removal, door access, the last organisation admin, and who may do which.
 */
const PASSWORD = "staff pages passphrase";
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
let org: { id: number };
let admin: Awaited<ReturnType<typeof signedIn>>;
let gymAdmin: Awaited<ReturnType<typeof signedIn>>;
let trainer: Awaited<ReturnType<typeof signedIn>>;
let adminId: number;
let trainerId: number;
let north: { id: number };
let south: { id: number };

const staffPath = () => `/api/organisations/${org.id}/staff`;
const linkIn = (text: string) => text.match(/set-password\?token=(\S+)/)![1];

beforeAll(async () => {
  env = await setup();
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config });
  org = await makeOrganisation(env.db, { name: "Staffed Ltd", multi_gym: true });
  north = await makeGym(env.db, org.id, "North");
  south = await makeGym(env.db, org.id, "South");
  const hash = await hashPassword(PASSWORD);
  const staff = async (email: string, role: "admin" | "personal_trainer", gymRoles: { gymId: number; role: "admin" | "personal_trainer" }[] = []) => {
    const u = await makeUser(env.db, { name: email.split("@")[0], email, password_hash: hash });
    await addStaff(env.db, u.id, org.id, role, gymRoles);
    return { id: u.id, b: await signedIn(api, env.db, email, PASSWORD) };
  };
  const a = await staff("staff.admin@example.com", "admin");
  admin = a.b;
  adminId = a.id;
  gymAdmin = (await staff("staff.gymadmin@example.com", "personal_trainer", [{ gymId: north.id, role: "admin" }])).b;
  const t = await staff("staff.trainer@example.com", "personal_trainer", [{ gymId: north.id, role: "personal_trainer" }]);
  trainer = t.b;
  trainerId = t.id;
  const member = await makeUser(env.db, { name: "A Member", email: "staff.member@example.com" });
  await addMember(env.db, member.id, org.id, north.id);
  const elsewhere = await makeOrganisation(env.db, { name: "Elsewhere" });
  const theirs = await makeUser(env.db, { name: "Their Trainer", email: "their.trainer@example.com", password_hash: hash });
  await addStaff(env.db, theirs.id, elsewhere.id, "admin");
});
afterAll(() => env?.close?.());

describe("inviting staff", () => {
  it("requires an e-mail and a role, and a name unless the person is invited (SPEC §5)", async () => {
    let res = await admin.call("POST", staffPath(), {});
    expect(res.status).toBe(422);
    expect(res.json.errors).toMatchObject({ email: ["Value is required"], role: ["Value is required"] });
    res = await admin.call("POST", staffPath(), { email: "not an address", role: "admin", invite: true });
    expect(res.json.errors).toEqual({ email: ["Value is not a valid email address"] });
    res = await admin.call("POST", staffPath(), { email: "nameless@example.com", role: "admin", invite: false });
    expect(res.json.errors).toEqual({ name: ["Value is required"] });
  });

  it("needs at least one gym with a role, and only the organisation's gyms", async () => {
    let res = await admin.call("POST", staffPath(), { email: "pergym@example.com", role: -1, invite: true, gyms: [{ id: north.id, role: -1 }] });
    expect(res.json.errors).toEqual({ gyms: ["Select at least one gym"] });
    res = await admin.call("POST", staffPath(), { email: "pergym@example.com", role: "personal_trainer", invite: true });
    expect(res.json.errors).toEqual({ gyms: ["Select at least one gym"] });
    res = await admin.call("POST", staffPath(), { email: "pergym@example.com", role: "personal_trainer", invite: true, gyms: [{ id: 999999 }] });
    expect(res.status).toBe(422);
    expect(res.json.errors).toEqual({ gyms: ["Choose a gym from the list"] });
  });

  it("takes role -1 as a role per gym: each gym with a role other than -1, as id plus role (SPEC §6)", async () => {
    const res = await admin.call("POST", staffPath(), {
      email: "Per.Gym@Example.com",
      name: "Pat Pergym",
      role: "-1",
      invite: false,
      gyms: [
        { id: north.id, role: "admin" },
        { id: south.id, role: "-1" },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({
      name: "Pat Pergym",
      email: "per.gym@example.com",
      role: -1,
      gyms: [{ id: north.id, name: "North", role: "admin", label: "North: Admin" }],
      pending_invite: false,
      access_enabled: false,
      calendar_colour: "green",
      status: "active",
      invited: false,
    });
    const trainerAt = await admin.call("POST", staffPath(), { email: "pt@example.com", name: "Tia Trainer", role: "personal_trainer", gyms: [{ id: south.id }] });
    expect(trainerAt.json.data).toMatchObject({ role: "personal_trainer", gyms: [{ id: south.id, label: "South: Personal Trainer" }] });
  });

  it("e-mails an invitee a link to set a password; they give their name, sign in, and are no longer pending", async () => {
    const res = await admin.call("POST", staffPath(), { email: "newbie@example.com", role: -1, invite: true, gyms: [{ id: north.id, role: "personal_trainer" }] });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({ name: "newbie@example.com", pending_invite: true, status: "invited", invited: true });
    const mail = (await lastMail(env.db, "newbie@example.com"))!;
    expect(mail.subject).toBe("You're invited to Staffed Ltd");
    expect(mail.text).toContain("staff.admin has invited you to the staff of Staffed Ltd (Personal Trainer)");
    const token = linkIn(mail.text);
    const guest = browser(api);
    expect((await guest.call("POST", "/api/validate-link", { token })).json.data).toMatchObject({ purpose: "invite", email: "newbie@example.com", needs_name: true });
    const noName = await guest.call("POST", "/api/reset-password", { token, password: "a fresh staff passphrase", password_confirmation: "a fresh staff passphrase" });
    expect(noName.json.errors).toEqual({ name: ["Value is required"] });
    const set = await guest.call("POST", "/api/reset-password", { token, name: "Nina Newbie", password: "a fresh staff passphrase", password_confirmation: "a fresh staff passphrase" });
    expect(set.status).toBe(200);
    const nina = await signedIn(api, env.db, "newbie@example.com", "a fresh staff passphrase");
    const me = (await nina.call("GET", "/api/me")).json.data;
    expect(me).toMatchObject({ name: "Nina Newbie", current_organisation: { id: org.id, role: "personal_trainer" } });
    const row = (await admin.call("GET", `/api/staff/${me.id}`)).json.data;
    expect(row).toMatchObject({ name: "Nina Newbie", pending_invite: false, status: "active" });
  });

  it("resends an invitation with a fresh link, and refuses once a password is set", async () => {
    const res = await admin.call("POST", staffPath(), { email: "slow@example.com", name: "Slow Sam", role: "personal_trainer", invite: true, gyms: [{ id: north.id }] });
    const id = res.json.data.id;
    const first = linkIn((await lastMail(env.db, "slow@example.com"))!.text);
    const again = await admin.call("POST", `/api/staff/${id}/resend-invitation`);
    expect(again.status).toBe(200);
    const second = linkIn((await lastMail(env.db, "slow@example.com"))!.text);
    expect(second).not.toBe(first);
    const guest = browser(api);
    expect((await guest.call("POST", "/api/reset-password", { token: second, password: "slow sams passphrase", password_confirmation: "slow sams passphrase" })).status).toBe(200);
    const late = await admin.call("POST", `/api/staff/${id}/resend-invitation`);
    expect(late.status).toBe(422);
    expect(late.json.message).toBe("They have set a password already: they sign in, or reset it from the sign-in page");
  });

  it("checks the address first (staff-exists), refuses staff and members again, and invites someone another organisation holds", async () => {
    const check = (email: string) => admin.call("POST", `/api/organisations/${org.id}/staff-exists`, { email });
    expect((await check("nobody.yet@example.com")).json.data).toEqual({ exists: false, staff: false, member: false, removed: false, name: null });
    expect((await check("STAFF.TRAINER@example.com")).json.data).toMatchObject({ exists: true, staff: true, name: "staff.trainer" });
    expect((await check("staff.member@example.com")).json.data).toMatchObject({ exists: true, member: true });
    // Someone of another organisation: not this organisation's to know about (issue 29, L3).
    expect((await check("their.trainer@example.com")).json.data).toEqual({ exists: false, staff: false, member: false, removed: false, name: null });
    expect((await check("")).json.errors).toEqual({ email: ["Value is required"] });

    expect((await admin.call("POST", staffPath(), { email: "staff.trainer@example.com", role: "admin", invite: true })).json.errors).toEqual({ email: [ALREADY_STAFF] });
    expect((await admin.call("POST", staffPath(), { email: "staff.member@example.com", role: "admin", invite: true })).json.errors).toEqual({ email: [IS_A_MEMBER] });
    // Decision 0048: they join when they accept; until then nothing of their account comes back.
    const asked = await admin.call("POST", staffPath(), { email: "their.trainer@example.com", role: "personal_trainer", invite: true, gyms: [{ id: south.id }] });
    expect(asked.status).toBe(202);
    expect(asked.json.data).toMatchObject({ awaiting_acceptance: true, email: "their.trainer@example.com" });
    const mail = (await lastMail(env.db, "their.trainer@example.com"))!;
    expect(mail.subject).toBe("Staffed Ltd has invited you to join");
    expect(mail.text).not.toContain("set-password");
    const token = mail.text.match(/invitation\?token=([\w-]+)/)![1];
    expect((await browser(api).call("POST", "/api/invitations/accept", { token })).json.data).toEqual({ organisation: "Staffed Ltd", role: "personal_trainer" });
    const list = (await admin.call("GET", staffPath())).json.data.data;
    expect(list.find((s: { email: string }) => s.email === "their.trainer@example.com")).toMatchObject({ name: "Their Trainer", status: "active", gyms: [{ label: "South: Personal Trainer" }] });
  });
});

describe("a staff member's page and changes", () => {
  it("lists staff with their gyms' role labels, filters by status and search", async () => {
    const list = (await admin.call("GET", staffPath())).json.data;
    const trainerRow = list.data.find((s: { email: string }) => s.email === "staff.trainer@example.com");
    expect(trainerRow).toMatchObject({ role: "personal_trainer", gyms: [{ label: "North: Personal Trainer" }], access_enabled: true, status: "active" });
    expect(list.data.find((s: { email: string }) => s.email === "staff.admin@example.com")).toMatchObject({ role: "admin", role_label: "Organisation admin" });
    expect(list.data.some((s: { email: string }) => s.email === "staff.member@example.com")).toBe(false);
    const options = (await admin.call("GET", `${staffPath()}/form-options`)).json.data;
    expect(options).toMatchObject({ may_make_organisation_admins: true, colours: expect.arrayContaining(["green", "purple"]) });
    expect(options.gyms.map((g: { name: string }) => g.name)).toEqual(["North", "South"]);
    const found = (await admin.call("GET", `${staffPath()}?search=gymadmin`)).json.data.data;
    expect(found.map((s: { email: string }) => s.email)).toEqual(["staff.gymadmin@example.com"]);
  });

  it("changes name, roles and calendar colour, and checks the colour", async () => {
    const created = await admin.call("POST", staffPath(), { email: "colour@example.com", name: "Cole Colour", role: "personal_trainer", gyms: [{ id: north.id }] });
    const id = created.json.data.id;
    const bad = await admin.call("PUT", `/api/staff/${id}`, { name: "", role: -1, calendar_colour: "plaid" });
    expect(bad.json.errors).toEqual({ name: ["Value is required"], calendar_colour: ["Choose one of the colours"] });
    expect((await admin.call("PUT", `/api/staff/${id}`, { name: "Cole", role: -1 })).json.errors).toEqual({ gyms: ["Select at least one gym"] });
    const res = await admin.call("PUT", `/api/staff/${id}`, { name: "Cole Colours", role: -1, calendar_colour: "purple", gyms: [{ id: north.id, role: "personal_trainer" }, { id: south.id, role: "admin" }] });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ name: "Cole Colours", calendar_colour: "purple", role: -1, gyms: [{ label: "North: Personal Trainer" }, { label: "South: Admin" }] });
  });

  it("switches a trainer off: their session ends at once and they cannot sign in until switched on again", async () => {
    const b = await signedIn(api, env.db, "staff.trainer@example.com", PASSWORD);
    expect((await b.call("GET", "/api/me")).status).toBe(200);
    const off = await admin.call("POST", `/api/staff/${trainerId}/deactivate`);
    expect(off.json.data).toMatchObject({ status: "deactivated" });
    expect((await b.call("GET", "/api/me")).status).toBe(401);
    expect((await trainer.call("GET", "/api/me")).status).toBe(401);
    const again = await browser(api).call("POST", "/api/login", { email: "staff.trainer@example.com", password: PASSWORD });
    expect(again.status).toBe(403);
    expect(again.json.message).toBe(SWITCHED_OFF);
    expect((await admin.call("GET", `${staffPath()}?status=deactivated`)).json.data.data.map((s: { id: number }) => s.id)).toContain(trainerId);
    expect((await admin.call("POST", `/api/staff/${trainerId}/reactivate`)).json.data.status).toBe("active");
    trainer = await signedIn(api, env.db, "staff.trainer@example.com", PASSWORD);
  });

  it("turns door access on and off at the door system, for staff who can sign in", async () => {
    const created = await admin.call("POST", staffPath(), { email: "doors@example.com", name: "Dora Doors", role: "personal_trainer", gyms: [{ id: north.id }] });
    const id = created.json.data.id;
    const on = await admin.call("POST", `/api/staff/${id}/kisi-access`, { access_enabled: true });
    expect(on.json.data.access_enabled).toBe(true);
    const door = () => env.db.select().from(sandbox_door_members).where(and(eq(sandbox_door_members.account, `org-${org.id}`), eq(sandbox_door_members.email, "doors@example.com")));
    expect((await door())[0].access_enabled).toBe(true);
    await admin.call("POST", `/api/staff/${id}/kisi-access`, { access_enabled: false });
    expect((await door())[0].access_enabled).toBe(false);
    const invited = await admin.call("POST", staffPath(), { email: "doors.later@example.com", role: "personal_trainer", invite: true, gyms: [{ id: north.id }] });
    const refused = await admin.call("POST", `/api/staff/${invited.json.data.id}/kisi-access`, { access_enabled: true });
    expect(refused.json.errors).toEqual({ access_enabled: ["Only staff who can sign in get door access"] });
  });

  it("removes a staff member softly: kept under Removed, sessions ended, doors shut; invited again, they come back", async () => {
    const created = await admin.call("POST", staffPath(), { email: "leaver@example.com", name: "Lee Leaver", role: "personal_trainer", gyms: [{ id: north.id }] });
    const id = created.json.data.id;
    await admin.call("POST", `/api/staff/${id}/kisi-access`, { access_enabled: true });
    await env.db.insert(sessions).values({ id: "leaver-session", user_id: id, expires_at: new Date(Date.now() + 3600_000) });
    const gone = await admin.call("DELETE", `/api/staff/${id}`);
    expect(gone.json.data).toMatchObject({ status: "removed", access_enabled: false });
    expect(gone.json.data.deleted_at).not.toBeNull();
    expect(await env.db.select().from(sessions).where(eq(sessions.user_id, id))).toEqual([]);
    const [door] = await env.db.select().from(sandbox_door_members).where(eq(sandbox_door_members.email, "leaver@example.com"));
    expect(door.access_enabled).toBe(false);
    expect((await admin.call("GET", staffPath())).json.data.data.some((s: { id: number }) => s.id === id)).toBe(false);
    expect((await admin.call("GET", `${staffPath()}?status=removed`)).json.data.data.map((s: { id: number }) => s.id)).toContain(id);
    const back = await admin.call("POST", staffPath(), { email: "leaver@example.com", role: "personal_trainer", invite: false, name: "Lee Leaver", gyms: [{ id: south.id }] });
    expect(back.status).toBe(201);
    expect(back.json.data).toMatchObject({ id, status: "active", gyms: [{ id: south.id }] });
  });

  it("never lets the organisation lose its last organisation admin", async () => {
    const own = await admin.call("PUT", `/api/staff/${adminId}`, { name: "staff.admin", role: -1, gyms: [{ id: north.id, role: "admin" }] });
    expect(own.status).toBe(422);
    expect(own.json.errors).toEqual({ role: [lastAdmin("staff.admin")] });
    expect((await admin.call("POST", `/api/staff/${adminId}/deactivate`)).json.message).toBe("You cannot switch yourself off: ask another admin");
    expect((await admin.call("DELETE", `/api/staff/${adminId}`)).json.message).toBe("You cannot remove yourself: ask another admin");
    // With a second admin, the first may step down.
    const second = await admin.call("POST", staffPath(), { email: "second.admin@example.com", name: "Second Admin", role: "admin" });
    expect(second.json.data.role).toBe("admin");
    const off = await admin.call("POST", `/api/staff/${second.json.data.id}/deactivate`);
    expect(off.status).toBe(200);
    // Switched off, the second cannot sign in, so they do not count: still the last.
    expect((await admin.call("PUT", `/api/staff/${adminId}`, { name: "staff.admin", role: "personal_trainer", gyms: [{ id: north.id }] })).status).toBe(422);
    await admin.call("POST", `/api/staff/${second.json.data.id}/reactivate`);
    const [row] = await env.db.select().from(organisation_users).where(and(eq(organisation_users.organisation_id, org.id), eq(organisation_users.user_id, second.json.data.id)));
    expect(row.deactivated_at).toBeNull();
  });
});

describe("who may manage staff", () => {
  it("lets a gym admin see and invite staff of their own gyms only, and make nobody an organisation admin", async () => {
    const list = (await gymAdmin.call("GET", staffPath())).json.data;
    const options = (await gymAdmin.call("GET", `${staffPath()}/form-options`)).json.data;
    expect(options).toMatchObject({ may_make_organisation_admins: false, gyms: [{ id: north.id, name: "North" }] });
    expect(list.data.every((s: { gyms: { id: number }[] }) => s.gyms.some((g) => g.id === north.id))).toBe(true);
    expect(list.data.some((s: { role: string }) => s.role === "admin")).toBe(false);
    expect((await gymAdmin.call("POST", staffPath(), { email: "boss@example.com", role: "admin", invite: true })).status).toBe(403);
    expect((await gymAdmin.call("POST", staffPath(), { email: "south.pt@example.com", role: "personal_trainer", invite: true, gyms: [{ id: south.id }] })).status).toBe(403);
    const ok = await gymAdmin.call("POST", staffPath(), { email: "north.pt@example.com", role: "personal_trainer", invite: true, gyms: [{ id: north.id }] });
    expect(ok.status).toBe(201);
    expect((await gymAdmin.call("GET", `/api/staff/${adminId}`)).status).toBe(404);
  });

  it("refuses a gym admin a staff member who also works at a gym they don't run", async () => {
    const both = await admin.call("POST", staffPath(), { email: "both@example.com", name: "Bo Both", role: "personal_trainer", gyms: [{ id: north.id }, { id: south.id }] });
    const res = await gymAdmin.call("POST", `/api/staff/${both.json.data.id}/deactivate`);
    expect(res.status).toBe(403);
    expect(res.json.message).toBe("This staff member also works at gyms you don't run: ask an organisation admin.");
  });

  it("refuses a trainer, and answers 404 for another organisation's staff", async () => {
    expect((await trainer.call("GET", staffPath())).status).toBe(403);
    expect((await trainer.call("POST", staffPath(), { email: "x@example.com", role: "admin" })).status).toBe(403);
    expect((await admin.call("GET", `/api/organisations/${org.id + 1000}/staff`)).status).toBe(404);
    // Their trainer joined this organisation above; another organisation's own admin is still not ours.
    const theirOrgAdmin = await makeUser(env.db, { name: "Other Admin", email: "other.admin@example.com" });
    await addStaff(env.db, theirOrgAdmin.id, (await makeOrganisation(env.db, { name: "Third" })).id, "admin");
    for (const [method, path] of [
      ["GET", `/api/staff/${theirOrgAdmin.id}`],
      ["PUT", `/api/staff/${theirOrgAdmin.id}`],
      ["DELETE", `/api/staff/${theirOrgAdmin.id}`],
      ["POST", `/api/staff/${theirOrgAdmin.id}/deactivate`],
      ["POST", `/api/staff/${theirOrgAdmin.id}/kisi-access`],
      ["POST", `/api/staff/${theirOrgAdmin.id}/resend-invitation`],
    ] as const) {
      const res = await admin.call(method, path, method === "PUT" ? { name: "Mine", role: "admin" } : method === "POST" && path.endsWith("kisi-access") ? { access_enabled: true } : undefined);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
  });
});
