import { outbox } from "../../lib/outbox.server";

/** [{ to, subject, text, html, sent_at }], newest first. */
export async function loader() {
  return Response.json(await outbox(), { headers: { "Cache-Control": "no-store" } });
}
