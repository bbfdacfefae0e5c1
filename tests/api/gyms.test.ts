import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../server/core/auth/password";
import { createApi } from "../../server/api/app";
import { destination_accounts, gyms } from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { gymCredential } from "../../server/core/providers/gym-accounts";
import { addMember, addStaff, makeGym, makeOrganisation, makeUser } from "../../server/seed/factories";
import { setup, signedIn } from "./harness";

/**
 * A gym's settings (issue 15) through the API: details, the bank account with its repeat, write-only credentials
 * sealed at rest, visit tracking; who may change which gym; another organisation's gym is 404.
 */
const PASSWORD = "gym settings passphrase";
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let gymAdmin: Awaited<ReturnType<typeof signedIn>>;
let trainer: Awaited<ReturnType<typeof signedIn>>;
let north: { id: number };
let south: { id: number };
let theirs: { id: number };

beforeAll(async () => {
  env = await setup();
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config });
  const org = await makeOrganisation(env.db, { name: "Gym Settings Ltd", multi_gym: true });
  north = await makeGym(env.db, org.id, "North");
  south = await makeGym(env.db, org.id, "South");
  await env.db.insert(destination_accounts).values({ organisation_id: org.id, gym_id: north.id, name: "North trading", bank_account_number: "12-3140-0171323-50" });
  theirs = await makeGym(env.db, (await makeOrganisation(env.db, { name: "Elsewhere" })).id, "Theirs");
  const hash = await hashPassword(PASSWORD);
  const staff = async (email: string, role: "admin" | "personal_trainer", gymRoles: { gymId: number; role: "admin" | "personal_trainer" }[] = []) => {
    const u = await makeUser(env.db, { name: email.split("@")[0], email, password_hash: hash });
    await addStaff(env.db, u.id, org.id, role, gymRoles);
    return signedIn(api, env.db, email, PASSWORD);
  };
  admin = await staff("gyms.admin@example.com", "admin");
  gymAdmin = await staff("gyms.gymadmin@example.com", "personal_trainer", [{ gymId: north.id, role: "admin" }]);
  trainer = await staff("gyms.trainer@example.com", "personal_trainer", [{ gymId: north.id, role: "personal_trainer" }]);
  for (const n of [1, 2]) {
    const m = await makeUser(env.db, { name: `member ${n}`, email: `gyms.member${n}@example.com` });
    await addMember(env.db, m.id, org.id, north.id);
  }
});
afterAll(() => env?.close?.());

describe("the gyms list and a gym", () => {
  it("lists every gym for an organisation admin, with staff, members and providers", async () => {
    const list = (await admin.call("GET", "/api/gyms")).json.data.data;
    expect(list.map((g: { name: string }) => g.name)).toEqual(["North", "South"]);
    expect(list[0]).toMatchObject({ staff_count: 2, members_count: 2, providers: { stripe: false, gocardless: false, akahu: false } });
  });

  it("lists only their own gyms for a gym admin, and refuses a trainer", async () => {
    expect((await gymAdmin.call("GET", "/api/gyms")).json.data.data.map((g: { name: string }) => g.name)).toEqual(["North"]);
    expect((await gymAdmin.call("GET", `/api/gyms/${south.id}`)).status).toBe(403);
    expect((await trainer.call("GET", "/api/gyms")).status).toBe(403);
  });

  it("shows the bank account masked, and another organisation's gym is 404", async () => {
    const g = (await admin.call("GET", `/api/gyms/${north.id}`)).json.data;
    expect(g.destination_account).toMatchObject({ name: "North trading", bank_account_number: "12-••••-•••1323-50" });
    expect(JSON.stringify(g)).not.toContain("0171323");
    expect((await admin.call("GET", `/api/gyms/${theirs.id}`)).status).toBe(404);
    expect((await admin.call("PUT", `/api/gyms/${theirs.id}`, { name: "Mine" })).status).toBe(404);
  });
});

