import type { PageReads } from "../../server/core/context";
import { currentRequest } from "../../server/core/observability/context";
import { getRuntime } from "../../server/runtime";
import type { AnswerOf, CallOptions, Method, PathFor, Query } from "./api-contract";

/**
 * The one client every loader and action uses to reach the gym API. It forwards the browser's cookie,
 * hands Set-Cookie back, sends X-Requested-With, times out after 26 s (a remote API), unwraps `data`, and turns an
 * error answer into an ApiRequestError whose text is the answer's `message`, else its `error`.
 * By default it calls the mounted API in-process; with API_BASE it sends the same request over HTTP.
 */
export const API_TIMEOUT_MS = 26_000;

export class ApiRequestError extends Error {
  constructor(
    public status: number,
    message: string,
    public error?: string,
    public errors?: Record<string, string[]>,
  ) {
    super(message);
  }
}

/** A `.` or `..` segment (also percent-encoded, which URL parsers resolve too): it would walk up the API's paths. */
const DOT_SEGMENT = /(^|\/)(\.|%2e){1,2}(\/|$)/i;

/**
 * The API path of a pattern and its params: `/members/:id/photo` with `{ id: 12 }` → `/members/12/photo`. Each
 * value is one path segment, encodeURIComponent()-ed, so a `/`, `?` or `#` in it stays inside it; an empty, `.` or
 * `..` value is refused, as it would still walk the path, and so is a pattern whose params were not all given.
 */
