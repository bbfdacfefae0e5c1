import type { Params } from "@remix-run/react";
import { PG_INT_MAX } from "../../domain/schemas/ids";

/**
 * A route's id parameter as a number, or the 404 page: only a positive integer within PostgreSQL's integer
 * range, written plainly (no sign, no leading zero, no exponent). Remix hands params over decoded, so an
 * unchecked `..%2F…` would otherwise walk the API path the route builds from it.
 */
export function idParam(params: Params, name: string): number {
  const raw = params[name] ?? "";
  const id = /^[1-9][0-9]{0,9}$/.test(raw) ? Number(raw) : NaN;
  if (!(id <= PG_INT_MAX)) throw new Response("Not found.", { status: 404, statusText: "Not Found" });
  return id;
}
