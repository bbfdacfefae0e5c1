import { Hono } from "hono";
import { feedCalendar, feedOwner, feedPath, feedToken, renewFeedToken } from "./feed";
import { withTenant } from "../core/db/tenant";
import { backofficeUrl } from "../core/config";
import type { ApiEnv } from "../core/context";
import { notFound } from "../core/errors";
import { calendarAndMessaging } from "../core/guards";
import { now, requireStaff } from "../core/middleware";

/**
 * The trainer's private calendar feed (server/calendar/feed.ts). Managing the link is the signed-in trainer's own
 * business; the feed itself is fetched by a phone's calendar with no session, so it finds its organisation by the
 * token (the one place here that reads before there is a tenant).
 */
const staff = [requireStaff, calendarAndMessaging] as const;
const urlOf = (c: { var: ApiEnv["Variables"] }, token: string | null) => (token ? `${backofficeUrl(c.var.deps.config)}${feedPath(token)}` : null);

export const calendarFeedRoutes = new Hono<ApiEnv>()
  /** GET /api/calendar-feed: { url } of my feed, null when I have none. */
  .get("/calendar-feed", ...staff, async (c) => c.json({ data: { url: urlOf(c, await feedToken(c.var.tenant, c.var.user!.row.id)) } }))
  /** POST /api/calendar-feed: a new link (the old one stops working). */
  .post("/calendar-feed", ...staff, async (c) => c.json({ data: { url: urlOf(c, await renewFeedToken(c.var.tenant, c.var.user!.row.id)) } }, 201))
  /** DELETE /api/calendar-feed: no link at all. */
  .delete("/calendar-feed", ...staff, async (c) => {
    await renewFeedToken(c.var.tenant, c.var.user!.row.id, true);
    return c.json({ data: { url: null } });
  })
  /** GET /api/calendar-feeds/{token}.ics: the feed (text/calendar), 404 for a token that opens nothing. */
  .get("/calendar-feeds/:file{[A-Za-z0-9_-]+\\.ics}", async (c) => {
    const owner = await feedOwner(c.var.deps.db, c.req.param("file").replace(/\.ics$/, ""));
    if (!owner) throw notFound("No such calendar.");
    const body = await withTenant(c.var.deps.db, owner.organisation_id, null, (t) => feedCalendar(t, owner, now(c), new URL(backofficeUrl(c.var.deps.config)).host));
    return c.body(body, 200, { "Content-Type": "text/calendar; charset=utf-8", "Cache-Control": "private, max-age=300", "X-Robots-Tag": "noindex" });
  });
