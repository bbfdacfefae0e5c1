import { reportError } from "./observability/report";
import { noteRequest } from "./observability/context";
import type { Context, MiddlewareHandler } from "hono";
import { getCookie, setCookie, deleteCookie } from "hono/cookie";
import type { Config } from "./config";
import { readSession } from "./auth/sessions";
import { withTenant } from "./db/tenant";
import type { ApiEnv } from "./context";
import { ApiError, forbidden, notTwoFactorAuthenticated, tooMany, unauthenticated } from "./errors";
import { currentUser } from "./current-user";
import { readApiKey } from "./auth/api-key";
import { take } from "./auth/rate-limit";
import { openToKeys } from "./key-routes";
import { routePath } from "hono/route";
import { withIdempotency } from "./idempotency";

/** Secure cookies in production; a demo on plain http://localhost keeps them usable. */
export const secureCookies = (config: Config) => config.NODE_ENV === "production" && !config.DEMO_MODE;
export const sessionCookieName = (config: Config) => (secureCookies(config) ? "__Host-gym_session" : "gym_session");

export function setSessionCookie(c: Context<ApiEnv>, token: string) {
  const config = c.var.deps.config;
  setCookie(c, sessionCookieName(config), token, {
    path: "/",
    httpOnly: true,
    sameSite: "Lax",
    secure: secureCookies(config),
  });
}

export function clearSessionCookie(c: Context<ApiEnv>) {
  const config = c.var.deps.config;
  deleteCookie(c, sessionCookieName(config), { path: "/", secure: secureCookies(config) });
}

export const now = (c: Context<ApiEnv>) => c.var.deps.now?.() ?? new Date();

/** The caller's IP: from the socket, or the first X-Forwarded-For hop only behind a trusted proxy. */
export function clientIp(c: Context<ApiEnv>) {
  if (c.var.deps.config.TRUST_PROXY) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return c.env?.clientIp ?? "unknown";
}

/**
 * A read the GET calls of one page share (the loaders of a page each call the in-process API; server.js makes
 * `pageReads` per page and app/lib/api.server.ts empties it after any change). Alone, or remote: read each time.
 */
export function pageRead<T>(c: Context<ApiEnv>, key: string, read: () => Promise<T>): Promise<T> {
  const reads = c.req.method === "GET" ? c.env?.pageReads : undefined;
  let pending = reads?.get(key) as Promise<T> | undefined;
  if (!pending) {
    pending = read();
    reads?.set(key, pending);
  }
  return pending;
}

/** The bearer token of `Authorization: Bearer …`, if the request sends one. */
export const bearerToken = (c: Context<ApiEnv>) => /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("authorization") ?? "")?.[1];

/**
 * An integrator's API key (issue 33, decision 0062) instead of a session: `Authorization: Bearer gym_live_…`. The key
 * alone decides who asks (a cookie alongside it is ignored), a key that is unknown or revoked is 401, and each key has
 * its own requests a minute (429 with Retry-After; RateLimit-* headers say where it stands).
 */
async function loadApiKey(c: Context<ApiEnv>, token: string) {
  const { db } = c.var.deps;
  const at = now(c);
  const found = await readApiKey(db, token, clientIp(c), at);
  if (!found) throw new ApiError(401, "This API key is not valid, or it has been revoked.", "invalid_api_key");
  const taken = await take(db, { key: `api_key:${found.keyId}`, max: found.rateLimit, windowMs: 60_000 }, at);
  c.header("RateLimit-Limit", String(found.rateLimit));
  c.header("RateLimit-Remaining", String(Math.max(0, found.rateLimit - taken.count)));
  c.header("RateLimit-Reset", String(taken.retryAfter));
  if (!taken.allowed) throw tooMany(`This API key may make ${found.rateLimit} requests a minute. Try again in ${taken.retryAfter} s.`, taken.retryAfter);
  c.set("session", null);
  c.set("user", found.user);
  noteRequest({ user_id: found.user.row.id, organisation_id: found.user.organisation?.id });
}

/** A route for people (the session's own, settings, staff…): a key is refused here, with the reason. */
const KEY_REFUSED = "API keys cannot use this endpoint. See /api/docs for the endpoints a key may call.";
const refuseKeys = (c: Context<ApiEnv>) => {
  if (c.var.user?.apiKey) throw new ApiError(403, KEY_REFUSED, "api_key_not_allowed");
};

/** Loads the session and user for every request; guards below decide what each route needs. */
export const loadSession: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const { db, config } = c.var.deps;
  const bearer = bearerToken(c);
  if (bearer !== undefined) {
    await loadApiKey(c, bearer);
    return next();
  }
  const token = getCookie(c, sessionCookieName(config));
  const lookup = async () => {
    const found = await readSession(db, token, now(c));
    return found ? { session: found.session, user: currentUser(found.user, found.memberships) } : null;
  };
  // The loaders of one page each call the API; reads within that page share one lookup.
  const found = token ? await pageRead(c, `session:${token}`, lookup) : null;
  c.set("session", found?.session ?? null);
  c.set("user", found?.user ?? null);
  // Who asked, by id, from here on: an error report raised inside the route carries them (the log line too).
  noteRequest({ user_id: found?.user.row.id, organisation_id: found?.user.organisation?.id });
  await next();
};

/** Signed in, whether or not the e-mailed code has been entered yet. */
export const requireSession: MiddlewareHandler<ApiEnv> = async (c, next) => {
  refuseKeys(c);
  if (!c.var.session || !c.var.user) throw unauthenticated();
  await next();
};

