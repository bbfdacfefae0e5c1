import type { IncomingMessage } from "node:http";
import { Transform } from "node:stream";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { ApiError } from "../core/errors";
import { PHOTO_BODY_LIMIT } from "../members/photo";
import { MAX_IMPORT_BYTES } from "../imports/csv-rows";

const IMPORT_BODY_LIMIT = MAX_IMPORT_BYTES + 1024 * 1024;

/** JSON bodies and forms, pages and API alike: the largest real one (a member's edit form) is a few KB. */
export const DEFAULT_BODY_LIMIT = 64 * 1024;

/**
 * The only paths allowed more than the default. A page action posted with JavaScript goes to the route's
 * `.data` URL (single fetch), so each page path is matched with and without it.
 */
const LIMITS: [RegExp, number][] = [
  [/^\/members\/\d+\/photo(\.data)?$/, PHOTO_BODY_LIMIT],
  [/^\/api\/members\/\d+\/profile-picture$/, PHOTO_BODY_LIMIT],
  [/^\/take-photo(\.data)?$/, PHOTO_BODY_LIMIT],
  [/^\/api\/profile-picture$/, PHOTO_BODY_LIMIT],
  [/^\/gyms\/\d+\/edit(\.data)?$/, PHOTO_BODY_LIMIT],
  [/^\/api\/gyms\/\d+\/logo$/, PHOTO_BODY_LIMIT],
  // A member import's file (issue 15): up to 40 MB of CSV, uploaded or pasted.
  [/^\/gyms\/\d+\/imports\/new(\.data)?$/, IMPORT_BODY_LIMIT],
  [/^\/api\/gyms\/\d+\/imports$/, IMPORT_BODY_LIMIT],
];

export function bodyLimitFor(pathname: string): number {
  return LIMITS.find(([path]) => path.test(pathname))?.[1] ?? DEFAULT_BODY_LIMIT;
}

/** An ApiError, so the API answers it as the 413 it is rather than logging a failure of its own. */
export class BodyTooLarge extends ApiError {
  constructor(public limit: number) {
    super(413, "The request body is too large.", "payload_too_large");
  }
}

/** The declared Content-Length is over the limit: refuse without reading a byte. */
export function declaredTooLarge(req: IncomingMessage, limit: number): boolean {
  const declared = Number(req.headers["content-length"] ?? 0);
  return Number.isFinite(declared) && declared > limit;
}

/**
 * The request body as a web stream that fails with BodyTooLarge as soon as more than `limit` bytes have
 * come in, whatever Content-Length said (a chunked body has none). It reads only as fast as its reader
 * does (backpressure), so at most the limit plus a chunk or two is ever read. Past the limit it stops
 * reading the socket (`req` is paused, never drained) and calls `onTooLarge` to answer 413.
 */
export function limitedBody(req: IncomingMessage, limit: number, onTooLarge: (err: BodyTooLarge) => void): ReadableStream<Uint8Array> {
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > limit ? new BodyTooLarge(limit) : null, chunk);
    },
  });
  counter.once("error", (err) => {
    req.unpipe(counter);
    req.pause();
    if (err instanceof BodyTooLarge) onTooLarge(err);
  });
  req.once("error", (err) => counter.destroy(err));
  return createReadableStreamFromReadable(req.pipe(counter)) as ReadableStream<Uint8Array>;
}
