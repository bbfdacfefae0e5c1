import { signupUrl, type Config } from "../config";
import type { Db } from "../db/client";
import { akahuBank } from "./bank/akahu-live";
import type { BankProvider } from "./bank/bank-provider";
import { sandboxBank } from "./bank/sandbox";
import type { CardProvider } from "./cards/card-provider";
import { sandboxCards } from "./cards/sandbox";
import { stripeCards } from "./cards/stripe-live";
import { systemClock, type SandboxClock } from "./clock";
import type { DirectDebitProvider } from "./direct-debit/direct-debit-provider";
import { gocardlessDirectDebits } from "./direct-debit/gocardless-live";
import { sandboxDirectDebits } from "./direct-debit/sandbox";
import type { DoorProvider } from "./doors/door-provider";
import { kisiDoors } from "./doors/kisi-live";
import { sandboxDoors } from "./doors/sandbox";
import type { ConnectProvider, ConnectService } from "./connect/connect-provider";
import { gocardlessConnect, stripeConnect } from "./connect/live";
import { sandboxConnect } from "./connect/sandbox";
import { ProviderError } from "./errors";
import { gymCredential, type GymAccounts } from "./gym-accounts";
import { branchLinks } from "./links/branch-live";
import type { LinkProvider } from "./links/link-provider";
import { sandboxLinks } from "./links/sandbox";
import { oneSignalPush } from "./push/onesignal-live";
import type { PushProvider } from "./push/push-provider";
import { sandboxPush } from "./push/sandbox";

/**
 * Which adapter each outside service runs on (issue 11), in one place:
 * 1. a gym's own stored credentials (its GoCardless access token, Akahu app, OneSignal app, Branch key), else
 * 2. the deployment's, from the environment (STRIPE_SECRET_KEY, GOCARDLESS_ACCESS_TOKEN, AKAHU_APP_TOKEN…), else
 * 3. the offline sandbox, outside production or in a demo, else
 * 4. none: a production server with no credentials for a service refuses its calls as a retryable ProviderError,
 *    so a payment waits pending, visibly, instead of being "paid" by a sandbox that moves no money.
 * Cards are one Stripe platform account for every gym; each charge names the gym's Connect account (stripe_id).
 */
export interface Providers {
  /** The sandboxes' time: the real one on a server; simulated when the billing run is run over days to come. */
  clock: SandboxClock;
  cards: CardProvider;
  directDebit(gym: GymAccounts): DirectDebitProvider;
  /** The gym's Akahu app; null when the call names no gym (a webhook before it is read): the deployment's. */
  bank(gym: GymAccounts | null): BankProvider;
  push(gym: GymAccounts): PushProvider;
  doors: DoorProvider;
  links(gym: GymAccounts | null): LinkProvider;
  /** Connecting a gym's own Stripe or GoCardless account (the OAuth round trip from its settings page). */
  connect(service: ConnectService): ConnectProvider;
  /**
   * The same choice of adapters with the sandboxes' books on another handle: a request's own (PGlite has one
   * connection, which the request's transaction holds).
   */
  on(db: Db): Providers;
}

export interface ProviderSettings {
  /** Whether a service without credentials may run on its sandbox (not in production, unless a demo). */
  sandboxAllowed: boolean;
  stripeSecretKey?: string;
  stripeConnectClientId?: string;
  gocardlessClient?: { clientId?: string; clientSecret?: string };
  gocardless?: { accessToken?: string; environment: "live" | "sandbox" };
  akahu?: { appToken?: string; appSecret?: string };
  onesignal?: { appId?: string; apiKey?: string };
  kisiApiKey?: string;
  branchKey?: string;
  /** The sandbox Akahu's signing key when set in the environment (else the installation's own: server/core/webhooks/secrets.ts). */
  akahuSandboxKey?: string;
  /** Where the sandbox's short links live: the sign-up app's address. */
  linkBase: string;
}

