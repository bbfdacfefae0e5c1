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

/** The API's largest page number for a member's payments and visits. */
const MAX_PAGE = 100_000;

/**
 * A page number from the page's own query string (`?payments_page=`): a link anyone may edit, so anything
 * but a whole number counts as the first page and a large one as the last the API serves, not an error page.
 */
export function pageQuery(url: URL, name: string): number {
  const page = Number(url.searchParams.get(name));
  return Number.isInteger(page) && page >= 1 ? Math.min(page, MAX_PAGE) : 1;
}
