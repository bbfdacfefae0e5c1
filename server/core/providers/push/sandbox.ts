import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { push_outbox } from "../../db/schema";
import type { PushProvider } from "./push-provider";

/**
 * The offline OneSignal: it "delivers" by keeping each notification in `push_outbox`, which /dev/mail shows beside
 * the e-mails, once per idempotency key as OneSignal does.
 */
export function sandboxPush(db: Db, appId: string): PushProvider {
  return {
    name: "onesignal",
    mode: "sandbox",
    async send(message) {
      const [written] = await db
        .insert(push_outbox)
        .values({ app_id: appId, notification_id: randomUUID(), external_id: message.externalId, heading: message.heading, content: message.content, url: message.url ?? null, idempotency_key: message.idempotencyKey })
        .onConflictDoNothing()
        .returning({ id: push_outbox.notification_id });
      if (written) return { id: written.id };
      const [sent] = await db.select({ id: push_outbox.notification_id }).from(push_outbox).where(eq(push_outbox.idempotency_key, message.idempotencyKey));
      return { id: sent?.id ?? null };
    },
  };
}
