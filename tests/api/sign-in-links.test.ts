import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createApi } from "../../server/api/app";
import { hashPassword } from "../../server/core/auth/password";
import { outboxMailer } from "../../server/core/mail/mailer";
import { mail_outbox, users } from "../../server/core/db/schema";
import { addMember, addStaff, makeGym, makeOrganisation, makeUser } from "../../server/seed/factories";
import { LINK_SENT } from "../../server/session/sign-in-links";
import { browser, itRaces, lastMail, setup } from "./harness";

/** Issue 31: a member's e-mailed sign-in link on the sign-up host. */
let env: Awaited<ReturnType<typeof setup>>;
let orgId: number;
let gymId: number;
const SIGNUP = { host: "signup.localhost:3000" };

beforeAll(async () => {
  env = await setup();
  const org = await makeOrganisation(env.db, { name: "Link Gyms" });
  orgId = org.id;
  gymId = (await makeGym(env.db, org.id, "Ponsonby")).id;
});
afterAll(() => env.close());

async function member(email: string, extra: Partial<typeof users.$inferInsert> = {}) {
  const user = await makeUser(env.db, { name: "Mo Member", email, current_organisation_id: orgId, ...extra });
  await addMember(env.db, user.id, orgId, gymId);
  return user;
}

const linkIn = (text: string) => new URL(text.match(/https?:\/\/\S+/)![0]);
const tokenIn = (text: string) => linkIn(text).searchParams.get("token")!;
const mailsTo = async (to: string) => (await env.db.select().from(mail_outbox).where(eq(mail_outbox.to, to))).length;

describe("asking for a sign-in link", () => {
  it("mails a member a link to the sign-up host, naming their gym", async () => {
    await member("mo@example.com");
    const res = await browser(env.api, SIGNUP).call("POST", "/api/login-link", { email: "Mo@Example.com" });
    expect(res.status).toBe(200);
    expect(res.json.data.message).toBe(LINK_SENT);
    const mail = (await lastMail(env.db, "mo@example.com"))!;
    expect(mail.subject).toBe("Your sign-in link");
    expect(mail.text).toContain("Ponsonby");
    const url = linkIn(mail.text);
    expect(url.host).toBe("signup.localhost:3000");
    expect(url.pathname).toBe("/sign-in/link");
    expect(mail.html).toContain(url.pathname);
  });

  it("answers the same for an unknown address and for staff, and mails neither", async () => {
    const staff = await makeUser(env.db, { name: "Sam Staff", email: "sam.staff@example.com", password_hash: await hashPassword("a staff passphrase") });
    await addStaff(env.db, staff.id, orgId, "admin");
    for (const email of ["nobody@example.com", "sam.staff@example.com"]) {
      const res = await browser(env.api, SIGNUP).call("POST", "/api/login-link", { email });
      expect(res.status).toBe(200);
      expect(res.json.data.message).toBe(LINK_SENT);
      expect(await mailsTo(email)).toBe(0);
    }
  });

  it("refuses a bad address with SPEC's message", async () => {
    const res = await browser(env.api, SIGNUP).call("POST", "/api/login-link", { email: "not-an-address" });
    expect(res.status).toBe(422);
    expect(res.json.errors.email).toBeDefined();
  });

  it("sends at most three links an hour to one address, and answers the same after", async () => {
    await member("many@example.com");
    for (let i = 0; i < 5; i++) {
      const res = await browser(env.api, { ...SIGNUP, ip: `198.51.100.${i + 1}` }).call("POST", "/api/login-link", { email: "many@example.com" });
      expect(res.status).toBe(200);
    }
    expect(await mailsTo("many@example.com")).toBe(3);
  });

  it("lets one address ask ten times an hour, then says to wait", async () => {
    const b = browser(env.api, { ...SIGNUP, ip: "198.51.100.99" });
    for (let i = 0; i < 10; i++) expect((await b.call("POST", "/api/login-link", { email: `x${i}@example.com` })).status).toBe(200);
    const res = await b.call("POST", "/api/login-link", { email: "x10@example.com" });
    expect(res.status).toBe(429);
    expect(res.json.message).toMatch(/Try again in/);
  });
});

