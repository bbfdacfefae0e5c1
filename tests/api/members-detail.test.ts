import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "../../server/api/app";
import { hashPassword } from "../../server/core/auth/password";
import { access_control_credentials, offerings, organisation_users, payments, price_changes, prices, subscriptions, users, visits } from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { addMember, addStaff, makeGym, makeOrganisation, makeUser } from "../../server/seed/factories";
import { setup, signedIn } from "./harness";

const NOW = new Date("2026-04-15T01:00:00Z");
const PASSWORD = "member detail passphrase";
const at = (iso: string) => new Date(iso);

let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
const id: Record<string, number> = {};

const signIn = (email: string) => signedIn(api, env.db, email, PASSWORD);

const goodProfile = {
  name: "Mere Member",
  email: "mere.new@example.com",
  mobile_number: "021 555 0199",
  dob: "1990-04-21",
  address: "1 Queen Street",
  suburb: "CBD",
  city: "Auckland",
  post_code: "1010",
  emergency_contact_name: "Tama",
  emergency_contact_number: "021 555 0100",
  emergency_contact_relationship: "Brother",
  notes: "Knee injury: no deep squats",
  tags: "student, early-bird, student",
  email_notifications: "on",
  payment_reminders: true,
  confidence_and_experience: "been_but_stopped_going",
  hear_about_us: "other",
  hear_about_us_other: "Bus stop poster",
};

beforeAll(async () => {
  env = await setup();
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config, now: () => NOW });
  const hash = await hashPassword(PASSWORD);
  const alpha = await makeOrganisation(env.db, { name: "Alpha", multi_gym: true });
  const north = await makeGym(env.db, alpha.id, "North");
  const south = await makeGym(env.db, alpha.id, "South");
  id.north = north.id;
  id.south = south.id;
  const [offering] = await env.db.insert(offerings).values({ organisation_id: alpha.id, name: "Anytime", type: "24_7" }).returning();
  const [weekly] = await env.db.insert(prices).values({ organisation_id: alpha.id, offering_id: offering.id, amount: 2500, billing_frequency: "weekly" }).returning();
  const [dearer] = await env.db.insert(prices).values({ organisation_id: alpha.id, offering_id: offering.id, amount: 2800, billing_frequency: "weekly" }).returning();

  const mere = await makeUser(env.db, { name: "mere member", email: "mere@example.com", confidence_and_experience: "first_time", hear_about_us: "friend" });
  id.mere = mere.id;
  await addMember(env.db, mere.id, alpha.id, north.id, { tags: ["student"], notes: "Prefers mornings" });
  await env.db.insert(subscriptions).values({
    organisation_id: alpha.id,
    user_id: mere.id,
    gym_id: north.id,
    price_id: weekly.id,
    created_at: at("2026-01-05T00:00:00Z"),
    current_period_start: at("2026-04-13T00:00:00Z"),
    current_period_end: at("2026-04-20T00:00:00Z"),
    transition_to_price_id: dearer.id,
    cooling_period_ends_at: at("2026-01-19T00:00:00Z"),
    term_ends_at: at("2026-07-05T00:00:00Z"),
  });
  const [sub] = await env.db.select().from(subscriptions).where(eq(subscriptions.user_id, mere.id));
  const pay = (status: string, created_at: string) => ({ organisation_id: alpha.id, gym_id: north.id, user_id: mere.id, subscription_id: sub.id, amount: 2500, status, created_at: at(created_at) });
  await env.db.insert(payments).values([pay("sent", "2026-04-06T00:00:00Z"), pay("pending", "2026-04-13T00:00:00Z"), pay("failed", "2026-03-30T00:00:00Z")]);
  await env.db.insert(visits).values([
    { organisation_id: alpha.id, gym_id: north.id, user_id: mere.id, visited_at: at("2026-04-14T19:00:00Z") },
    { organisation_id: alpha.id, gym_id: south.id, user_id: mere.id, visited_at: at("2026-04-12T19:00:00Z"), successful: false },
  ]);
  await env.db.insert(access_control_credentials).values({ organisation_id: alpha.id, user_id: mere.id, gym_id: north.id, provider: "kisi", kind: "card", identifier_hint: "4821" });
  await env.db.insert(price_changes).values({ organisation_id: alpha.id, subscription_id: sub.id, user_id: mere.id, from_price_id: weekly.id, to_price_id: dearer.id, from_amount: 2500, to_amount: 2800 });

  // Also a member of Beta: her e-mail is not Alpha's to change.
  const shared = await makeUser(env.db, { name: "Shared Person", email: "shared@example.com" });
  id.shared = shared.id;
  await addMember(env.db, shared.id, alpha.id, north.id);
  const beta = await makeOrganisation(env.db, { name: "Beta" });
  const betaGym = await makeGym(env.db, beta.id, "Beta Gym");
  await addMember(env.db, shared.id, beta.id, betaGym.id);
  const bea = await makeUser(env.db, { name: "Bea Beta", email: "bea@example.com" });
  id.bea = bea.id;
  await addMember(env.db, bea.id, beta.id, betaGym.id);
  await makeUser(env.db, { name: "Taken", email: "taken@example.com" });

  const admin = await makeUser(env.db, { name: "alpha admin", email: "admin@example.com", password_hash: hash, current_organisation_id: alpha.id, current_gym_id: north.id });
  await addStaff(env.db, admin.id, alpha.id, "admin");
  id.admin = admin.id;
  const trainer = await makeUser(env.db, { name: "trainer", email: "trainer@example.com", password_hash: hash, current_organisation_id: alpha.id, current_gym_id: north.id });
  await addStaff(env.db, trainer.id, alpha.id, "personal_trainer", [{ gymId: north.id, role: "personal_trainer" }]);
});
afterAll(() => env.close());