/** Signed in and past the e-mailed code. */
export const requireVerified: MiddlewareHandler<ApiEnv> = async (c, next) => {
  refuseKeys(c);
  if (!c.var.session || !c.var.user) throw unauthenticated();
  if (!c.var.session.two_factor_passed) throw notTwoFactorAuthenticated();
  await next();
};

/**
 * Verified staff of a current organisation, or the answer why not. A check-in kiosk's session (issue 32) is staff's
 * but may do nothing else: only the routes that say so (`requireKiosk`) answer it.
 */
function staffUser(c: Context<ApiEnv>, { kiosk = false } = {}) {
  const key = c.var.user?.apiKey ? c.var.user : null;
  if (key) {
    // Only the routes listed for keys (server/core/key-routes.ts); there its scopes decide (permissions.ts).
    if (kiosk || !openToKeys(c.req.method, routePath(c))) refuseKeys(c);
    return { ...key, organisation: key.organisation! };
  }
  if (!c.var.session || !c.var.user) throw unauthenticated();
  if (!c.var.session.two_factor_passed) throw notTwoFactorAuthenticated();
  const u = c.var.user;
  if (!u.organisation || u.organisation.role === "member") throw forbidden();
  if (c.var.session.kiosk_gym_id && !kiosk) throw new ApiError(403, KIOSK_LOCKED, "kiosk_mode");
  return { ...u, organisation: u.organisation };
}

export const KIOSK_LOCKED = "This device is a check-in kiosk. Sign out and sign in as staff to use the back-office on it.";

/**
 * Verified staff, for answers made from the session read alone (the unread count): no tenant, so no
 * transaction. Anything that reads organisation data needs requireStaff.
 */
export const requireStaffSession: MiddlewareHandler<ApiEnv> = async (c, next) => {
  staffUser(c);
  await next();
};

/** Verified staff of a current organisation; sets the tenant scope from the session. */
export const requireStaff: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const u = staffUser(c);
  await inTenant(c, u.organisation.id, u.gym?.id ?? null, next);
};

/** A check-in kiosk's session, or staff at the desk: the kiosk's own routes (server/check-in/routes.ts). */
export const requireKiosk: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const u = staffUser(c, { kiosk: true });
  await inTenant(c, u.organisation.id, c.var.session!.kiosk_gym_id ?? u.gym?.id ?? null, next);
};

/**
 * A verified member acting on their own account (the sign-up steps, issue 13), scoped to the organisation they
 * are a member of now and their home gym. Staff are refused: their members' records have pages of their own.
 */
export const requireMember: MiddlewareHandler<ApiEnv> = async (c, next) => {
  refuseKeys(c);
  if (!c.var.session || !c.var.user) throw unauthenticated();
  if (!c.var.session.two_factor_passed) throw notTwoFactorAuthenticated();
  const u = c.var.user;
  if (u.organisation?.role !== "member" || !u.gym) throw forbidden();
  await inTenant(c, u.organisation.id, u.gym.id, next);
};

/**
 * Runs the rest of the request in the organisation's tenant scope. A request that changes something runs in one
 * transaction, rolled back when it fails: Hono turns a handler's error into a response before next() returns, so
 * the failure is raised again here to roll back. Work that must follow the commit (a charge whose payment row has
 * to be written down first) runs once it is committed, on the system's handle, before the answer goes.
 */
async function inTenant(c: Context<ApiEnv>, organisationId: number, gymId: number | null, next: () => Promise<void>) {
  const atomic = !["GET", "HEAD"].includes(c.req.method);
  const failed = new Error("rolled back");
  const afterCommit: (() => Promise<void>)[] = [];
  c.set("afterCommit", (work) => void afterCommit.push(work));
  try {
    await withTenant(
      c.var.deps.db,
      organisationId,
      gymId,
      async (t) => {
        c.set("tenant", t);
        await withIdempotency(c, t, now(c), next);
        if (atomic && (c.error || c.res.status >= 400)) throw failed;
      },
      { atomic },
    );
  } catch (err) {
    if (err !== failed) throw err;
    return;
  }
  for (const work of afterCommit) {
    try {
      await work();
    } catch (err) {
      // What it left undone is the billing run's to finish (a payment left pending is charged by the next run).
      reportError("[api] after the commit", err);
    }
  }
}

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Cookie-authenticated state changes must be scripted by us (X-Requested-With, which a cross-site form
 * cannot send without a CORS preflight we never grant) or come from this origin. Paths in `open` are
 * public forms integrators may post from their own sites.
 */
export function sameOrigin(open: string[]): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    // A bearer key is no ambient credential: a cross-site page cannot make a browser send one.
    if (STATE_CHANGING.has(c.req.method) && !open.includes(c.req.path) && bearerToken(c) === undefined) {
      if (c.req.header("x-requested-with") !== "XMLHttpRequest" && !fromOwnOrigin(c.req.raw)) {
        throw new ApiError(403, "Cross-site requests are not allowed.", "cross_site_request");
      }
    }
    await next();
  };
}

export function fromOwnOrigin(request: Request) {
  const site = request.headers.get("sec-fetch-site");
  if (site) return site === "same-origin" || site === "none";
  const origin = request.headers.get("origin");
  if (!origin || origin === "null") return false;
  try {
    // Hosts, not origins: behind a TLS proxy the app sees http while the browser says https.
    return new URL(origin).host === new URL(request.url).host;
  } catch {
    return false;
  }
}