export function providerSettings(config: Config, linkBase: string): ProviderSettings {
  return {
    sandboxAllowed: config.NODE_ENV !== "production" || config.DEMO_MODE,
    stripeSecretKey: config.STRIPE_SECRET_KEY,
    gocardless: { accessToken: config.GOCARDLESS_ACCESS_TOKEN, environment: config.GOCARDLESS_ENVIRONMENT },
    stripeConnectClientId: config.STRIPE_CONNECT_CLIENT_ID,
    gocardlessClient: { clientId: config.GOCARDLESS_CLIENT_ID, clientSecret: config.GOCARDLESS_CLIENT_SECRET },
    akahu: { appToken: config.AKAHU_APP_TOKEN, appSecret: config.AKAHU_APP_SECRET },
    onesignal: { appId: config.ONESIGNAL_APP_ID, apiKey: config.ONESIGNAL_API_KEY },
    kisiApiKey: config.KISI_API_KEY,
    branchKey: config.BRANCH_KEY,
    akahuSandboxKey: config.AKAHU_SANDBOX_SIGNING_KEY,
    linkBase,
  };
}

/**
 * The providers the environment configures, as the server runs them (server/runtime.ts): live adapters where their
 * keys are set, sandboxes otherwise outside production. Scripts that talk to providers (npm run reconcile) use this
 * too, so they see the same books the server writes to. `clock`: the sandboxes' time.
 */
export function configuredProviders(db: Db, config: Config, clock: SandboxClock = systemClock): Providers {
  return createProviders(db, providerSettings(config, signupUrl(config)), clock);
}

/** Every service on its sandbox: the demo's and the tests' providers. */
export function sandboxProviders(db: Db, clock: SandboxClock = systemClock, linkBase = "http://signup.localhost:3000/"): Providers {
  return createProviders(db, { sandboxAllowed: true, linkBase }, clock);
}

