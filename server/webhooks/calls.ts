import { desc, eq, gte, lt, sql } from "drizzle-orm";
import type { z } from "zod";
import { addCalendarDays, startOfLocalDay } from "../../domain/dates";
import type { webhookCallsQuery } from "../../domain/schemas/webhooks";
import { webhook_calls } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";

const PAGE = 50;

/** A page of the organisation's webhook calls, newest first, without their bodies (also the settings page's Akahu deliveries). */
export async function listWebhookCalls(t: Tenant, q: z.output<typeof webhookCallsQuery>) {
  const where = t.where(
    webhook_calls,
    q.provider ? eq(webhook_calls.provider, q.provider) : undefined,
    q.status ? eq(webhook_calls.status, q.status) : undefined,
    q.from ? gte(webhook_calls.received_at, startOfLocalDay(q.from)) : undefined,
    q.to ? lt(webhook_calls.received_at, startOfLocalDay(addCalendarDays(q.to, 1))) : undefined,
  );
  const page = q.page ?? 1;
  const [rows, [{ total }]] = await Promise.all([
    t.db
      .select({
        id: webhook_calls.id,
        provider: webhook_calls.provider,
        event_id: webhook_calls.event_id,
        event_type: webhook_calls.event_type,
        status: webhook_calls.status,
        result: webhook_calls.result,
        duration_ms: webhook_calls.duration_ms,
        replay_of_id: webhook_calls.replay_of_id,
        received_at: webhook_calls.received_at,
      })
      .from(webhook_calls)
      .where(where)
      .orderBy(desc(webhook_calls.received_at), desc(webhook_calls.id))
      .limit(PAGE)
      .offset((page - 1) * PAGE),
    t.db
      .select({ total: sql<number>`count(*)::int` })
      .from(webhook_calls)
      .where(where),
  ]);
  return { data: rows, meta: { page, per_page: PAGE, total } };
}
