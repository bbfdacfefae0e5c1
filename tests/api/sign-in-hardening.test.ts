import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "../../server/api/app";
import { hashPassword } from "../../server/core/auth/password";
import * as schema from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { makeGym, makeOrganisation, makeUser } from "../../server/seed/factories";
import { browser, itRaces, lastCode, setup } from "./harness";

/**
 * Issue 17: guesses that slipped past the limits — e-mailed codes guessed across many sign-ins, and
 * parallel attempts all checked against a limit read before any of them was counted. Runs on PGlite, and on
 * PostgreSQL (real concurrency) with DATABASE_URL. The clock is ours: `clock` is what the API takes as now.
 */
const PASSWORD = "hardening test passphrase";
let clock = new Date("2026-05-04T02:00:00Z");
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;

beforeAll(async () => {
  env = await setup({ SIGNUP_LIMIT_PER_HOUR: "3" });
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config, now: () => clock });
});
afterAll(() => env.close());

const account = async (email: string) => makeUser(env.db, { name: "casey code", email, password_hash: await hashPassword(PASSWORD) });
const mailsTo = async (to: string) => (await env.db.select().from(schema.mail_outbox)).filter((m) => m.to === to);
const wrongFor = (code: string) => (code === "000000" ? "111111" : "000000");
const minutes = (n: number) => new Date(clock.getTime() + n * 60_000);