describe("a gym's details", () => {
  it("requires a name and checks the reply-to, break fee and surcharge", async () => {
    const res = await admin.call("PUT", `/api/gyms/${north.id}`, { name: "", price_change_notification_reply_to: "not-an-address", break_fee_percentage: 120, card_surcharge_percent: "1.234" });
    expect(res.status).toBe(422);
    expect(res.json.errors).toEqual({
      name: ["Value is required"],
      price_change_notification_reply_to: ["Value is not a valid email address"],
      break_fee_percentage: ["The maximum value allowed is 100"],
      card_surcharge_percent: ["Use at most two decimals"],
    });
  });

  it("saves them, the surcharge as basis points and cents", async () => {
    const res = await admin.call("PUT", `/api/gyms/${north.id}`, { name: "North Shore", price_change_notification_reply_to: "hello@north.example.com", break_fee_percentage: "25", card_surcharge_percent: "1.5", card_surcharge_fixed: 30, general_card_surcharge_text: "Cards carry 1.5% + 30c" });
    expect(res.json.data).toMatchObject({ name: "North Shore", break_fee_percentage: 25, card_surcharge_basis_points: 150, card_surcharge_fixed: 30 });
    expect((await admin.call("PUT", `/api/gyms/${north.id}/tracks-visits`, { tracks_visits: true })).json.data.tracks_visits).toBe(true);
  });
});

describe("the bank account (SPEC §5)", () => {
  const path = async () => `/api/gyms/${north.id}/destination-accounts/${(await admin.call("GET", `/api/gyms/${north.id}`)).json.data.destination_account.id}`;

  it("needs the repeat when the number changes, equal to it", async () => {
    const p = await path();
    expect((await admin.call("PUT", p, { name: "North", bank_account_number: "12-3140-0071234-00" })).json.errors).toEqual({ bank_account_number_confirmation: ["Value is required"] });
    expect((await admin.call("PUT", p, { name: "North", bank_account_number: "12-3140-0071234-00", bank_account_number_confirmation: "12-3140-0071234-01" })).json.errors).toEqual({
      bank_account_number_confirmation: ["The value must be equal to the other value"],
    });
    expect((await admin.call("PUT", p, { name: "", bank_account_number: "12-3140-0171324-50", bank_account_number_confirmation: "12-3140-0171324-50" })).json.errors).toEqual({
      name: ["Value is required"],
      bank_account_number: ["This is not a valid New Zealand bank account number. Check it against your bank statement"],
    });
  });

  it("changes the number with its repeat, and the name alone keeps it", async () => {
    const p = await path();
    const changed = await admin.call("PUT", p, { name: "North", bank_account_number: "12 3140 0071234 00", bank_account_number_confirmation: "12-3140-0071234-00" });
    expect(changed.json.data.destination_account.bank_account_number).toBe("12-••••-•••1234-00");
    const renamed = await admin.call("PUT", p, { name: "North Shore trading" });
    expect(renamed.json.data.destination_account).toMatchObject({ name: "North Shore trading", bank_account_number: "12-••••-•••1234-00" });
    const [row] = await env.db.select().from(destination_accounts).where(eq(destination_accounts.gym_id, north.id));
    expect(row.bank_account_number).toBe("12-3140-0071234-00");
  });

  it("gives a gym without one its first, which needs a number", async () => {
    expect((await admin.call("PUT", `/api/gyms/${south.id}/destination-accounts/0`, { name: "South" })).json.errors.bank_account_number).toEqual(["Value is required"]);
    const made = await admin.call("PUT", `/api/gyms/${south.id}/destination-accounts/0`, { name: "South", bank_account_number: "12-3140-0089995-00", bank_account_number_confirmation: "12-3140-0089995-00" });
    expect(made.json.data.destination_account.name).toBe("South");
  });
});

