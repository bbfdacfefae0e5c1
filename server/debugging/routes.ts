import { Hono, type Context } from "hono";
import { localDay } from "../../domain/dates";
import { activeUserQuery, expectedPaymentsQueryOn } from "../../domain/schemas/debugging";
import { readQuery } from "../core/body";
import type { ApiEnv } from "../core/context";
import { requireStaff } from "../core/middleware";
import { assertCan, requireCan } from "../core/permissions";
import { activeUser } from "./active-user";
import { expectedPayments } from "./expected-payments";

const now = (c: Context<ApiEnv>) => c.var.deps.now?.() ?? new Date();

/** The support tools of SPEC §2's debug pages. */
export const debuggingRoutes = new Hono<ApiEnv>()
  /**
   * GET /api/expected-payments-debugging?from=&to=&gym=&mismatches=1&page=: what the billing engine expects to charge
   * per subscription in the range against what it charged, mismatches first. A gym's for those who see its money; the
   * whole organisation's for those who see money in every gym. Without from/to: the last four weeks up to today in
   * Auckland (domain/schemas/debugging.ts withDefaultDays).
   */
  .get("/expected-payments-debugging", requireStaff, requireCan("money.read"), async (c) => {
    const q = readQuery(c, expectedPaymentsQueryOn(localDay(now(c))));
    assertCan(c.var.user!, "money.read", q.gym ?? null);
    return c.json({ data: await expectedPayments(c.var.tenant, q, now(c)) });
  })
  /** GET /api/active-user-debugging?member=&day=: whether the member counts as active that day, and why. */
  .get("/active-user-debugging", requireStaff, requireCan("members.read"), async (c) => {
    const q = readQuery(c, activeUserQuery);
    return c.json({ data: await activeUser(c.var.tenant, c.var.user!, q.member, q.day, now(c)) });
  });