describe("using a sign-in link", () => {
  it("signs the member in, verified, once; the address counts as confirmed", async () => {
    const user = await member("una@example.com", { email_verified_at: null });
    await browser(env.api, SIGNUP).call("POST", "/api/login-link", { email: "una@example.com" });
    const token = tokenIn((await lastMail(env.db, "una@example.com"))!.text);

    const b = browser(env.api, SIGNUP);
    const check = await b.call("POST", "/api/login-link/check", { token });
    expect(check.json.data).toMatchObject({ valid: true, email: "una@example.com", name: "Mo Member" });
    const claim = await b.call("POST", "/api/login-link/claim", { token });
    expect(claim.status).toBe(200);
    const me = await b.call("GET", "/api/me");
    expect(me.status).toBe(200);
    expect(me.json.data).toMatchObject({ email: "una@example.com", is_staff: false });
    const [row] = await env.db.select().from(users).where(eq(users.id, user.id));
    expect(row.email_verified_at).not.toBeNull();

    // Once only: a second use, or a check after it, finds it spent.
    const again = await browser(env.api, SIGNUP).call("POST", "/api/login-link/claim", { token });
    expect(again.status).toBe(422);
    expect(again.json.error).toBe("invalid_link");
    expect((await browser(env.api, SIGNUP).call("POST", "/api/login-link/check", { token })).status).toBe(422);
  });

  it("is refused after fifteen minutes", async () => {
    await member("late@example.com");
    const sentAt = new Date();
    await browser(env.api, SIGNUP).call("POST", "/api/login-link", { email: "late@example.com" });
    const token = tokenIn((await lastMail(env.db, "late@example.com"))!.text);
    const later = await setupAt(new Date(sentAt.getTime() + 15 * 60 * 1000 + 1000));
    const res = await browser(later, SIGNUP).call("POST", "/api/login-link/claim", { token });
    expect(res.status).toBe(422);
  });

  it("cannot set a password: the reset page refuses a sign-in link", async () => {
    await member("nopw@example.com");
    await browser(env.api, SIGNUP).call("POST", "/api/login-link", { email: "nopw@example.com" });
    const token = tokenIn((await lastMail(env.db, "nopw@example.com"))!.text);
    const b = browser(env.api, SIGNUP);
    expect((await b.call("POST", "/api/validate-link", { token })).status).toBe(422);
    const reset = await b.call("POST", "/api/reset-password", { token, password: "a brand new passphrase", password_confirmation: "a brand new passphrase" });
    expect(reset.status).toBe(422);
    // and the link still signs in: the refused reset did not spend it.
    expect((await b.call("POST", "/api/login-link/claim", { token })).status).toBe(200);
  });

  it("does not sign in someone made staff since the link was sent", async () => {
    const user = await member("promoted@example.com");
    await browser(env.api, SIGNUP).call("POST", "/api/login-link", { email: "promoted@example.com" });
    const token = tokenIn((await lastMail(env.db, "promoted@example.com"))!.text);
    const other = await makeOrganisation(env.db, { name: "Other Link Gyms" });
    await addStaff(env.db, user.id, other.id, "personal_trainer");
    const b = browser(env.api, SIGNUP);
    expect((await b.call("POST", "/api/login-link/claim", { token })).status).toBe(422);
    expect((await b.call("GET", "/api/me")).status).toBe(401);
  });

  itRaces("used twice at once, signs in exactly one", async () => {
    await member("race@example.com");
    await browser(env.api, SIGNUP).call("POST", "/api/login-link", { email: "race@example.com" });
    const token = tokenIn((await lastMail(env.db, "race@example.com"))!.text);
    const answers = await Promise.all([1, 2, 3].map(() => browser(env.api, SIGNUP).call("POST", "/api/login-link/claim", { token })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422, 422]);
  });
});

/** The same database, with the API's clock at `at`. */
async function setupAt(at: Date) {
  return createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config, now: () => at });
}
