import { Hono, type Context, type MiddlewareHandler } from "hono";
import { z } from "zod";
import { confirmSubscriptionSchema, registerFieldsSchema, signupQuoteQuery } from "../../domain/schemas/signup";
import { deepLinkOr } from "../core/providers/links/link-provider";
import { signupQuote } from "./quote";
import { chargeAfterCommit } from "../billing/after-commit";
import { sandboxProviders, type Providers } from "../core/providers/registry";
import { activeSubscription } from "./active";
import { finishCardSetup, startCardSetup } from "./card";
import { finishMandateSetup, startMandateSetup } from "./direct-debit";
import { bankAuthUrl, exchangeBankCode, gymBankAuthUrl, syncBankAccounts } from "./bank";
import { pricesOnSale } from "./catalogue";
import { offeredMethods, signupGym } from "./methods";
import { switchPaymentType } from "./payment-types";
import { noteMethodChange } from "./method-change";
import { confirmSubscription, saveRegisterFields, type Joiner } from "./subscribe";
import { readPhoto, storePhoto, PHOTO_BODY_LIMIT } from "../members/photo";
import { pathId, readBody, readForm, readQuery } from "../core/body";
import type { ApiEnv } from "../core/context";
import { ApiError, notFound } from "../core/errors";
import { publicOrigin } from "../core/links";
import { now, requireMember, requireStaff } from "../core/middleware";
import { isStaffHere } from "../core/current-user";
import { assertCan } from "../core/permissions";
import { databaseId } from "../../domain/schemas/ids";
import { optional } from "../../domain/schemas/fields";
import { entityContext } from "../entities/context";
import { subscriptionEntities } from "../entities/subscription";
import { localDay } from "../../domain/dates";

/**
 * The member's own sign-up (issue 13; SPEC §7 Sign-up and self-service): photo, payment methods, register fields,
 * the subscription and its first payment. Every route acts on the signed-in member in their organisation
 * (requireMember), never on an id from the request.
 */
const providersOf = (c: Context<ApiEnv>): Providers => (c.var.deps.providers ?? sandboxProviders(c.var.tenant.db)).on(c.var.tenant.db);

function joiner(c: Context<ApiEnv>): Joiner {
  const u = c.var.user!;
  return { id: u.row.id, gymId: u.gym!.id, linkId: u.signup.linkId, defaultPaymentTypeId: u.defaultPaymentTypeId };
}

async function gymOf(c: Context<ApiEnv>) {
  const gym = await signupGym(c.var.tenant, c.var.user!.gym!.id);
  if (!gym) throw notFound("No such gym.");
  return gym;
}

/** A member joining, or a gym's staff (the one call SPEC §7 lists for both: GET /api/akahu/auth-url). */
const memberOrStaff: MiddlewareHandler<ApiEnv> = async (c, next) => (c.var.user && isStaffHere(c.var.user) ? requireStaff(c, next) : requireMember(c, next));
const gymQuery = z.object({ gym_id: optional(databaseId("Choose a gym from the list")) });

const cardSetupRequest = z.object({ nonce: z.string().trim().regex(/^[A-Za-z0-9_-]{8,64}$/, "Reload the page and try again") });
const mandateQuery = z.object({
  account_holder: z.string({ required_error: "Value is required" }).trim().min(1, "Value is required").max(120, "The maximum value allowed is 120"),
  account_number: z.string({ required_error: "Value is required" }).trim().min(1, "Value is required").max(24, "The maximum value allowed is 24"),
  nonce: z.string().trim().regex(/^[A-Za-z0-9_-]{8,64}$/, "Reload the page and try again"),
});
/** A provider's object id as it names them (cs_…, BR…): letters, digits and underscores; anything else names nothing of theirs. */
const providerId = (message: string) => z.string({ required_error: message }).trim().regex(/^[A-Za-z0-9_]{1,200}$/, message);
const mandateSyncRequest = z.object({ billing_request: providerId("Unknown direct debit request") });
const bankExchangeRequest = z.object({
  // Printable ASCII only: an OAuth code and our state are, and the database refuses some other bytes (NUL).
  code: z.string({ required_error: "Invalid or used code" }).trim().regex(/^[\x21-\x7e]{1,500}$/, "Invalid or used code"),
  state: z.string({ required_error: "Unknown or expired state" }).trim().regex(/^[\x21-\x7e]{1,500}$/, "Unknown or expired state"),
});
const bankSyncRequest = z.object({ account_id: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.string().trim().regex(/^[\x21-\x7e]{1,200}$/, "Choose an account payments can be made from").optional()) });
const cardSyncRequest = z.object({ session_id: providerId("Unknown card session") });

