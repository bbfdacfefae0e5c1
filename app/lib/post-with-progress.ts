import { decode } from "turbo-stream";

/** What a route's action answered a form posted by `postWithProgress`. */
export type PostedAnswer =
  | { kind: "redirect"; to: string; status: number; revalidate: boolean; reload: boolean; replace: boolean }
  | { kind: "data"; status: number; data: unknown }
  /** The route threw: an Error, or a Response as an error response (thrown from a client action, Remix shows it as the route's error). */
  | { kind: "error"; error: unknown }
  /** No answer from the route: the connection failed, the request was aborted, or something else answered (a proxy, the body limit's 413 page). */
  | { kind: "unanswered"; status: number };

/**
 * Posts a form to a route's action as Remix does with JavaScript (single fetch: the route's `.data` URL, answered in
 * turbo-stream), but with XMLHttpRequest, whose upload reports progress (fetch's does not). The same action as the
 * plain form's, so the server has one code path. `onSent` is called with the bytes sent and the total as they go.
 *
 * The decoding follows @remix-run/react's own (single-fetch.js, decodeViaTurboStream) with the turbo-stream it uses:
 * an action answers `{ redirect, status, revalidate, reload, replace }`, `{ data }` or `{ error }`.
 */
export function postWithProgress(action: URL, body: FormData, onSent: (sent: number, total: number) => void, signal?: AbortSignal): Promise<PostedAnswer> {
  const url = new URL(action);
  url.pathname = url.pathname === "/" ? "/_root.data" : `${url.pathname.replace(/\/$/, "")}.data`;
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url.href);
    xhr.responseType = "blob";
    xhr.upload.onprogress = (e) => e.lengthComputable && onSent(e.loaded, e.total);
    xhr.onerror = xhr.onabort = xhr.ontimeout = () => resolve({ kind: "unanswered", status: 0 });
    xhr.onload = () => {
      // Remix marks each answer it writes; anything else came from before it.
      if (!xhr.getResponseHeader("X-Remix-Response")) return resolve({ kind: "unanswered", status: xhr.status });
      decodeAnswer(xhr.response as Blob, xhr.status).then(resolve, () => resolve({ kind: "unanswered", status: xhr.status }));
    };
    signal?.addEventListener("abort", () => xhr.abort());
    xhr.send(body);
  });
}

/** A route's error as Remix's decoding makes it: an Error (messages sanitized in production), or an error response. */
const REMIX_TYPES = (type: string, ...rest: unknown[]) => {
  if (type === "SanitizedError") return { value: Object.assign(new Error(String(rest[1])), { name: String(rest[0]) }) };
  if (type === "ErrorResponse")
    return {
      value: new Response(JSON.stringify(rest[0]), {
        status: Number(rest[1]),
        statusText: String(rest[2] ?? ""),
        headers: { "Content-Type": "application/json" },
      }),
    };
  if (type === "SingleFetchClassInstance") return { value: rest[0] };
  if (type === "SingleFetchFallback") return { value: undefined };
  return false;
};

async function decodeAnswer(body: Blob, status: number): Promise<PostedAnswer> {
  if (!body.size) return { kind: "data", status, data: undefined };
  const { value } = await decode(body.stream(), { plugins: [REMIX_TYPES] });
  const answer = (value ?? {}) as Record<string, unknown>;
  if (typeof answer.redirect === "string")
    return {
      kind: "redirect",
      to: answer.redirect,
      status: Number(answer.status) || 302,
      revalidate: Boolean(answer.revalidate),
      reload: Boolean(answer.reload),
      replace: Boolean(answer.replace),
    };
  if ("error" in answer) return { kind: "error", error: answer.error };
  return { kind: "data", status, data: answer.data };
}