describe("GET /api/members/{id}", () => {
  it("answers the profile with readable answers and the status card", async () => {
    const res = await (await signIn("admin@example.com")).call("GET", `/api/members/${id.mere}`);
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({
      id: id.mere,
      name: "mere member",
      tags: ["student"],
      notes: "Prefers mornings",
      home_gym: { id: id.north, name: "North" },
      confidence_and_experience_label: "First time at a gym",
      hear_about_us_label: "A friend",
      visits_count: 1,
      is_returning_member: false,
      latest_subscription: {
        state: "active",
        label: "Active",
        colour: "green",
        amount: 2500,
        next_billing_date: "2026-04-20T00:00:00.000Z",
        price: { amount: 2500, billing_frequency: "weekly", offering: { name: "Anytime" } },
        is_term_membership: true,
        cooling_period_ends_at: "2026-01-19T00:00:00.000Z",
        term_ends_at: "2026-07-05T00:00:00.000Z",
        // No transition_takes_effect_at: the change takes effect at the end of the period.
        scheduled_price_change: { to_price: { amount: 2800 }, takes_effect_at: "2026-04-20T00:00:00.000Z" },
      },
    });
  });

  it("answers 404 for another organisation's member, a staff account and a made-up id", async () => {
    const admin = await signIn("admin@example.com");
    for (const other of [id.bea, id.admin, 999999]) {
      const res = await admin.call("GET", `/api/members/${other}`);
      expect(res.status).toBe(404);
      expect(res.json.message).toBe("No such member.");
    }
    expect((await admin.call("GET", `/api/users/${id.bea}/payments`)).status).toBe(404);
    expect((await admin.call("PUT", `/api/members/${id.bea}`, goodProfile)).status).toBe(404);
    expect((await admin.call("DELETE", `/api/members/${id.bea}`)).status).toBe(404);
  });
});

describe("payments, visits, credentials and price changes", () => {
  it("reads each payment's status as SPEC §4 says, newest first", async () => {
    const res = await (await signIn("admin@example.com")).call("GET", `/api/users/${id.mere}/payments`);
    expect(res.json.data.data.map((p: { status: string; outcome: string }) => [p.status, p.outcome])).toEqual([
      ["pending", "not_failed"],
      ["sent", "successful"],
      ["failed", "failed"],
    ]);
    expect(res.json.data.meta).toEqual({ page: 1, per_page: 25, total: 3, pages: 1 });
  });

  it("lists visits with the gym and whether the door let them in", async () => {
    const res = await (await signIn("admin@example.com")).call("GET", `/api/users/${id.mere}/visits`);
    expect(res.json.data.data).toEqual([
      expect.objectContaining({ successful: true, gym: { id: id.north, name: "North" } }),
      expect.objectContaining({ successful: false, gym: { id: id.south, name: "South" } }),
    ]);
  });

  it("lists credentials and price changes", async () => {
    const admin = await signIn("admin@example.com");
    const creds = await admin.call("GET", `/api/members/${id.mere}/access-control-credentials`);
    expect(creds.json.data.data).toEqual([expect.objectContaining({ provider: "kisi", kind: "card", identifier_hint: "4821", status: "active" })]);
    const changes = await admin.call("GET", `/api/users/${id.mere}/price-change-history`);
    expect(changes.json.data.data).toEqual([
      expect.objectContaining({ status: "scheduled", from: expect.objectContaining({ amount: 2500 }), to: expect.objectContaining({ amount: 2800, offering: "Anytime" }) }),
    ]);
  });
});

