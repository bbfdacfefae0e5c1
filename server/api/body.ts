import type { Context } from "hono";
import type { z } from "zod";
import { ApiError, invalid, zodErrors } from "./errors";

const MAX_BODY = 64 * 1024;

/**
 * Reads a JSON or form body (integrators post plain HTML forms) and validates it with a shared schema.
 * Malformed JSON is 400; a failed schema is 422 with per-field errors.
 */
export async function readBody<S extends z.ZodTypeAny>(c: Context, schema: S): Promise<z.output<S>> {
  const type = c.req.header("content-type") ?? "";
  let raw: unknown;
  if (Number(c.req.header("content-length") ?? 0) > MAX_BODY) throw new ApiError(413, "The request body is too large.", "payload_too_large");
  if (type.includes("application/json")) {
    const text = await c.req.text();
    if (text.length > MAX_BODY) throw new ApiError(413, "The request body is too large.", "payload_too_large");
    try {
      raw = text ? JSON.parse(text) : {};
    } catch {
      throw new ApiError(400, "The request body is not valid JSON.", "malformed_json");
    }
  } else if (type.includes("application/x-www-form-urlencoded") || type.includes("multipart/form-data")) {
    const form = await c.req.parseBody();
    raw = Object.fromEntries(Object.entries(form).map(([k, v]) => [k, typeof v === "string" ? v : undefined]));
  } else if (!type) {
    raw = {};
  } else {
    throw new ApiError(415, "Send the body as JSON or as a form.", "unsupported_media_type");
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new ApiError(400, "The request body must be a JSON object.", "malformed_json");
  }
  const result = schema.safeParse(raw);
  if (!result.success) throw invalid(zodErrors(result.error));
  return result.data;
}
