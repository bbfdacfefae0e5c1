import { Hono, type Context } from "hono";
import { z } from "zod";
import { cancelSandboxCard, submitSandboxCard } from "../../providers/cards/sandbox";
import { sandboxProviders } from "../../providers/registry";
import { returnUrl, sandboxSessions } from "../../providers/sandbox-sessions";
import { readBody } from "../body";
import type { ApiEnv } from "../context";
import { invalid, notFound } from "../errors";

/**
 * What the sandbox providers' hosted pages need (issue 13): the stand-ins for Stripe Checkout's card page, read and
 * submitted by app/routes/sandbox.*. They exist only where the sandbox does (outside production, or in a demo): a
 * live deployment answers 404, as it has no such pages. No session: the provider's page knows the person only by
 * the session id in its address, which is unguessable.
 */
function sandboxOnly(c: Context<ApiEnv>) {
  const providers = c.var.deps.providers ?? sandboxProviders(c.var.deps.db);
  if (providers.cards.mode !== "sandbox") throw notFound("No such page.");
}

const cardEntry = z.object({
  number: z.string().default(""),
  expiry: z.string().default(""),
  cvc: z.string().default(""),
  name: z.string().default(""),
});

export const sandboxPageRoutes = new Hono<ApiEnv>()
  .get("/sandbox/stripe/checkout/:id", async (c) => {
    sandboxOnly(c);
    const session = await sandboxSessions(c.var.deps.db, "stripe", "cs").read(c.req.param("id"));
    if (!session) throw notFound("No such checkout session.");
    return c.json({ data: { id: session.id, status: session.status, email: session.request.email ?? null, cancel_url: session.cancel_url, return_url: session.status === "open" ? null : returnUrl(session) } });
  })
  .post("/sandbox/stripe/checkout/:id", async (c) => {
    sandboxOnly(c);
    const id = c.req.param("id");
    const entry = await readBody(c, cardEntry);
    const answer = await submitSandboxCard(c.var.deps.db, id, entry);
    if ("errors" in answer) throw invalid(Object.fromEntries(Object.entries(answer.errors).map(([k, v]) => [k, [v]])));
    const session = await sandboxSessions(c.var.deps.db, "stripe", "cs").read(id);
    return c.json({ data: { redirect: returnUrl(session!) } });
  })
  .post("/sandbox/stripe/checkout/:id/cancel", async (c) => {
    sandboxOnly(c);
    const id = c.req.param("id");
    await cancelSandboxCard(c.var.deps.db, id);
    const session = await sandboxSessions(c.var.deps.db, "stripe", "cs").read(id);
    if (!session) throw notFound("No such checkout session.");
    return c.json({ data: { redirect: returnUrl(session) } });
  });