describe("wrong e-mailed codes across many sign-ins", () => {
  it("locks code entry for the hour after 10 wrong codes, mails once, and opens again after the window", async () => {
    const email = "casey@example.com";
    await account(email);
    const b = browser(api);
    const signIn = () => b.call("POST", "/api/login", { email, password: PASSWORD });
    const verify = (code: string) => b.call("POST", "/api/email/verify", { code });

    // Three sign-ins, each mailing a fresh code with its own 5 tries: 4 + 4 + 1 wrong codes are still answered.
    for (const wrongs of [4, 4, 1]) {
      expect((await signIn()).status).toBe(200);
      const code = await lastCode(env.db, email);
      for (let i = 0; i < wrongs; i++) {
        const res = await verify(wrongFor(code));
        expect(res.status).toBe(422);
        expect(res.json.errors.code[0]).toMatch(/not right/);
      }
      clock = minutes(5);
    }
    // A quarter of an hour after the first wrong code, the 10th reaches the cap.
    const code = await lastCode(env.db, email);
    const tenth = await verify(wrongFor(code));
    expect(tenth.status).toBe(429);
    expect(tenth.json).toMatchObject({
      error: "too_many_attempts",
      message: "Too many wrong codes. Signing in to this account is paused for 45 minutes; we have e-mailed you about it.",
    });
    expect(tenth.headers.get("retry-after")).toBe(String(45 * 60));

    const eleventh = await verify(wrongFor(code));
    expect(eleventh.status).toBe(429);
    const right = await verify(code);
    expect(right.status).toBe(429);
    expect((await b.call("GET", "/api/me")).json.error).toBe("not_two_factor_authenticated");

    // No new code while locked: not on sign-in, not on "send a new code".
    clock = minutes(1);
    const codesBefore = (await mailsTo(email)).filter((m) => m.subject === "Your sign-in code").length;
    const again = await signIn();
    expect(again.status).toBe(429);
    expect(again.json.message).toMatch(/^Too many wrong codes\. Signing in to this account is paused for 44 minutes/);
    expect(again.headers.get("retry-after")).toBe(String(44 * 60));
    const resend = await b.call("POST", "/api/email/resend");
    expect(resend.status).toBe(429);
    expect(resend.json.message).toMatch(/paused for 44 minutes/);
    expect((await mailsTo(email)).filter((m) => m.subject === "Your sign-in code")).toHaveLength(codesBefore);

    // One e-mail, when the lock started: what happened, until when (Auckland time), and where to reset.
    const locks = (await mailsTo(email)).filter((m) => m.subject === "Sign-in paused after too many wrong codes");
    expect(locks).toHaveLength(1);
    expect(locks[0].text).toContain("entered the wrong e-mailed code too many times");
    expect(locks[0].text).toContain("You can sign in again after 4 May 2026, 3:00 PM (New Zealand time).");
    expect(locks[0].text).toContain("If it was not you, your password is known to someone else: reset it now");
    expect(locks[0].text).toContain("http://localhost:3000/forgot-password");

    // The window (one hour from the first wrong code) ends: a sign-in mails a code, and the code works.
    clock = new Date("2026-05-04T03:00:00Z");
    expect((await signIn()).status).toBe(200);
    expect((await verify(await lastCode(env.db, email))).status).toBe(200);
    expect((await b.call("GET", "/api/me")).json.data.email).toBe(email);
    expect((await mailsTo(email)).filter((m) => m.subject === "Sign-in paused after too many wrong codes")).toHaveLength(1);
  });

  it("ends the lock when the password is reset: whoever resets holds the mailbox", async () => {
    const email = "reset-lock@example.com";
    await account(email);
    let b = browser(api);
    const lockOut = async (password: string) => {
      for (let round = 0; round < 2; round++) {
        expect((await b.call("POST", "/api/login", { email, password })).status).toBe(200);
        const code = await lastCode(env.db, email);
        for (let i = 0; i < 5; i++) await b.call("POST", "/api/email/verify", { code: wrongFor(code) });
      }
      expect((await b.call("POST", "/api/login", { email, password })).status).toBe(429);
    };
    const lockMails = async () => (await mailsTo(email)).filter((m) => m.subject === "Sign-in paused after too many wrong codes").length;
    await lockOut(PASSWORD);
    expect(await lockMails()).toBe(1);

    await b.call("POST", "/api/forgot-password", { email });
    const reset = (await mailsTo(email)).find((m) => m.subject === "Reset your password")!;
    const token = new URL(reset.text.match(/(http\S+reset-password\?token=\S+)/)![1]).searchParams.get("token")!;
    const fresh = "a brand new passphrase";
    expect((await b.call("POST", "/api/reset-password", { token, password: fresh, password_confirmation: fresh })).status).toBe(200);
    expect((await b.call("POST", "/api/login", { email, password: fresh })).status).toBe(200);
    expect((await b.call("POST", "/api/email/verify", { code: await lastCode(env.db, email) })).status).toBe(200);
    // A new lock within the same hour (in a browser not yet trusted) is a new lock, and is mailed about too.
    b = browser(api);
    await lockOut(fresh);
    expect(await lockMails()).toBe(2);
  });

  itRaces("spends each code's five tries once, however many guesses arrive at once", async () => {
    const email = "parallel-code@example.com";
    await account(email);
    const b = browser(api);
    expect((await b.call("POST", "/api/login", { email, password: PASSWORD })).status).toBe(200);
    const code = await lastCode(env.db, email);
    const answers = await Promise.all(Array.from({ length: 8 }, () => b.call("POST", "/api/email/verify", { code: wrongFor(code) })));
    // Four "not right", then the fifth spends the code; the rest are told to get a new one.
    expect(answers.filter((r) => /not right/.test(r.json.errors?.code?.[0])).length).toBe(4);
    expect(answers.every((r) => r.status === 422)).toBe(true);
    expect((await b.call("POST", "/api/email/verify", { code })).json.errors.code[0]).toMatch(/Too many wrong codes\. Send a new one/);
  });
});

