import type { ExtractSchema } from "hono/types";
import type { ClientErrorStatusCode, ServerErrorStatusCode } from "hono/utils/http-status";
import type { ApiRoutes } from "../../server/api/app";

/**
 * The gym API's contract, read off the API's own route chain (server/api/app.ts) by the types Hono's `hc`
 * client uses: each path, for each method, answers what its handler passes to `c.json`, after a trip
 * through JSON (Dates are strings). The web app's client takes a path pattern as the API writes it, without
 * the `{…}` of a route's pattern, and answers that path's type: a page that expects something else does not compile.
 */
type Schema = ExtractSchema<ApiRoutes>;

/** `/members/:id{[0-9]+}` → `/members/:id`: pages name a path as a person reads it. */
type Pattern<P> = P extends `${infer Head}{${string}}${infer Tail}` ? `${Head}${Pattern<Tail>}` : P;

export type Method = "get" | "post" | "put" | "delete";

type EndpointsOf<M extends Method> = {
  [P in keyof Schema as `$${M}` extends keyof Schema[P] ? Pattern<P & string> : never]: Schema[P][`$${M}` & keyof Schema[P]];
};

/** The paths that answer `M`, e.g. ApiPathFor<"get"> includes "/members/:id". */
export type PathFor<M extends Method> = keyof EndpointsOf<M> & string;

type Endpoint<M extends Method, P extends PathFor<M>> = EndpointsOf<M> extends infer E ? (P extends keyof E ? E[P] : never) : never;

/** What a successful answer carries: its `data` where the API wraps one (the client unwraps it), else the body. */
type Unwrapped<O> = O extends { data: infer D } ? D : O;

export type AnswerOf<M extends Method, P extends PathFor<M>> = Unwrapped<
  // A handler's `c.json(x)` is typed with any status; one that names an error status (`c.json(x, 404)`) is not a success.
  Extract<Exclude<Endpoint<M, P>, { status: ClientErrorStatusCode | ServerErrorStatusCode }>, { outputFormat: "json" }> extends { output: infer O } ? O : never
>;

/** The `:name` segments of a path pattern. */
type ParamNames<P> = P extends `${string}:${infer Name}/${infer Rest}` ? Name | ParamNames<`/${Rest}`> : P extends `${string}:${infer Name}` ? Name : never;

export type Query = Record<string, string | number | undefined>;

/** A call's options: the path's params are required when it has any. */
export type CallOptions<P extends string, Extra> = [ParamNames<P>] extends [never]
  ? [options?: Extra & { params?: undefined }]
  : [options: Extra & { params: Record<ParamNames<P>, string | number> }];