export function apiPath(pattern: string, params: Record<string, string | number> = {}): string {
  const path = pattern.replace(/:([a-z_]+)/gi, (whole, name: string) => {
    if (!(name in params)) throw refused(pattern);
    const segment = String(params[name]);
    if (segment === "" || segment === "." || segment === "..") throw refused(`${pattern} ${name}=${segment}`);
    return encodeURIComponent(segment);
  });
  if (!path.startsWith("/") || path.startsWith("//") || /[?#\\]/.test(path) || DOT_SEGMENT.test(path)) throw refused(path);
  return path;
}

function refused(path: string) {
  return new ApiRequestError(404, `Not an API path: ${JSON.stringify(path.slice(0, 100))}.`, "not_found");
}

export interface ApiContext {
  request: Request;
  context?: { clientIp?: string; pageReads?: PageReads };
}

/**
 * Each method takes a path pattern as the API declares it (`/members/:id`) and answers that path's type from
 * the API's own routes (./api-contract.ts): Dates arrive as strings, and a page that expects otherwise does
 * not compile. A path with params needs them: `api.get("/members/:id", { params: { id } })`.
 */
export interface GymApi {
  get<P extends PathFor<"get">>(path: P, ...options: CallOptions<P, { query?: Query }>): Promise<AnswerOf<"get", P>>;
  post<P extends PathFor<"post">>(path: P, ...options: CallOptions<P, { body?: unknown }>): Promise<AnswerOf<"post", P>>;
  put<P extends PathFor<"put">>(path: P, ...options: CallOptions<P, { body?: unknown }>): Promise<AnswerOf<"put", P>>;
  delete<P extends PathFor<"delete">>(path: P, ...options: CallOptions<P, { query?: Query }>): Promise<AnswerOf<"delete", P>>;
  /**
   * The API's answer itself, for bodies to pass on as they stream (CSV exports, images). A failure still
   * raises ApiRequestError. `body` is JSON unless it is FormData (multipart uploads).
   */
  raw<M extends Method, P extends PathFor<M>>(method: M, path: P, ...options: CallOptions<P, { body?: unknown }>): Promise<Response>;
  /** Set-Cookie headers the API sent, to pass on with the page's response. */
  headers: Headers;
  /** Whether the next call carries any cookie (the browser's, or one the API set during this request). */
  readonly hasCookies: boolean;
}

type Options = { params?: Record<string, string | number>; query?: Query; body?: unknown };

export function gymApi({ request, context }: ApiContext): GymApi {
  const headers = new Headers();
  const cookies = new Map<string, string>();
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k) cookies.set(k, v.join("="));
  }

  // The contract's types promise what the API's handlers build; this is where that promise meets the wire.
  async function send<T>(method: string, pattern: string, { params, query, body }: Options = {}): Promise<T> {
    const res = await call(method, pattern, { params, query, body: body ?? (method === "POST" || method === "PUT" ? {} : undefined) });
    const payload = (await res.json().catch(() => null)) as unknown;
    return (payload !== null && typeof payload === "object" && "data" in payload ? payload.data : payload) as T;
  }

  async function call(method: string, pattern: string, { params, query, body }: Options = {}): Promise<Response> {
    const path = apiPath(pattern, params);
    const { config, api } = await getRuntime();
    const base = config.API_BASE ?? new URL(request.url).origin;
    const url = new URL(`/api${path}`, base);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== "") url.searchParams.set(k, String(v));
    const init: RequestInit = {
      method,
      headers: {
        accept: "application/json",
        "x-requested-with": "XMLHttpRequest",
        ...(body !== undefined && !(body instanceof FormData) ? { "content-type": "application/json" } : {}),
        ...(cookies.size ? { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") } : {}),
        ...(request.headers.get("user-agent") ? { "user-agent": request.headers.get("user-agent")! } : {}),
        ...(config.API_BASE && context?.clientIp ? { "x-forwarded-for": context.clientIp } : {}),
        // The page's request id goes with its API calls (a remote API logs and reports under the same id).
        ...(currentRequest() ? { "x-request-id": currentRequest()!.id } : {}),
      },
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
      // The time-out guards a remote API; the in-process one never reads the signal, and making one costs a timer per call.
      signal: config.API_BASE ? AbortSignal.timeout(API_TIMEOUT_MS) : undefined,
    };
    let res: Response;
    try {
      // A change (sign-in, sign-out, switch, an edit) makes the page's shared reads stale.
      if (method !== "GET") context?.pageReads?.clear();
      const env = { clientIp: context?.clientIp, pageReads: method === "GET" ? context?.pageReads : undefined };
      res = config.API_BASE ? await fetch(url, init) : await api.fetch(new Request(url, init), env);
    } catch (err) {
      const timedOut = (err as Error).name === "TimeoutError";
      throw new ApiRequestError(timedOut ? 504 : 502, timedOut ? "The server took too long to answer. Please try again." : "Could not reach the server. Please try again.");
    }
    for (const cookie of res.headers.getSetCookie()) {
      headers.append("Set-Cookie", cookie);
      // Later calls in the same request see the new cookie, as a browser would.
      const [pair] = cookie.split(";");
      const [k, ...v] = pair.split("=");
      const value = v.join("=");
      if (value && !/max-age=0|expires=thu, 01 jan 1970/i.test(cookie)) cookies.set(k.trim(), value);
      else cookies.delete(k.trim());
    }
    if (!res.ok) {
      const payload = (await res.json().catch(() => null)) as { message?: string; error?: string; errors?: Record<string, string[]> } | null;
      throw new ApiRequestError(res.status, payload?.message || payload?.error || `Request failed (${res.status})`, payload?.error, payload?.errors);
    }
    return res;
  }

  return {
    get: (path, ...[options]) => send("GET", path, options),
    post: (path, ...[options]) => send("POST", path, options),
    put: (path, ...[options]) => send("PUT", path, options),
    delete: (path, ...[options]) => send("DELETE", path, options),
    raw: (method, path, ...[options]) => call(method.toUpperCase(), path, options),
    headers,
    get hasCookies() {
      return cookies.size > 0;
    },
  };
}

/** A read the user may not be allowed (403): null instead of an error, for pages that show what they may. */
/** A read of the calendar's (recurring schedules): null for an organisation without calendar and messaging (404). */
export async function ifCalendar<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 404) return null;
    throw err;
  }
}

export async function ifAllowed<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 403) return null;
    throw err;
  }
}
