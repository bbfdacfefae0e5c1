import { data } from "@remix-run/node";
import { config, type Config } from "../../server/core/config";
import { getRuntime } from "../../server/runtime";
import { listOutbox, listPushOutbox } from "../../server/core/mail/outbox";

/**
 * The demo outbox exists only while mail is not sent over SMTP. It reads the database directly: it is a
 * developer's window on mail the API has sent, not a part of the API.
 */
export async function outbox() {
  const { config, database } = await getRuntime();
  if (!config.outboxMail) throw data({ message: "Not found" }, { status: 404 });
  return listOutbox(database.db);
}

/** The push notifications the sandbox OneSignal kept: there only while mail goes to the outbox too (a demo or development). */
export async function pushOutbox() {
  const { config, database } = await getRuntime();
  if (!config.outboxMail) throw data({ message: "Not found" }, { status: 404 });
  return listPushOutbox(database.db);
}

/**
 * Where a code page may say the demo's mail is read: /dev/mail while mail goes to the outbox (a demo, or
 * development), and nowhere once SMTP_URL sends real mail. A production server without SMTP_URL does not start
 * unless DEMO_MODE is on, so a live site never shows it.
 */
export function outboxHint(cfg: Pick<Config, "outboxMail"> = config()): string | null {
  return cfg.outboxMail ? "/dev/mail" : null;
}