describe("PUT /api/members/{id}", () => {
  it("refuses bad input with SPEC §5's messages and changes nothing", async () => {
    const admin = await signIn("admin@example.com");
    const res = await admin.call("PUT", `/api/members/${id.mere}`, { ...goodProfile, name: "  ", email: "not-an-address", dob: "2999-01-01", hear_about_us_other: "" });
    expect(res.status).toBe(422);
    expect(res.json.errors).toMatchObject({
      name: ["Value is required"],
      email: ["Value is not a valid email address"],
      dob: ["Enter a date of birth in the past"],
      hear_about_us_other: ["Value is required"],
    });
    const [u] = await env.db.select().from(users).where(eq(users.id, id.mere));
    expect(u.name).toBe("mere member");
  });

  it("replaces the profile: the person's fields and this organisation's notes, tags and gym", async () => {
    const admin = await signIn("admin@example.com");
    const res = await admin.call("PUT", `/api/members/${id.mere}`, { ...goodProfile, home_gym_id: String(id.south) });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({
      name: "Mere Member",
      email: "mere.new@example.com",
      dob: "1990-04-21",
      tags: ["student", "early-bird"],
      email_notifications: true,
      push_notifications: false,
      payment_reminders: true,
      hear_about_us_label: "Other: Bus stop poster",
      home_gym: { id: id.south, name: "South" },
    });
    // Left out: cleared.
    const cleared = await admin.call("PUT", `/api/members/${id.mere}`, { name: "Mere Member", email: "mere.new@example.com" });
    expect(cleared.json.data).toMatchObject({ mobile_number: null, notes: null, tags: [], hear_about_us: null, home_gym: { id: id.south } });
  });

  it("keeps another person's address and a shared sign-in out of reach", async () => {
    const admin = await signIn("admin@example.com");
    const taken = await admin.call("PUT", `/api/members/${id.mere}`, { ...goodProfile, email: "TAKEN@example.com" });
    expect(taken.status).toBe(422);
    expect(taken.json.errors.email).toEqual(["This e-mail address is already in use"]);
    const shared = await admin.call("PUT", `/api/members/${id.shared}`, { name: "Shared Person", email: "hijack@example.com" });
    expect(shared.status).toBe(422);
    expect(shared.json.errors.email[0]).toMatch(/only they can change this/);
    // Their details are theirs (decision 0048): sent back unchanged, Alpha's own side (notes) saves.
    const same = { name: "Shared Person", email: "shared@example.com", email_notifications: true, push_notifications: true, payment_reminders: true };
    expect((await admin.call("PUT", `/api/members/${id.shared}`, { ...same, notes: "ok" })).status).toBe(200);
  });

  it("needs a same-origin request", async () => {
    const { browser } = await import("./harness");
    const admin = await signIn("admin@example.com");
    const cookie = [...admin.jar].map(([k, v]) => `${k}=${v}`).join("; ");
    const res = await browser(api).call("PUT", `/api/members/${id.mere}`, goodProfile, { cookie, "x-requested-with": "", "sec-fetch-site": "cross-site" });
    expect(res.status).toBe(403);
  });
});

