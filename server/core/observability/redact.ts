/**
 * What may leave the process in a log line or an error report (issue 19): never passwords, codes, tokens, card or bank
 * numbers, and no personal data. Keys that name a secret lose their values; strings lose anything shaped like an e-mail
 * address, a card number or a New Zealand bank account; a database error keeps its query and loses its parameters.
 */
const SECRET_KEY = /pass(word|phrase)?|secret|token|code|otp|cvc|cvv|card|pan$|account|iban|bsb|bank|authori[sz]ation|cookie|session|signature|api[-_]?key|dsn|email|mobile|phone|dob|address|name$/i;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const CARD = /\b(?:\d[ -]?){12,18}\d\b/g;
const NZ_BANK = /\b\d{2}-\d{4}-\d{7}-\d{2,3}\b/g;
const PARAMS = /(\bparams:)[\s\S]*$/i;
export const REDACTED = "[redacted]";

/** A message or any free text: personal shapes masked, a failed query's parameters dropped. */
export function scrubText(text: string): string {
  return text.replace(PARAMS, `$1 ${REDACTED}`).replace(EMAIL, "[email]").replace(NZ_BANK, "[bank account]").replace(CARD, "[number]");
}

/** A copy of `value` with secret-named keys' values and personal-looking strings redacted (depth-limited, cycle-safe). */
export function scrub(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === "string") return scrubText(value);
  if (value === null || typeof value !== "object") return value;
  if (depth > 6 || seen.has(value)) return "[…]";
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1, seen));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEY.test(k) && v !== null && v !== undefined && typeof v !== "boolean" && typeof v !== "number" ? REDACTED : scrub(v, depth + 1, seen);
  return out;
}

/** An error as a log field: its kind and code down the cause chain, a scrubbed message, the top of its stack. */
export function safeError(err: unknown): { type: string; code?: string; message: string; stack: string[]; cause?: ReturnType<typeof safeError> } {
  const e = err as { constructor?: { name?: string }; code?: unknown; message?: unknown; stack?: unknown; cause?: unknown } | null;
  const out: ReturnType<typeof safeError> = {
    type: e?.constructor?.name ?? typeof err,
    message: scrubText(typeof e?.message === "string" ? e.message : String(err)),
    stack: typeof e?.stack === "string" ? e.stack.split("\n").filter((l) => l.trimStart().startsWith("at ")).slice(0, 8).map((l) => l.trim()) : [],
  };
  if (typeof e?.code === "string") out.code = e.code;
  if (e?.cause && e.cause !== err) out.cause = safeError(e.cause);
  return out;
}

/** What scrubEvent reads of an error-reporting event (Sentry's, from the Node and the browser SDKs alike). */
interface ReportEvent {
  request?: { method?: string; url?: string };
  user?: { id?: string | number };
  extra?: Record<string, unknown>;
  contexts?: Record<string, unknown>;
  message?: string;
  exception?: { values?: { value?: string; stacktrace?: { frames?: { context_line?: string; pre_context?: string[]; post_context?: string[]; vars?: unknown }[] } }[] };
  breadcrumbs?: { message?: string; data?: Record<string, unknown> }[];
}

/** An address without its query string and fragment, which can hold searches and tokens. */
const pathOnly = (url: string) => url.split(/[?#]/)[0];

/** A breadcrumb's addresses (an outgoing call's url, a navigation's from and to), each by its path only. */
function withoutQueries(data: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) out[k] = typeof v === "string" && /^(url|from|to|http\.url)$/.test(k) ? pathOnly(v) : v;
  return out;
}

/** Strips what an event may carry of a person: the request's body, cookies, headers and query; messages scrubbed. */
export function scrubEvent<E extends ReportEvent>(event: E): E {
  if (event.request) event.request = { method: event.request.method, url: event.request.url && pathOnly(event.request.url) };
  if (event.user) event.user = event.user.id ? { id: event.user.id } : undefined;
  if (event.extra) event.extra = scrub(event.extra) as E["extra"];
  if (event.contexts) event.contexts = scrub(event.contexts) as E["contexts"];
  if (event.message) event.message = scrubText(event.message);
  for (const ex of event.exception?.values ?? []) {
    if (ex.value) ex.value = scrubText(ex.value);
    // Source lines beside each frame are code, but a literal in them may still look like a person's address.
    for (const f of ex.stacktrace?.frames ?? []) {
      if (f.context_line) f.context_line = scrubText(f.context_line);
      if (f.pre_context) f.pre_context = f.pre_context.map(scrubText);
      if (f.post_context) f.post_context = f.post_context.map(scrubText);
      delete f.vars;
    }
  }
  for (const b of event.breadcrumbs ?? []) {
    if (b.message) b.message = scrubText(b.message);
    if (b.data) b.data = scrub(withoutQueries(b.data)) as typeof b.data;
  }
  return event;
}