export const signupRoutes = new Hono<ApiEnv>()
  /** POST /api/profile-picture (multipart, field `file`): the member's own photo, checked as staff uploads are. */
  .post("/profile-picture", requireMember, async (c) => {
    if (!(c.req.header("content-type") ?? "").includes("multipart/form-data")) {
      throw new ApiError(415, "Send the photo as multipart/form-data, in a field named file.", "unsupported_media_type");
    }
    if (Number(c.req.header("content-length") ?? 0) > PHOTO_BODY_LIMIT) {
      throw new ApiError(413, "The photo is larger than 10 MB.", "payload_too_large", { file: ["The photo is larger than 10 MB"] });
    }
    const body = await readForm(c);
    const id = await storePhoto(c.var.tenant, c.var.user!.row.id, body.file);
    return c.json({ data: { profile_picture: id } }, 201);
  })
  /** GET /api/me/profile-picture: the member's own photo (the take-photo page's preview). */
  .get("/me/profile-picture", requireMember, async (c) => {
    const photo = await readPhoto(c.var.tenant, c.var.user!.row.id);
    if (!photo) throw notFound("You have no photo yet.");
    return new Response(new Uint8Array(photo.bytes), {
      headers: { "Content-Type": photo.content_type, "Cache-Control": "private, max-age=31536000, immutable", "X-Content-Type-Options": "nosniff" },
    });
  })
  /**
   * GET /api/me/signup: what the sign-up pages show: the gym, the ways to pay it, the member's connected methods,
   * the prices on sale to them (with their link's private price), the price they came for, their register fields.
   */
  .get("/me/signup", requireMember, async (c) => {
    const u = c.var.user!;
    const gym = await gymOf(c);
    const prices = await pricesOnSale(c.var.tenant, gym.id, u.signup.linkId);
    const r = u.row;
    return c.json({
      data: {
        gym: { id: gym.id, uuid: gym.uuid, name: gym.name, break_fee_percentage: gym.break_fee_percentage },
        methods: offeredMethods(gym, providersOf(c)),
        payment_types: u.paymentTypes.map((p) => ({ id: p.id, type: p.type, last_four: p.details.last_four == null ? null : String(p.details.last_four), brand: p.details.type == null ? null : String(p.details.type), name: p.details.name == null ? null : String(p.details.name), account_number: p.details.account_number == null ? null : String(p.details.account_number) })),
        default_payment_type_id: u.defaultPaymentTypeId,
        prices,
        chosen_price_id: prices.some((p) => p.id === u.signup.priceId) ? u.signup.priceId : null,
        /** The start day the desk quoted a walk-in (issue 32), while it is still to come; else the page starts at today. */
        chosen_start_date: u.signup.startOn && u.signup.startOn >= localDay(now(c)) ? u.signup.startOn : null,
        register_fields: {
          address: r.address,
          suburb: r.suburb,
          city: r.city,
          post_code: r.post_code,
          dob: r.dob,
          emergency_contact_name: r.emergency_contact_name,
          emergency_contact_number: r.emergency_contact_number,
          emergency_contact_relationship: r.emergency_contact_relationship,
          confidence_and_experience: r.confidence_and_experience,
          hear_about_us: r.hear_about_us,
          hear_about_us_other: r.hear_about_us_other,
        },
      },
    });
  })
  /** GET /api/me/signup/quote?price_id=&start_date=: the first payment, the regular one after it and a term's terms (server/signup/quote.ts). */
  .get("/me/signup/quote", requireMember, async (c) => c.json({ data: await signupQuote(c.var.tenant, joiner(c), await gymOf(c), readQuery(c, signupQuoteQuery), now(c)) }))
  /** GET /api/me/app-link: the member app's link (the deep-link provider's; the web page when it cannot make one). */
  .get("/me/app-link", requireMember, async (c) => {
    const gym = await gymOf(c);
    const url = await deepLinkOr(providersOf(c).links(gym), { url: `${publicOrigin(c, "signup")}/welcome-to-gym`, channel: "signup", feature: "welcome", data: { gym_id: String(gym.id) } });
    return c.json({ data: { url } });
  })
  /** PUT /api/me/register-fields: address, date of birth (minimum age unless a link bypasses it), emergency contact, the questions. */
  .put("/me/register-fields", requireMember, async (c) => {
    const fields = await readBody(c, registerFieldsSchema);
    await saveRegisterFields(c.var.tenant, joiner(c), fields, now(c));
    return c.json({ data: { saved: true } });
  })
  /** POST /api/me/payment-types/{id}/switch: another of the member's connected methods becomes the one they pay with. */
  .post("/me/payment-types/:id{[0-9]+}/switch", requireMember, async (c) => {
    const switched = await switchPaymentType(c.var.tenant, c.var.user!.row.id, pathId(c, "No such payment method."));
    await noteMethodChange(c, c.var.user!.defaultPaymentTypeId, switched);
    return c.json({ data: { default_payment_type_id: switched.id } });
  })
  /** POST /api/stripe/setup-session { nonce }: opens the card provider's hosted page; answers where to send the member. */
  .post("/stripe/setup-session", requireMember, async (c) => {
    const { nonce } = await readBody(c, cardSetupRequest);
    const gym = await gymOf(c);
    if (!offeredMethods(gym, providersOf(c)).some((m) => m.kind === "stripe_card")) throw new ApiError(409, "This gym does not take cards.", "method_unavailable");
    const u = c.var.user!;
    const session = await startCardSetup(c.var.tenant, providersOf(c), { id: u.row.id, name: u.row.name, email: u.row.email }, gym, publicOrigin(c, "signup"), nonce);
    return c.json({ data: session }, 201);
  })
  /** POST /api/stripe/sync-payment-method { session_id }: the card saved on the hosted page becomes the member's payment method. */
  .post("/stripe/sync-payment-method", requireMember, async (c) => {
    const { session_id } = await readBody(c, cardSyncRequest);
    const saved = await finishCardSetup(c.var.tenant, providersOf(c), c.var.user!.row.id, await gymOf(c), session_id);
    await noteMethodChange(c, c.var.user!.defaultPaymentTypeId, saved);
    return c.json({ data: { id: saved.id, type: saved.type, last_four: String(saved.details.last_four), brand: String(saved.details.type) } });
  })
  /**
   * GET /api/gocardless/mandate-url?account_holder=&account_number=&nonce=: the account checked (format, branch,
   * checksum: 422 on the field), then the provider's hosted mandate page opened for it; answers where to send the
   * member. Nothing of ours is written until they come back (POST /api/gocardless/sync-payment-method).
   */
  .get("/gocardless/mandate-url", requireMember, async (c) => {
    const q = readQuery(c, mandateQuery);
    const gym = await gymOf(c);
    if (!offeredMethods(gym, providersOf(c)).some((m) => m.kind === "gocardless_bank_account")) throw new ApiError(409, "This gym does not take direct debits.", "method_unavailable");
    const u = c.var.user!;
    const flow = await startMandateSetup(c.var.tenant, providersOf(c), { id: u.row.id, name: u.row.name, email: u.row.email }, gym, publicOrigin(c, "signup"), q);
    return c.json({ data: flow });
  })
  /** POST /api/gocardless/sync-payment-method { billing_request }: the mandate made on the hosted page becomes the member's payment method. */
  .post("/gocardless/sync-payment-method", requireMember, async (c) => {
    const { billing_request } = await readBody(c, mandateSyncRequest);
    const saved = await finishMandateSetup(c.var.tenant, providersOf(c), c.var.user!.row.id, await gymOf(c), billing_request);
    await noteMethodChange(c, c.var.user!.defaultPaymentTypeId, saved);
    return c.json({ data: { id: saved.id, type: saved.type, account_number: String(saved.details.account_number), name: String(saved.details.name) } });
  })
  /**
   * GET /api/akahu/auth-url: the member's bank consent page at the open-banking provider, with a signed state; for a
   * gym's admins (?gym_id=, else their current gym), the consent page of that gym's open-banking app (bank.ts).
   */
  .get("/akahu/auth-url", memberOrStaff, async (c) => {
    const u = c.var.user!;
    if (isStaffHere(u)) {
      const { gym_id } = readQuery(c, gymQuery);
      const id = gym_id ?? u.gym?.id;
      if (!id) throw notFound("No such gym.");
      assertCan(u, "gyms.write", id);
      const gym = await signupGym(c.var.tenant, id);
      if (!gym) throw notFound("No such gym.");
      if (providersOf(c).bank(gym).mode === "unconfigured") throw new ApiError(409, "This gym has no open-banking app set up: save its Akahu settings first.", "method_unavailable");
      const url = await gymBankAuthUrl(c.var.tenant, providersOf(c), { id: u.row.id, email: u.row.email }, gym, publicOrigin(c), c.var.deps.config.SESSION_SECRET, now(c));
      return c.json({ data: { url } });
    }
    const gym = await gymOf(c);
    if (!offeredMethods(gym, providersOf(c)).some((m) => m.kind === "bank_account")) throw new ApiError(409, "This gym does not take bank payments.", "method_unavailable");
    const url = await bankAuthUrl(c.var.tenant, providersOf(c), { id: u.row.id, email: u.row.email }, gym, publicOrigin(c, "signup"), c.var.deps.config.SESSION_SECRET, now(c));
    return c.json({ data: { url } });
  })
  /** POST /api/akahu/exchange { code, state }: the consent's code for the member's user token (kept on the server only). */
  .post("/akahu/exchange", requireMember, async (c) => {
    const given = await readBody(c, bankExchangeRequest);
    await exchangeBankCode(c.var.tenant, providersOf(c), c.var.user!.row.id, await gymOf(c), publicOrigin(c, "signup"), c.var.deps.config.SESSION_SECRET, given, now(c));
    return c.json({ data: { connected: true } });
  })
  /** POST /api/akahu/sync-accounts [{ account_id }]: the shared accounts; with an id, that one pays the membership. */
  .post("/akahu/sync-accounts", requireMember, async (c) => {
    const { account_id } = await readBody(c, bankSyncRequest);
    const { accounts, saved } = await syncBankAccounts(c.var.tenant, providersOf(c), c.var.user!.row.id, await gymOf(c), account_id);
    if (saved) await noteMethodChange(c, c.var.user!.defaultPaymentTypeId, saved);
    return c.json({
      data: {
        accounts: accounts.map((a) => ({ id: a.id, name: a.name, account_number: a.accountNumber, bank: a.bank, can_pay: a.canPay })),
        payment_type: saved ? { id: saved.id, type: saved.type, account_number: String(saved.details.account_number), name: String(saved.details.name) } : null,
      },
    });
  })
  /**
   * POST /api/subscriptions { price_id, start_date, terms, idempotency_key }: the membership and its first payment,
   * charged once this request is committed (a payment is written down before any provider is asked). 201 with what
   * was written; GET /api/me/active-subscription reads how the charge went. The same key answers the same one (200).
   */
  .post("/subscriptions", requireMember, async (c) => {
    const body = await readBody(c, confirmSubscriptionSchema);
    const at = now(c);
    const made = await confirmSubscription(c.var.tenant, joiner(c), body, at);
    // The welcome e-mail, with the first payment's receipt, goes once the charge went through.
    if (!made.repeated && made.payment.status === "pending") chargeAfterCommit(c, [made.payment.id], made.subscription.id, { first: true });
    // SPEC's Subscription as it stands at commit (the charge goes after it: its first payment is then still pending).
    const entity = (await subscriptionEntities(c.var.tenant, [made.subscription.id], entityContext(c))).get(made.subscription.id)!;
    return c.json({ data: { ...entity, first_payment: { ...entity.first_payment, id: made.payment.id, amount: made.payment.amount, surcharge: made.payment.surcharge, status: made.payment.status } } }, made.repeated ? 200 : 201);
  })
  /** GET /api/me/active-subscription: SPEC §3 Subscription (server/entities/subscription.ts) with the sign-up's reading of it beside; null before any. */
  .get("/me/active-subscription", requireMember, async (c) => {
    const active = await activeSubscription(c.var.tenant, c.var.user!.row.id, now(c));
    if (!active) return c.json({ data: null });
    const entity = (await subscriptionEntities(c.var.tenant, [active.id], entityContext(c))).get(active.id)!;
    return c.json({
      data: {
        ...entity,
        ...active,
        price: { ...entity.price, ...active.price },
        first_payment: active.first_payment ? { ...entity.first_payment, ...active.first_payment } : null,
      },
    });
  });