export function createProviders(db: Db, settings: ProviderSettings, clock: SandboxClock = systemClock): Providers {
  const missing = (service: string, setting: string) =>
    new ProviderError(`${service} is not configured: set ${setting} (this production server runs no sandbox).`, true);
  // Live clients are made once per credential, not per call.
  const made = new Map<string, unknown>();
  const once = <T>(key: string, make: () => T): T => {
    if (!made.has(key)) made.set(key, make());
    return made.get(key) as T;
  };
  const sandbox = {
    cards: sandboxCards(db, clock),
    bank: sandboxBank(db, clock, settings.akahuSandboxKey),
    doors: sandboxDoors(db),
    links: sandboxLinks(db, settings.linkBase),
  };

  const cards: CardProvider = settings.stripeSecretKey
    ? stripeCards({ secretKey: settings.stripeSecretKey })
    : settings.sandboxAllowed
      ? sandbox.cards
      : {
          name: "stripe",
          mode: "unconfigured",
          charge: async () => Promise.reject(missing("Stripe", "STRIPE_SECRET_KEY")),
          retrieve: async () => Promise.reject(missing("Stripe", "STRIPE_SECRET_KEY")),
          startSetup: async () => Promise.reject(missing("Stripe", "STRIPE_SECRET_KEY")),
          readSetup: async () => Promise.reject(missing("Stripe", "STRIPE_SECRET_KEY")),
          refund: async () => Promise.reject(missing("Stripe", "STRIPE_SECRET_KEY")),
          retrieveRefund: async () => Promise.reject(missing("Stripe", "STRIPE_SECRET_KEY")),
          listRefunds: async () => Promise.reject(missing("Stripe", "STRIPE_SECRET_KEY")),
          listRefundsBetween: async () => Promise.reject(missing("Stripe", "STRIPE_SECRET_KEY")),
          listCharges: async () => Promise.reject(missing("Stripe", "STRIPE_SECRET_KEY")),
          retrieveDispute: async () => Promise.reject(missing("Stripe", "STRIPE_SECRET_KEY")),
          listDisputesBetween: async () => Promise.reject(missing("Stripe", "STRIPE_SECRET_KEY")),
        };

  const doors: DoorProvider = settings.kisiApiKey
    ? kisiDoors({ apiKey: settings.kisiApiKey })
    : settings.sandboxAllowed
      ? sandbox.doors
      : {
          name: "kisi",
          mode: "unconfigured",
          setAccess: async () => Promise.reject(missing("Kisi", "KISI_API_KEY")),
          accessOf: async () => Promise.reject(missing("Kisi", "KISI_API_KEY")),
          places: async () => Promise.reject(missing("Kisi", "KISI_API_KEY")),
          locks: async () => Promise.reject(missing("Kisi", "KISI_API_KEY")),
        };

  return {
    clock,
    cards,
    doors,
    on: (other) => createProviders(other, settings, clock),
    directDebit(gym) {
      const token = gymCredential(gym, "gocardless", "access_token") ?? settings.gocardless?.accessToken;
      const environment = (gymCredential(gym, "gocardless", "environment") as "live" | "sandbox" | null) ?? settings.gocardless?.environment ?? "live";
      if (token) return once(`gocardless:${environment}:${token}`, () => gocardlessDirectDebits({ accessToken: token, environment }));
      // One sandbox per creditor, made once: the billing run asks for it for every direct debit it sends.
      if (settings.sandboxAllowed) return once(`gocardless-sandbox:${gym.gocardless_organisation_id ?? ""}`, () => sandboxDirectDebits(db, clock, gym.gocardless_organisation_id));
      const refuse = async () => Promise.reject(missing("GoCardless", "the gym's GoCardless connection or GOCARDLESS_ACCESS_TOKEN"));
      return { name: "gocardless", mode: "unconfigured", collect: refuse, retrieve: refuse, startMandate: refuse, readMandate: refuse, refund: refuse, retrieveRefund: refuse, listRefunds: refuse, listRefundsBetween: refuse, listPayments: refuse, listTakenBack: refuse };
    },
    bank(gym) {
      const appToken = (gym && gymCredential(gym, "akahu", "app_token")) ?? settings.akahu?.appToken;
      const appSecret = (gym && gymCredential(gym, "akahu", "secret")) ?? settings.akahu?.appSecret;
      if (appToken && appSecret) return once(`akahu:${appToken}`, () => akahuBank({ appToken, appSecret }));
      if (settings.sandboxAllowed) return sandbox.bank;
      const refuse = async () => Promise.reject(missing("Akahu", "the gym's Akahu app or AKAHU_APP_TOKEN and AKAHU_APP_SECRET"));
      return { name: "akahu", mode: "unconfigured", pay: refuse, retrieve: refuse, verifyWebhook: refuse, authorisationUrl: refuse, exchange: refuse, accounts: refuse };
    },
    push(gym) {
      const appId = gymCredential(gym, "onesignal", "app_id") ?? settings.onesignal?.appId;
      const apiKey = gymCredential(gym, "onesignal", "api_auth_key") ?? settings.onesignal?.apiKey;
      if (appId && apiKey) return once(`onesignal:${appId}`, () => oneSignalPush({ appId, apiKey }));
      if (settings.sandboxAllowed) return sandboxPush(db, appId ?? "sandbox");
      return { name: "onesignal", mode: "unconfigured", send: async () => Promise.reject(missing("OneSignal", "the gym's OneSignal app or ONESIGNAL_APP_ID")) };
    },
    connect(service) {
      if (service === "stripe" && settings.stripeSecretKey && settings.stripeConnectClientId) {
        return once(`connect:stripe`, () => stripeConnect({ secretKey: settings.stripeSecretKey!, clientId: settings.stripeConnectClientId! }));
      }
      const client = settings.gocardlessClient;
      if (service === "gocardless" && client?.clientId && client.clientSecret) {
        return once(`connect:gocardless`, () => gocardlessConnect({ clientId: client.clientId!, clientSecret: client.clientSecret!, environment: settings.gocardless?.environment ?? "live" }));
      }
      if (settings.sandboxAllowed) return sandboxConnect(db, service);
      const refuse = async () => Promise.reject(missing(service === "stripe" ? "Stripe Connect" : "GoCardless", service === "stripe" ? "STRIPE_CONNECT_CLIENT_ID" : "GOCARDLESS_CLIENT_ID and GOCARDLESS_CLIENT_SECRET"));
      return { service, mode: "unconfigured", authorizeUrl: refuse, exchange: refuse };
    },
    links(gym) {
      const key = (gym && gymCredential(gym, "branch", "key")) ?? settings.branchKey;
      if (key) return once(`branch:${key}`, () => branchLinks({ key }));
      if (settings.sandboxAllowed) return sandbox.links;
      return { name: "branch", mode: "unconfigured", create: async () => Promise.reject(missing("Branch", "the gym's Branch key or BRANCH_KEY")) };
    },
  };
}