describe("limits counted before the work they guard", () => {
  itRaces("checks at most 5 of 12 parallel wrong passwords for one account", async () => {
    const email = "parallel@example.com";
    await account(email);
    const b = browser(api, { ip: "198.51.100.40" });
    const answers = await Promise.all(Array.from({ length: 12 }, () => b.call("POST", "/api/login", { email, password: "a wrong password" })));
    const checked = answers.filter((r) => r.status === 422);
    const refused = answers.filter((r) => r.status === 429);
    expect(checked).toHaveLength(5);
    expect(refused).toHaveLength(7);
    for (const r of refused) {
      expect(r.json.message).toBe("Too many sign-in attempts. Try again in 15 minutes.");
      expect(r.headers.get("retry-after")).toBe("900");
    }
    // The right password is refused too until the window ends; afterwards it works and clears the count.
    expect((await b.call("POST", "/api/login", { email, password: PASSWORD })).status).toBe(429);
    clock = minutes(15);
    expect((await b.call("POST", "/api/login", { email, password: PASSWORD })).status).toBe(200);
  });

  it("does not count attempts refused for a locked account against their address", async () => {
    const email = "hammered@example.com";
    await account(email);
    await account("neighbour@example.com");
    const b = browser(api, { ip: "198.51.100.44" });
    for (let i = 0; i < 5; i++) expect((await b.call("POST", "/api/login", { email, password: "a wrong password" })).status).toBe(422);
    for (let i = 0; i < 20; i++) expect((await b.call("POST", "/api/login", { email, password: "a wrong password" })).status).toBe(429);
    // Five checked attempts from this address so far: someone else behind it can still sign in.
    expect((await b.call("POST", "/api/login", { email: "neighbour@example.com", password: PASSWORD })).status).toBe(200);
  });

  it("lets a right password not count against its address", async () => {
    const email = "regular@example.com";
    await account(email);
    const b = browser(api, { ip: "198.51.100.41" });
    for (let i = 0; i < 25; i++) expect((await b.call("POST", "/api/login", { email, password: PASSWORD })).status).toBe(200);
  });

  itRaces("sends at most 10 reset requests an hour per address, and 3 mails per account, when they arrive at once", async () => {
    const email = "forgetful@example.com";
    await account(email);
    const b = browser(api, { ip: "198.51.100.42" });
    const answers = await Promise.all(Array.from({ length: 14 }, () => b.call("POST", "/api/forgot-password", { email })));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(10);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(4);
    expect((await mailsTo(email)).filter((m) => m.subject === "Reset your password")).toHaveLength(3);
  });

  itRaces("makes at most the hour's sign-ups when they arrive at once, and gives back the refused ones", async () => {
    const b = browser(api, { host: "signup.localhost:3000", ip: "198.51.100.43" });
    const gym = await makeGym(env.db, (await makeOrganisation(env.db, { name: "Racers" })).id, "Racers Central");
    const person = (email: string) => ({ name: "Pat Parallel", email, mobile_number: "021 555 0100", password: "a fine passphrase", gym: gym.uuid });
    // A refused sign-up (a taken address) does not use up the hour's allowance.
    expect((await b.call("POST", "/api/register", person("casey@example.com"))).status).toBe(422);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => b.call("POST", "/api/register", person(`racer${i}@example.com`))));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(3);
    expect(answers.filter((r) => r.status === 429).map((r) => r.json.message)).toEqual(
      Array(3).fill("Too many sign-ups from this network. Try again in 60 minutes."),
    );
  });

  itRaces("mails one new code for two quick clicks on 'send a new code'", async () => {
    const email = "clicker@example.com";
    await account(email);
    const b = browser(api);
    expect((await b.call("POST", "/api/login", { email, password: PASSWORD })).status).toBe(200);
    expect((await b.call("POST", "/api/email/resend")).status).toBe(429); // within 30 s of the sign-in's code
    clock = new Date(clock.getTime() + 31_000);
    const before = (await mailsTo(email)).length;
    const [one, two] = await Promise.all([b.call("POST", "/api/email/resend"), b.call("POST", "/api/email/resend")]);
    expect([one.status, two.status].sort()).toEqual([200, 429]);
    expect((await mailsTo(email)).length).toBe(before + 1);
  });
});
