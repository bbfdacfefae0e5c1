import { Hono } from "hono";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { gymUuid } from "../../domain/schemas/auth";
import { gyms, offering_gyms, offerings, organisations, prices } from "../core/db/schema";
import { withTenant } from "../core/db/tenant";
import { readLogo } from "../gyms/logo";
import { publicOffer, signupChoice } from "../signup/catalogue";
import type { ApiEnv } from "../core/context";
import { notFound } from "../core/errors";

/**
 * The gyms people may join, for anyone to read: the sign-up host's chooser, the register page's heading and
 * integrators building sign-up links. Only what a gym shows on its door: its name, its logo, its
 * organisation's name and the uuid a link names it by. Never its database id, accounts, provider ids or
 * settings. Read-only and unauthenticated; it reads across organisations on purpose, so it uses the raw
 * handle (like sign-up itself) and selects these columns only.
 */
const columns = { uuid: gyms.uuid, name: gyms.name, logo: gyms.logo, organisation: organisations.name };

type Row = { uuid: string; name: string; logo: string | null; organisation: string };

/**
 * A logo is shown only from our own site (the Content-Security-Policy's img-src is 'self'), so anything but a
 * path here is not a logo anyone could see.
 */
const sitePath = (logo: string | null) => (logo && /^\/(?![/\\])\S*$/.test(logo) ? logo : null);

/** A public price on sale at the row's gym: the price names it or no gym, its offering is open to every gym or to it. */
const sellsAPublicPrice = sql`exists (
  select 1 from ${prices} p join ${offerings} o on o.id = p.offering_id
  where p.organisation_id = ${gyms.organisation_id} and p.archived_at is null and o.archived_at is null and not p.private
    and (p.gym_id is null or p.gym_id = ${gyms.id})
    and (o.all_gyms_access or exists (select 1 from ${offering_gyms} og where og.offering_id = o.id and og.gym_id = ${gyms.id})))`;

export const publicGym = (r: Row) => ({ uuid: r.uuid, name: r.name, logo: sitePath(r.logo), organisation: { name: r.organisation } });
export type PublicGym = ReturnType<typeof publicGym>;

export const publicGymRoutes = new Hono<ApiEnv>()
  /**
   * GET /api/public/gyms → { data: PublicGym[] }, by organisation and then gym name: the gyms people can join, so a
   * gym appears once it sells a public price and leaves when it is archived (issue 32; `soldAtGym`'s rule, per row).
   */
  .get("/public/gyms", async (c) => {
    const rows = await c.var.deps.db
      .select(columns)
      .from(gyms)
      .innerJoin(organisations, eq(organisations.id, gyms.organisation_id))
      .where(and(isNull(gyms.archived_at), sellsAPublicPrice))
      .orderBy(asc(organisations.name), asc(gyms.name), asc(gyms.id));
    return c.json({ data: rows.map(publicGym) });
  })

  /**
   * GET /api/public/gyms/{uuid}[?price=&link=] → { data: PublicGym & { price, prices } }, or 404 for a uuid no gym
   * has (or that is not a uuid). `prices`: the public prices on sale there, whose ids a gym's site puts in its
   * sign-up links (/?gym=…&price=…); `price`: the one such a link names, when it is on sale there
   * (server/signup/catalogue.ts).
   */
  .get("/public/gyms/:uuid", async (c) => {
    const uuid = gymUuid.safeParse(c.req.param("uuid"));
    if (!uuid.success) throw notFound("No such gym.");
    const [row] = await c.var.deps.db
      .select({ ...columns, id: gyms.id, organisation_id: gyms.organisation_id })
      .from(gyms)
      .innerJoin(organisations, eq(organisations.id, gyms.organisation_id))
      .where(eq(gyms.uuid, uuid.data.toLowerCase()));
    if (!row) throw notFound("No such gym.");
    const wantedPrice = Number(c.req.query("price"));
    const choice = await signupChoice(c.var.deps.db, row, { price: Number.isSafeInteger(wantedPrice) && wantedPrice > 0 && wantedPrice < 2 ** 31 ? wantedPrice : null, link: c.req.query("link") });
    return c.json({ data: { ...publicGym(row), price: choice.price ? publicOffer(choice.price) : null, prices: choice.onSale.map(publicOffer) } });
  })
  /**
   * GET /api/public/gyms/{uuid}/membership-terms → { data: { gym, organisation, text, url } }: the terms people accept
   * when they join there (issue 31; the organisation's setting), public as any shop's terms are. Both null when the
   * organisation has not written them here.
   */
  .get("/public/gyms/:uuid/membership-terms", async (c) => {
    const uuid = gymUuid.safeParse(c.req.param("uuid"));
    if (!uuid.success) throw notFound("No such gym.");
    const [row] = await c.var.deps.db
      .select({ gym: gyms.name, organisation: organisations.name, text: organisations.membership_terms_text, url: organisations.membership_terms_url })
      .from(gyms)
      .innerJoin(organisations, eq(organisations.id, gyms.organisation_id))
      .where(eq(gyms.uuid, uuid.data.toLowerCase()));
    if (!row) throw notFound("No such gym.");
    return c.json({ data: row });
  })
  /**
   * GET /api/public/gyms/{uuid}/logo: the gym's uploaded logo, public like the gym's name (its sign-up pages show it
   * before anyone signs in). Its address carries a version (?v=), so it may be cached for a year.
   */
  .get("/public/gyms/:uuid/logo", async (c) => {
    const uuid = gymUuid.safeParse(c.req.param("uuid"));
    if (!uuid.success) throw notFound("No such gym.");
    const [gym] = await c.var.deps.db.select({ id: gyms.id, organisation_id: gyms.organisation_id }).from(gyms).where(eq(gyms.uuid, uuid.data.toLowerCase()));
    if (!gym) throw notFound("No such gym.");
    const logo = await withTenant(c.var.deps.db, gym.organisation_id, gym.id, (t) => readLogo(t, gym.id));
    if (!logo) throw notFound("This gym has no logo.");
    return new Response(new Uint8Array(logo.bytes), {
      headers: { "content-type": logo.content_type, "cache-control": "public, max-age=31536000, immutable", "x-content-type-options": "nosniff" },
    });
  });
