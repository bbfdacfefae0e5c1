import { Hono, type Context } from "hono";
import { z } from "zod";
import { cancelSandboxCard, submitSandboxCard } from "../core/providers/cards/sandbox";
import { cancelSandboxMandate, confirmSandboxMandate } from "../core/providers/direct-debit/sandbox";
import { allowSandboxConsent, denySandboxConsent, SANDBOX_BANK_ACCOUNTS } from "../core/providers/bank/sandbox";
import type { ConnectService } from "../core/providers/connect/connect-provider";
import { sandboxAccountId } from "../core/providers/connect/sandbox";
import { sandboxProviders } from "../core/providers/registry";
import { returnUrl, sandboxSessions } from "../core/providers/sandbox-sessions";
import { readBody } from "../core/body";
import type { ApiEnv } from "../core/context";
import { invalid, notFound } from "../core/errors";

/**
 * What the sandbox providers' hosted pages need (issue 13): the stand-ins for Stripe Checkout's card page, read and
 * submitted by app/routes/sandbox.*. They exist only where the sandbox does (outside production, or in a demo): a
 * live deployment answers 404, as it has no such pages. No session: the provider's page knows the person only by
 * the session id in its address, which is unguessable.
 */
function sandboxOnly(c: Context<ApiEnv>, service: "cards" | "directDebit" | "bank" = "cards") {
  const providers = c.var.deps.providers ?? sandboxProviders(c.var.deps.db);
  // Direct debit and bank may be live for one gym and the sandbox for another: their pages exist while the sandbox can serve.
  const noGym = { id: 0, stripe_id: null, gocardless_organisation_id: null, integrations: null };
  const mode = service === "cards" ? providers.cards.mode : service === "directDebit" ? providers.directDebit(noGym).mode : providers.bank(noGym).mode;
  if (mode !== "sandbox") throw notFound("No such page.");
}

const cardEntry = z.object({
  number: z.string().default(""),
  expiry: z.string().default(""),
  cvc: z.string().default(""),
  name: z.string().default(""),
});

/** The sandbox's account-connection page (issue 15) exists while that service's connection runs on the sandbox. */
async function connectSession(c: Context<ApiEnv>) {
  const service = c.req.param("service") as ConnectService;
  const providers = c.var.deps.providers ?? sandboxProviders(c.var.deps.db);
  if (providers.connect(service).mode !== "sandbox") throw notFound("No such page.");
  const sessions = sandboxSessions(c.var.deps.db, service, "");
  const session = await sessions.read(c.req.param("id")!);
  if (!session || session.request.kind !== "connect") throw notFound("No such connection.");
  return { service, sessions, session };
}

