import type { Context } from "hono";
import type { ApiEnv } from "../core/context";
import type { Db } from "../core/db/client";
import { ApiError, invalid } from "../core/errors";
import { now } from "../core/middleware";
import { webhookSecrets } from "../core/webhooks/request-secrets";
import { doorEvent, kisiSigned, recordDoorEvent } from "./events";

/**
 * The door system's webhook (POST /api/webhooks/kisi, ../webhooks/incoming.ts, on the system's handle) and the
 * sandbox's door panel (on its request's tenant handle) share this: a signed event checked, then recorded.
 */
export async function receiveKisi(c: Context<ApiEnv>, db: Db, body: string, signature: string | undefined) {
  const secret = (await webhookSecrets(c)).kisi?.secret;
  if (!secret || !kisiSigned(body, signature, secret)) throw new ApiError(400, "The X-Kisi-Signature does not match the body.", "bad_signature");
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new ApiError(400, "The body is not JSON.", "malformed_body");
  }
  const parsed = doorEvent.safeParse(json);
  if (!parsed.success) throw invalid({ _: ["Not a Kisi event"] });
  return recordDoorEvent(db, parsed.data, now(c));
}
