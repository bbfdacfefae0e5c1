import type { JSONParsed } from "hono/utils/types";
import type { PageReads } from "../../server/api/context";
import { getRuntime } from "../../server/runtime";

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

/** A path on the gym API, built by `apiPath` (so every value in it is one encoded segment). */
export type ApiPath = string & { readonly __apiPath: true };

/** A `.` or `..` segment (also percent-encoded, which URL parsers resolve too): it would walk up the API's paths. */
const DOT_SEGMENT = /(^|\/)(\.|%2e){1,2}(\/|$)/i;

/**
 * Builds an API path from a template, each interpolation one path segment: `apiPath\`/members/${id}/photo\``.
 * Values are encodeURIComponent()-ed, so a `/`, `?` or `#` in them stays inside their segment; an empty,
 * `.` or `..` value is refused, as it would still walk the path.
 */
export function apiPath(strings: TemplateStringsArray, ...values: (string | number)[]): ApiPath {
  let path = strings[0];
  values.forEach((value, i) => {
    const segment = String(value);
    if (segment === "" || segment === "." || segment === "..") throw refused(`${path}${segment}`);
    path += encodeURIComponent(segment) + strings[i + 1];
  });
  return checkedPath(path);
}

function refused(path: string) {
  return new ApiRequestError(404, `Not an API path: ${JSON.stringify(path.slice(0, 100))}.`, "not_found");
}

/** The client's own check on any path it is handed: absolute, no query or fragment, no dot segments. */
function checkedPath(path: string): ApiPath {
  if (!path.startsWith("/") || path.startsWith("//") || /[?#\\]/.test(path) || DOT_SEGMENT.test(path)) throw refused(path);
  return path as ApiPath;
}

export interface ApiContext {
  request: Request;
  context?: { clientIp?: string; pageReads?: PageReads };
}

export interface GymApi {
  // T is the type the API's own code builds (e.g. Awaited<ReturnType<typeof memberDetail>>); the answer is
  // typed as that value after a trip through JSON (Dates arrive as strings), so the compiler catches a page
  // that expects otherwise.
  get<T>(path: ApiPath, query?: Record<string, string | number | undefined>): Promise<JSONParsed<T>>;
  post<T>(path: ApiPath, body?: unknown): Promise<JSONParsed<T>>;
  put<T>(path: ApiPath, body?: unknown): Promise<JSONParsed<T>>;
  delete<T>(path: ApiPath): Promise<JSONParsed<T>>;
  /**
   * The API's answer itself, for bodies to pass on as they stream (CSV exports, images). A failure still
   * raises ApiRequestError. `body` is JSON unless it is FormData (multipart uploads).
   */
  raw(method: string, path: ApiPath, body?: unknown): Promise<Response>;
  /** Set-Cookie headers the API sent, to pass on with the page's response. */
  headers: Headers;
  /** Whether the next call carries any cookie (the browser's, or one the API set during this request). */
  readonly hasCookies: boolean;
}

export function gymApi({ request, context }: ApiContext): GymApi {
  const headers = new Headers();
  const cookies = new Map<string, string>();
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k) cookies.set(k, v.join("="));
  }

  async function send<T>(method: string, path: ApiPath, body?: unknown, query?: Record<string, string | number | undefined>): Promise<T> {
    const res = await call(method, path, body, query);
    const payload = (await res.json().catch(() => null)) as { data?: T } | null;
    return (payload?.data ?? payload) as T;
  }

  async function call(method: string, path: ApiPath, body?: unknown, query?: Record<string, string | number | undefined>): Promise<Response> {
    // Checked again here: a cast string would otherwise reach the URL parser, which resolves `..` and cuts at `?`.
    checkedPath(path);
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
    get: (path, query) => send("GET", path, undefined, query),
    post: (path, body) => send("POST", path, body ?? {}),
    put: (path, body) => send("PUT", path, body ?? {}),
    delete: (path) => send("DELETE", path),
    raw: (method, path, body) => call(method, path, body),
    headers,
    get hasCookies() {
      return cookies.size > 0;
    },
  };
}

/** A read the user may not be allowed (403): null instead of an error, for pages that show what they may. */
export async function ifAllowed<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 403) return null;
    throw err;
  }
}