export const sandboxPageRoutes = new Hono<ApiEnv>()
  .get("/sandbox/:service{stripe|gocardless}/connect/:id{[A-Za-z0-9_]+}", async (c) => {
    const { session } = await connectSession(c);
    return c.json({ data: { id: session.id, status: session.status, gym: session.request.gym ?? null, email: session.request.email ?? null, return_url: session.status === "open" ? null : returnUrl(session) } });
  })
  /** The admin approves: the sandbox makes the gym's account and sends them back with a code. */
  .post("/sandbox/:service{stripe|gocardless}/connect/:id{[A-Za-z0-9_]+}", async (c) => {
    const { service, sessions, session } = await connectSession(c);
    if (session.status === "open") await sessions.finish(session.id, "complete", { account_id: sandboxAccountId(service) });
    return c.json({ data: { redirect: returnUrl((await sessions.read(session.id))!) } });
  })
  .post("/sandbox/:service{stripe|gocardless}/connect/:id{[A-Za-z0-9_]+}/cancel", async (c) => {
    const { sessions, session } = await connectSession(c);
    if (session.status === "open") await sessions.finish(session.id, "cancelled", null);
    return c.json({ data: { redirect: returnUrl((await sessions.read(session.id))!) } });
  })
  .get("/sandbox/stripe/checkout/:id{[A-Za-z0-9_]+}", async (c) => {
    sandboxOnly(c);
    const session = await sandboxSessions(c.var.deps.db, "stripe", "cs").read(c.req.param("id"));
    if (!session) throw notFound("No such checkout session.");
    return c.json({ data: { id: session.id, status: session.status, email: session.request.email ?? null, cancel_url: session.cancel_url, return_url: session.status === "open" ? null : returnUrl(session) } });
  })
  .post("/sandbox/stripe/checkout/:id{[A-Za-z0-9_]+}", async (c) => {
    sandboxOnly(c);
    const id = c.req.param("id");
    const entry = await readBody(c, cardEntry);
    const answer = await submitSandboxCard(c.var.deps.db, id, entry);
    if ("errors" in answer) throw invalid(Object.fromEntries(Object.entries(answer.errors).map(([k, v]) => [k, [v]])));
    const session = await sandboxSessions(c.var.deps.db, "stripe", "cs").read(id);
    return c.json({ data: { redirect: returnUrl(session!) } });
  })
  .post("/sandbox/stripe/checkout/:id{[A-Za-z0-9_]+}/cancel", async (c) => {
    sandboxOnly(c);
    const id = c.req.param("id");
    await cancelSandboxCard(c.var.deps.db, id);
    const session = await sandboxSessions(c.var.deps.db, "stripe", "cs").read(id);
    if (!session) throw notFound("No such checkout session.");
    return c.json({ data: { redirect: returnUrl(session) } });
  })
  .get("/sandbox/gocardless/flow/:id{[A-Za-z0-9_]+}", async (c) => {
    sandboxOnly(c, "directDebit");
    const session = await sandboxSessions(c.var.deps.db, "gocardless", "BRQ").read(c.req.param("id"));
    if (!session) throw notFound("No such billing request.");
    const r = session.request;
    return c.json({ data: { id: session.id, status: session.status, name: r.name ?? null, email: r.email ?? null, account_holder: r.account_holder ?? null, account_number: r.account_number ?? null, return_url: session.status === "open" ? null : returnUrl(session) } });
  })
  .post("/sandbox/gocardless/flow/:id{[A-Za-z0-9_]+}", async (c) => {
    sandboxOnly(c, "directDebit");
    const id = c.req.param("id");
    const { authorised } = await readBody(c, z.object({ authorised: z.preprocess((v) => v === true || v === "on" || v === "true", z.literal(true, { errorMap: () => ({ message: "Confirm you can authorise debits from this account" }) })) }));
    if (!authorised) throw invalid({ authorised: ["Confirm you can authorise debits from this account"] });
    await confirmSandboxMandate(c.var.deps.db, id);
    const session = await sandboxSessions(c.var.deps.db, "gocardless", "BRQ").read(id);
    if (!session) throw notFound("No such billing request.");
    return c.json({ data: { redirect: returnUrl(session) } });
  })
  .post("/sandbox/gocardless/flow/:id{[A-Za-z0-9_]+}/cancel", async (c) => {
    sandboxOnly(c, "directDebit");
    const id = c.req.param("id");
    await cancelSandboxMandate(c.var.deps.db, id);
    const session = await sandboxSessions(c.var.deps.db, "gocardless", "BRQ").read(id);
    if (!session) throw notFound("No such billing request.");
    return c.json({ data: { redirect: returnUrl(session) } });
  })
  .get("/sandbox/akahu/authorize/:id{[A-Za-z0-9_]+}", async (c) => {
    sandboxOnly(c, "bank");
    const session = await sandboxSessions(c.var.deps.db, "akahu", "auth").read(c.req.param("id"));
    if (!session) throw notFound("No such consent.");
    return c.json({ data: { id: session.id, status: session.status, email: session.request.email ?? null, accounts: SANDBOX_BANK_ACCOUNTS.map((a) => ({ id: a.id, name: a.name, account_number: a.accountNumber, bank: a.bank })) } });
  })
  .post("/sandbox/akahu/authorize/:id{[A-Za-z0-9_]+}", async (c) => {
    sandboxOnly(c, "bank");
    const { accounts } = await readBody(c, z.object({ accounts: z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(z.string()).min(1, "Choose at least one account to share")) }));
    const redirect = await allowSandboxConsent(c.var.deps.db, c.req.param("id"), accounts);
    if (!redirect) throw notFound("No such consent.");
    return c.json({ data: { redirect } });
  })
  .post("/sandbox/akahu/authorize/:id{[A-Za-z0-9_]+}/deny", async (c) => {
    sandboxOnly(c, "bank");
    const redirect = await denySandboxConsent(c.var.deps.db, c.req.param("id"));
    if (!redirect) throw notFound("No such consent.");
    return c.json({ data: { redirect } });
  });
