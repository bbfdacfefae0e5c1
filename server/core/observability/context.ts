import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";

/**
 * The request a piece of work belongs to (issue 19): its id (sent back as X-Request-Id, carried into the in-process
 * API calls a page makes and into error reports), the route pattern that answered it, and who asked (ids only).
 */
export interface RequestContext {
  id: string;
  method: string;
  route?: string;
  user_id?: number;
  organisation_id?: number;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** An id given by a proxy in front (X-Request-Id) is kept when it looks like one; otherwise a new one. */
export const requestIdFrom = (given: string | null | undefined) => (given && /^[A-Za-z0-9._-]{8,128}$/.test(given) ? given : randomUUID());

export const runInRequest = <T>(context: RequestContext, work: () => T): T => storage.run(context, work);

/** The current request's context, if this work is part of one. */
export const currentRequest = (): RequestContext | undefined => storage.getStore();

/** Notes what the route and the person are, when they become known (the API's router, its session). */
export function noteRequest(fields: Partial<Omit<RequestContext, "id" | "method">>) {
  const store = storage.getStore();
  if (!store) return;
  for (const [k, v] of Object.entries(fields)) if (v !== undefined && !(k === "route" && store.route)) (store as unknown as Record<string, unknown>)[k] = v;
}