describe("profile photo", () => {
  const upload = async (admin: Awaited<ReturnType<typeof signIn>>, file: Blob, name: string) => {
    const form = new FormData();
    form.set("file", file, name);
    const res = await api.fetch(
      new Request(`http://localhost:3000/api/members/${id.mere}/profile-picture`, {
        method: "POST",
        headers: { "x-requested-with": "XMLHttpRequest", cookie: [...admin.jar].map(([k, v]) => `${k}=${v}`).join("; ") },
        body: form,
      }),
    );
    return { status: res.status, json: await res.json().catch(() => null), headers: res.headers };
  };

  it("takes a JPEG judged by its content, squares it to 512 px as WebP and drops its metadata", async () => {
    const sharp = (await import("sharp")).default;
    const admin = await signIn("admin@example.com");
    const jpeg = await sharp({ create: { width: 1200, height: 800, channels: 3, background: "#3366cc" } })
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: "secret camera owner" } } })
      .toBuffer();
    const res = await upload(admin, new Blob([new Uint8Array(jpeg)], { type: "application/octet-stream" }), "holiday.bin");
    expect(res.status).toBe(200);
    expect(res.json.data.profile_picture).toMatch(new RegExp(`^/api/members/${id.mere}/profile-picture\\?v=`));

    const photo = await admin.call("GET", `/api/members/${id.mere}/profile-picture`);
    expect(photo.status).toBe(200);
    expect(photo.headers.get("content-type")).toBe("image/webp");
    const raw = await api.fetch(
      new Request(`http://localhost:3000/api/members/${id.mere}/profile-picture`, { headers: { cookie: [...admin.jar].map(([k, v]) => `${k}=${v}`).join("; ") } }),
    );
    const meta = await sharp(Buffer.from(await raw.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 512, height: 512 });
    expect(meta.exif).toBeUndefined();
  });

  it("refuses a file that is not an image whatever its name, and one over 10 MB", async () => {
    const admin = await signIn("admin@example.com");
    const fake = await upload(admin, new Blob(["<?php echo 'hi'; ?>"], { type: "image/jpeg" }), "photo.jpg");
    expect(fake.status).toBe(422);
    expect(fake.json.errors.file).toEqual(["Choose a JPEG, PNG or WebP image"]);
    const gif = await upload(admin, new Blob([Buffer.from("R0lGODlhAQABAAAAACw=", "base64")], { type: "image/gif" }), "a.gif");
    expect(gif.status).toBe(422);
    const big = await upload(admin, new Blob([new Uint8Array(10 * 1024 * 1024 + 1)]), "big.jpg");
    expect(big.status).toBe(413);
    expect(big.json.message).toBe("The photo is larger than 10 MB.");
  });
});

describe("activity", () => {
  it("counts successful visits per Auckland week and spreads payments over the days they paid for", async () => {
    const admin = await signIn("admin@example.com");
    const [membership] = await env.db.select().from(organisation_users).where(eq(organisation_users.user_id, id.mere));
    const [sub] = await env.db.select().from(subscriptions).where(eq(subscriptions.user_id, id.mere));
    // Paid for Monday 13 April to Monday 20 April, Auckland time.
    await env.db.insert(payments).values({
      subscription_id: sub.id,
      organisation_id: membership.organisation_id,
      gym_id: id.north,
      user_id: id.mere,
      amount: 2800,
      status: "sent",
      period_start_at: at("2026-04-12T12:00:00Z"),
      period_end_at: at("2026-04-19T12:00:00Z"),
      created_at: at("2026-04-12T12:00:00Z"),
    });
    const visitsRes = await admin.call("GET", `/api/members/${id.mere}/weekly-visits?weeks=2`);
    expect(visitsRes.json.data.data).toEqual([
      { week_start: "2026-04-06", visits: 0 },
      { week_start: "2026-04-13", visits: 1 },
    ]);
    const cost = await admin.call("GET", `/api/members/${id.mere}/weekly-cost-per-visit?weeks=2`);
    expect(cost.json.data.data).toEqual([
      { week_start: "2026-04-06", cost: 0, visits: 0, cost_per_visit: null },
      { week_start: "2026-04-13", cost: 2800, visits: 1, cost_per_visit: 2800 },
    ]);
    const periods = await admin.call("GET", `/api/members/${id.mere}/subscription-periods`);
    expect(periods.json.data.data).toEqual([
      expect.objectContaining({ offering: "Anytime", state: "active", ended_at: null, periods: [{ from: "2026-04-12T12:00:00.000Z", to: "2026-04-19T12:00:00.000Z", amount: 2800 }] }),
    ]);
    expect((await admin.call("GET", `/api/members/${id.mere}/weekly-visits?weeks=500`)).status).toBe(422);
  });
});

describe("DELETE /api/members/{id}", () => {
  it("is for admins; it removes the member from lists and search but keeps payments and visits", async () => {
    const trainer = await signIn("trainer@example.com");
    expect((await trainer.call("DELETE", `/api/members/${id.shared}`)).status).toBe(403);

    const admin = await signIn("admin@example.com");
    const res = await admin.call("DELETE", `/api/members/${id.mere}`);
    expect(res.status).toBe(200);
    expect((await admin.call("GET", `/api/members/${id.mere}`)).status).toBe(404);
    expect((await admin.call("GET", "/api/members?gym=all")).json.data.data.map((m: { id: number }) => m.id)).not.toContain(id.mere);
    expect((await admin.call("POST", "/api/search", { query: "Mere" })).json.data.data).toEqual([]);
    const [membership] = await env.db.select().from(organisation_users).where(eq(organisation_users.user_id, id.mere));
    expect(membership.deleted_at).toEqual(NOW);
    expect(await env.db.select().from(payments).where(eq(payments.user_id, id.mere))).toHaveLength(4);
    expect(await env.db.select().from(visits).where(eq(visits.user_id, id.mere))).toHaveLength(2);
  });
});