describe("stored credentials", () => {
  it("are write-only and sealed at rest: the column never holds the secret", async () => {
    const res = await admin.call("PUT", `/api/gyms/${north.id}/akahu-config`, { app_token: "app_token_north", secret: "north-akahu-secret-value" });
    expect(res.json.data.credentials.akahu).toEqual({ app_token: true, secret: true });
    expect(res.json.data.providers.akahu).toBe(true);
    expect(JSON.stringify(res.json)).not.toContain("north-akahu-secret-value");
    const [row] = await env.db.select().from(gyms).where(eq(gyms.id, north.id));
    expect(JSON.stringify(row.integrations)).not.toContain("north-akahu-secret-value");
    expect(JSON.stringify(row.integrations)).not.toContain("app_token_north");
    expect(gymCredential(row, "akahu", "secret")).toBe("north-akahu-secret-value");
  });

  it("keeps what is stored when a field is left empty, and clears on request", async () => {
    const kept = await admin.call("PUT", `/api/gyms/${north.id}/akahu-config`, { app_token: "", secret: "a-new-secret-value" });
    expect(kept.json.data.credentials.akahu).toEqual({ app_token: true, secret: true });
    const [row] = await env.db.select().from(gyms).where(eq(gyms.id, north.id));
    expect(gymCredential(row, "akahu", "app_token")).toBe("app_token_north");
    expect(gymCredential(row, "akahu", "secret")).toBe("a-new-secret-value");
    const cleared = await admin.call("PUT", `/api/gyms/${north.id}/akahu-config`, { clear: true });
    expect(cleared.json.data.credentials.akahu).toEqual({ app_token: false, secret: false });
  });

  it("takes the push and deep-link services too", async () => {
    expect((await admin.call("PUT", `/api/gyms/${north.id}/onesignal-config`, { app_id: "0b6c1a0e-1111-4a4a-9999-123456789abc", api_auth_key: "onesignal-key-value" })).json.data.credentials.onesignal).toEqual({ app_id: true, api_auth_key: true });
    expect((await admin.call("PUT", `/api/gyms/${north.id}/branch-config`, { key: "key_live_abc" })).json.data.credentials.branch).toEqual({ app_id: false, key: true, secret: false });
    expect((await gymAdmin.call("PUT", `/api/gyms/${south.id}/branch-config`, { key: "key_live_abc" })).status).toBe(403);
  });

  it("does not open under another key, nor when altered", async () => {
    const { sealSecret, openSecret } = await import("../../server/core/crypto/secrets");
    const sealed = sealSecret("hello", "k".repeat(40));
    expect(openSecret(sealed, "k".repeat(40))).toBe("hello");
    expect(openSecret(sealed, "j".repeat(40))).toBeNull();
    const parts = sealed.split(":");
    parts[3] = Buffer.from("jello").toString("base64url");
    expect(openSecret(parts.join(":"), "k".repeat(40))).toBeNull();
    expect(openSecret("plain text", "k".repeat(40))).toBeNull();
  });
});

describe("the logo", () => {
  const upload = async (as: typeof admin, gymId: number, file: Blob | null, collection = "logo") => {
    const form = new FormData();
    form.set("collection", collection);
    if (file) form.set("file", file, "logo.png");
    return as.call("POST", `/api/gyms/${gymId}/logo`, form);
  };
  const png = async (width: number, height: number) => new Blob([new Uint8Array(await sharp({ create: { width, height, channels: 4, background: { r: 200, g: 0, b: 0, alpha: 0.5 } } }).png().toBuffer())], { type: "image/png" });

  it("is judged by its content, fitted within 512 px, and served publicly at a versioned address", async () => {
    const res = await upload(admin, north.id, await png(1600, 400));
    expect(res.status).toBe(201);
    expect(res.json.data.logo).toMatch(new RegExp(`^/api/public/gyms/${res.json.data.uuid}/logo\\?v=[0-9a-f]{8}$`));
    const served = await api.fetch(new Request(`http://localhost:3000${res.json.data.logo}`));
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/webp");
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect([meta.width, meta.height, meta.hasAlpha]).toEqual([512, 128, true]);
    // The public gym (the sign-up pages) shows it; a new one changes the address.
    const pub = await api.fetch(new Request(`http://localhost:3000/api/public/gyms/${res.json.data.uuid}`));
    expect((await pub.json()).data.logo).toBe(res.json.data.logo);
    const again = await upload(admin, north.id, await png(100, 100));
    expect(again.json.data.logo).not.toBe(res.json.data.logo);
  });

  it("refuses what is not an image, a missing file or collection, and another gym's admin", async () => {
    expect((await upload(admin, north.id, new Blob(["not an image"], { type: "image/png" }))).json.errors.file).toEqual(["Choose a JPEG, PNG or WebP image"]);
    expect((await upload(admin, north.id, null)).json.errors.file).toEqual(["Choose a logo to upload"]);
    expect((await upload(admin, north.id, await png(10, 10), "avatar")).json.errors.collection).toEqual(["Send collection=logo with the file"]);
    expect((await upload(gymAdmin, south.id, await png(10, 10))).status).toBe(403);
    expect((await upload(admin, theirs.id, await png(10, 10))).status).toBe(404);
    const [south_] = await env.db.select().from(gyms).where(eq(gyms.id, south.id));
    expect((await api.fetch(new Request(`http://localhost:3000/api/public/gyms/${south_.uuid}/logo`))).status).toBe(404);
  });
});

