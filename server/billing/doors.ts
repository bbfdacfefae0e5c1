import { and, eq, inArray, or, sql } from "drizzle-orm";
import { accessAt } from "../../domain/access";
import type { Db } from "../core/db/client";
import { access_control_credentials, access_control_integrations, organisation_users, subscriptions, users } from "../core/db/schema";
import { doorSystemOf } from "../doors/integration";
import type { DoorProvider } from "../core/providers/doors/door-provider";
import { ProviderError } from "../core/providers/errors";
import type { Providers } from "../core/providers/registry";
import { logWarning } from "../core/observability/log";

/**
 * The door says what the membership says (issue 11): a member whose grace period ran out unpaid is switched off
 * at the door system, and a member switched off whose membership lets them in again (staff settled it) is switched
 * back on. Our side of it is their door credentials' status (suspended ↔ active), changed only once the door
 * system has done its part, so a call that fails is simply made again by the next run. Members without a door
 * credential have nothing to open a door with and are left alone.
 */
export interface DoorReport {
  suspended: number;
  restored: number;
  /** Door calls that failed this run (tried again next run). */
  failed: number;
}

export async function syncDoorAccess(db: Db, providers: Providers, now: Date): Promise<DoorReport> {
  const report: DoorReport = { suspended: 0, restored: 0, failed: 0 };
  const candidates = await db
    .selectDistinct({
      organisationId: organisation_users.organisation_id,
      userId: organisation_users.user_id,
      email: users.email,
      name: users.name,
      s: subscriptions,
    })
    .from(access_control_credentials)
    .innerJoin(organisation_users, and(eq(organisation_users.organisation_id, access_control_credentials.organisation_id), eq(organisation_users.user_id, access_control_credentials.user_id)))
    .innerJoin(users, eq(users.id, organisation_users.user_id))
    .innerJoin(subscriptions, eq(subscriptions.id, organisation_users.latest_subscription_id))
    .where(
      or(
        and(eq(access_control_credentials.status, "active"), eq(subscriptions.upcoming_state, "failed")),
        eq(access_control_credentials.status, "suspended"),
      ),
    );
  // Each organisation's own door system when it connected one (server/doors/integration.ts), looked up once a run.
  const systems = new Map<number, DoorProvider>();
  const doorsFor = async (organisationId: number) => {
    if (!systems.has(organisationId)) {
      const [integration] = await db.select().from(access_control_integrations).where(eq(access_control_integrations.organisation_id, organisationId));
      systems.set(organisationId, doorSystemOf(integration ?? null, providers.doors));
    }
    return systems.get(organisationId)!;
  };
  for (const c of candidates) {
    const allowed = accessAt(c.s, now).allowed;
    // A suspended member still out stays as they are; an active one with a stopped membership is switched off.
    const from = allowed ? "suspended" : "active";
    const [held] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(access_control_credentials)
      .where(and(eq(access_control_credentials.organisation_id, c.organisationId), eq(access_control_credentials.user_id, c.userId), eq(access_control_credentials.status, from)));
    if (!held.n) continue;
    const doors = await doorsFor(c.organisationId);
    try {
      await doors.setAccess({ organisationId: c.organisationId, email: c.email, name: c.name }, allowed);
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      logWarning(`[doors] ${doors.name}: door access not changed`, err, { user_id: c.userId, organisation_id: c.organisationId });
      report.failed++;
      continue;
    }
    await db
      .update(access_control_credentials)
      .set({ status: allowed ? "active" : "suspended" })
      .where(
        and(
          eq(access_control_credentials.organisation_id, c.organisationId),
          eq(access_control_credentials.user_id, c.userId),
          inArray(access_control_credentials.status, [from]),
        ),
      );
    if (allowed) report.restored++;
    else report.suspended++;
  }
  return report;
}
