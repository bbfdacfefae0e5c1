import type { Context } from "hono";
import type { z } from "zod";
import { PG_INT_MAX } from "../../domain/schemas/ids";
import { ApiError, invalid, notFound, zodErrors } from "./errors";

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
    // A repeated field (checkboxes of one name) is a list, as the schema's array fields expect.
    const form = await readForm(c, true);
    const text = (v: unknown) => (typeof v === "string" ? v : undefined);
    raw = Object.fromEntries(Object.entries(form).map(([k, v]) => [k, Array.isArray(v) ? v.map(text).filter((x) => x !== undefined) : text(v)]));
  } else if (!type) {
    raw = {};
  } else {
    throw new ApiError(415, "Send the body as JSON or as a form.", "unsupported_media_type");
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new ApiError(400, "The request body must be a JSON object.", "malformed_json");
  }
  return validated(raw, schema);
}

/**
 * A form body (URL-encoded or multipart) as its fields; one that does not parse (multipart without a boundary
 * or its closing line, bytes that are not the text they claim) is the client's error, 400.
 */
export async function readForm(c: Context, all = false): Promise<Record<string, string | File | (string | File)[]>> {
  try {
    return (await c.req.parseBody({ all })) as Record<string, string | File | (string | File)[]>;
  } catch {
    throw new ApiError(400, "The request body is not a well-formed form.", "malformed_body");
  }
}

/**
 * Reads the query string and validates it with a schema, like readBody: 422 `{ message, errors }` per
 * parameter. Each parameter's first value counts; the schema ignores the ones it does not name.
 */
export function readQuery<S extends z.ZodTypeAny>(c: Context, schema: S): z.output<S> {
  return validated(c.req.query(), schema);
}

/**
 * A path's id (`:id{[0-9]+}` already holds digits only): a number the database can hold, else the 404 the
 * route would give for a row that is not there (a larger number names no row, and PostgreSQL refuses to compare it).
 */
export function pathId(c: Context, notThere: string, name = "id"): number {
  const raw = c.req.param(name) ?? "";
  const id = /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
  if (!(id >= 1 && id <= PG_INT_MAX)) throw notFound(notThere);
  return id;
}

/**
 * Every body and query is checked here. After its schema, one check more: PostgreSQL refuses a NUL character
 * in text (a 500), so a value still holding one is refused on its field. It looks at what the schema made of the
 * input, so a schema may clean NULs away on purpose (the search box counts control characters as spaces).
 */
function validated<S extends z.ZodTypeAny>(raw: object, schema: S): z.output<S> {
  const result = schema.safeParse(raw);
  if (!result.success) throw invalid(zodErrors(result.error));
  const errors: Record<string, string[]> = {};
  findNul(result.data, errors);
  if (Object.keys(errors).length) throw invalid(errors);
  return result.data;
}

/**
 * Walks the value with a stack of its own, each entry linked to its parent so a path is spelled out only for
 * a field with a NUL: a deeply nested JSON body must cost neither the call stack nor quadratic memory.
 */
type Visit = { value: unknown; key: string; parent: Visit | null };
function findNul(root: unknown, errors: Record<string, string[]>) {
  const todo: Visit[] = [{ value: root, key: "", parent: null }];
  for (let at = todo.pop(); at; at = todo.pop()) {
    if (typeof at.value === "string") {
      if (!at.value.includes("\u0000")) continue;
      const path: string[] = [];
      for (let p: Visit | null = at; p?.parent; p = p.parent) path.unshift(p.key);
      errors[path.join(".") || "_"] = ["Remove the NUL character (\\u0000) from this field"];
    } else if (typeof at.value === "object" && at.value !== null) {
      for (const [key, value] of Object.entries(at.value)) todo.push({ value, key, parent: at });
    }
  }
}
