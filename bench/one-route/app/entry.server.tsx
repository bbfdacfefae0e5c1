import type { EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToString } from "react-dom/server";

/** The whole page in one string, as ours sends it whole (app/entry.server.tsx), without Remix's default bot check. */
export default function handleRequest(request: Request, status: number, headers: Headers, context: EntryContext) {
  const html = `<!DOCTYPE html>${renderToString(<RemixServer context={context} url={request.url} />)}`;
  headers.set("Content-Type", "text/html; charset=utf-8");
  return new Response(html, { status, headers });
}
