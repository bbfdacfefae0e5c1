
/**
 * Typed application errors, mapped to status codes in one place (onError, ../api/on-error.ts).
 * Every failure answers `{ message, error?, errors? }`.
 */
export class ApiError extends Error {
  constructor(
    public status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 503,
    message: string,
    public error?: string,
    public errors?: Record<string, string[]>,
    public headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const unauthenticated = () => new ApiError(401, "Unauthenticated.", "unauthenticated");
export const forbidden = (message = "This action is unauthorized.") => new ApiError(403, message, "forbidden");
export const notFound = (message = "Not found.") => new ApiError(404, message, "not_found");
export const notTwoFactorAuthenticated = () =>
  new ApiError(400, "Enter the code we e-mailed you to continue.", "not_two_factor_authenticated");
export const invalid = (errors: Record<string, string[]>, message?: string) =>
  new ApiError(422, message ?? Object.values(errors)[0]?.[0] ?? "The given data was invalid.", "validation_failed", errors);
export const tooMany = (message: string, retryAfterSeconds: number) =>
  new ApiError(429, message, "too_many_attempts", undefined, { "Retry-After": String(retryAfterSeconds) });

export { zodErrors } from "../../domain/schemas/fields";


/**
 * What the log may say about an unexpected error: its class, its database code and where it was thrown.
 * Never its message: a Drizzle error's message carries the query's parameters (members' details), and a
 * database error's message may quote the value it refused.
 */
export function describeError(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    parts.push(`${(e as object).constructor?.name ?? typeof e}${typeof code === "string" ? ` ${code}` : ""}`);
  }
  const frames = (err as Error)?.stack?.split("\n").filter((l) => l.trimStart().startsWith("at ")).slice(0, 5) ?? [];
  return [parts.join(" caused by "), ...frames].join("\n");
}