describe("connecting the gym's own payment accounts (the sandbox's pages)", () => {
  /** The round trip as a browser makes it: our redirect, the provider's page approved, its return to our callback. */
  const approve = async (service: "stripe" | "gocardless", gymId = south.id, as = admin) => {
    const started = await as.call("POST", `/api/gyms/${gymId}/${service}/redirect`);
    expect(started.status).toBe(200);
    const page = started.json.data.url as string;
    expect(page).toMatch(new RegExp(`^/sandbox/${service}/connect/[A-Za-z0-9_]+$`));
    const shown = await as.call("GET", `/api${page}`);
    expect(shown.json.data).toMatchObject({ status: "open", gym: gymId === south.id ? "South" : expect.any(String) });
    const back = new URL((await as.call("POST", `/api${page}`)).json.data.redirect);
    expect(back.pathname).toBe(`/${service}/callback`);
    return { code: back.searchParams.get("code")!, state: back.searchParams.get("state")!, page };
  };

  it("connects Stripe: the code becomes the gym's account, once", async () => {
    const { code, state } = await approve("stripe");
    const done = await admin.call("POST", "/api/stripe/exchange", { code, state });
    expect(done.status).toBe(200);
    expect(done.json.data.stripe_id).toMatch(/^acct_sandbox[0-9a-f]{12}$/);
    expect(done.json.data.providers.stripe).toBe(true);
    const again = await admin.call("POST", "/api/stripe/exchange", { code, state });
    expect(again.status).toBe(422);
  });

  it("spends a state with its first code: a second code with the same state connects nothing (issue 29)", async () => {
    const first = await approve("stripe", north.id);
    // Another round trip's code, which the provider would take, sent with the first round trip's state.
    const second = await approve("stripe", north.id);
    expect((await admin.call("POST", "/api/stripe/exchange", { code: first.code, state: first.state })).status).toBe(200);
    const reused = await admin.call("POST", "/api/stripe/exchange", { code: second.code, state: first.state });
    expect([reused.status, reused.json.error]).toEqual([422, "invalid_state"]);
    // The refused attempt spent nothing: the second code with its own state connects.
    expect((await admin.call("POST", "/api/stripe/exchange", { code: second.code, state: second.state })).status).toBe(200);
  });

  it("connects GoCardless: the organisation id kept, and no token for a sandbox account", async () => {
    const { code, state } = await approve("gocardless");
    const done = await admin.call("POST", "/api/gocardless/exchange", { code, state });
    expect(done.json.data.gocardless_organisation_id).toMatch(/^OR_sandbox[0-9A-F]{10}$/);
    const [row] = await env.db.select().from(gyms).where(eq(gyms.id, south.id));
    expect(row.integrations.gocardless).toBeUndefined();
  });

  it("refuses a state that is altered, for the other service, or another admin's", async () => {
    const { code, state } = await approve("stripe", north.id);
    const bad = (res: { status: number; json: { error?: string } }) => [res.status, res.json.error];
    expect(bad(await admin.call("POST", "/api/stripe/exchange", { code, state: state.replace(/.$/, (ch) => (ch === "A" ? "B" : "A")) }))).toEqual([422, "invalid_state"]);
    expect(bad(await admin.call("POST", "/api/gocardless/exchange", { code, state }))).toEqual([422, "invalid_state"]);
    expect(bad(await gymAdmin.call("POST", "/api/stripe/exchange", { code, state }))).toEqual([422, "invalid_state"]);
    expect((await admin.call("POST", "/api/stripe/exchange", { code: "", state })).json.errors.code).toEqual(["The provider sent no code"]);
  });

  it("sends the admin back with access_denied when they cancel on the provider's page", async () => {
    const started = await admin.call("POST", `/api/gyms/${north.id}/gocardless/redirect`);
    const back = new URL((await admin.call("POST", `/api${started.json.data.url}/cancel`)).json.data.redirect);
    expect(back.pathname).toBe("/gocardless/callback");
    expect(back.searchParams.get("error")).toBe("access_denied");
  });

  it("is for the gym's admins: another gym's admin and a trainer are refused", async () => {
    expect((await gymAdmin.call("POST", `/api/gyms/${south.id}/stripe/redirect`)).status).toBe(403);
    expect((await trainer.call("POST", `/api/gyms/${north.id}/stripe/redirect`)).status).toBe(403);
    expect((await admin.call("POST", `/api/gyms/${theirs.id}/stripe/redirect`)).status).toBe(404);
  });
});
