import { data } from "@remix-run/node";
import { getRuntime } from "../../server/runtime";
import { listOutbox } from "../../server/mail/outbox";

/**
 * The demo outbox exists only while mail is not sent over SMTP. It reads the database directly: it is a
 * developer's window on mail the API has sent, not a part of the API.
 */
export async function outbox() {
  const { config, database } = await getRuntime();
  if (!config.outboxMail) throw data({ message: "Not found" }, { status: 404 });
  return listOutbox(database.db);
}
