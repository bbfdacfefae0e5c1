import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { sandbox_sessions } from "../db/schema";

/**
 * The sandbox providers' hosted pages (issue 13), kept as the real providers keep theirs: opened by our server with
 * where to send the person back, completed or cancelled by the person on the page, read back by our server. A
 * session opened again with the same idempotency key is the same session, as Stripe and GoCardless answer a
 * repeated request. Sessions expire after a day, as a Stripe Checkout session does.
 */
export type SandboxSession = typeof sandbox_sessions.$inferSelect;
export type SandboxProvider = SandboxSession["provider"];

const LIFETIME_MS = 24 * 60 * 60 * 1000;

export function sandboxSessions(db: Db, provider: SandboxProvider, prefix: string) {
  return {
    async open(req: { idempotencyKey: string; successUrl: string; cancelUrl: string; request: Record<string, string | null> }, now = new Date()): Promise<SandboxSession> {
      const id = `${prefix}_sandbox_${createHash("sha256").update(`${provider}:${req.idempotencyKey}`).digest("hex").slice(0, 24)}`;
      await db
        .insert(sandbox_sessions)
        .values({ id, provider, success_url: req.successUrl, cancel_url: req.cancelUrl, request: req.request, expires_at: new Date(now.getTime() + LIFETIME_MS), created_at: now })
        .onConflictDoNothing();
      return (await this.read(id, now))!;
    },
    /** The session as it stands; an open one past its time reads as expired. Null for another provider's or none. */
    async read(id: string, now = new Date()): Promise<SandboxSession | null> {
      const [row] = await db.select().from(sandbox_sessions).where(eq(sandbox_sessions.id, id));
      if (!row || row.provider !== provider) return null;
      return row.status === "open" && row.expires_at <= now ? { ...row, status: "expired" } : row;
    },
    /** Completed or cancelled on its page; "expired" also marks a connection's code as used (good once). */
    async finish(id: string, status: "complete" | "cancelled" | "expired", result: Record<string, unknown> | null) {
      await db.update(sandbox_sessions).set({ status, result }).where(eq(sandbox_sessions.id, id));
    },
  };
}

/** Where a finished page sends the person: the success URL with the session's id put in, or the cancel URL. */
export function returnUrl(session: SandboxSession): string {
  // Stripe puts the session's id where the address says {CHECKOUT_SESSION_ID}; our GoCardless return names {BILLING_REQUEST_ID}.
  return session.status === "complete" ? session.success_url.replace(/\{(CHECKOUT_SESSION_ID|BILLING_REQUEST_ID)\}/, encodeURIComponent(session.id)) : session.cancel_url;
}
