import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { sandbox_links } from "../core/db/schema";
import type { ApiEnv } from "../core/context";
import { notFound } from "../core/errors";

/**
 * GET /api/links/{code}: the sandbox Branch's short links (server/core/providers/links/sandbox.ts) lead where a Branch
 * link leads a computer without the app: a redirect to its web page. Public, as a link in an e-mail is.
 */
export const deepLinkRoutes = new Hono<ApiEnv>().get("/links/:code{[A-Za-z0-9_-]+}", async (c) => {
  const [link] = await c.var.deps.db.select({ url: sandbox_links.url }).from(sandbox_links).where(eq(sandbox_links.code, c.req.param("code")));
  if (!link) throw notFound("No such link.");
  return c.redirect(link.url, 302);
});
