import { and, desc, eq, sql } from "drizzle-orm";
import { Hono, type Context } from "hono";
import { differenceInWords, DIFFERENCE_LABELS, PROVIDER_LABELS } from "../../domain/reconciliation";
import { explainSchema, reconciliationQuery } from "../../domain/schemas/reconciliation";
import { gyms, payments, reconciliation_differences, users } from "../core/db/schema";
import { pathId, readBody, readQuery } from "../core/body";
import type { ApiEnv } from "../core/context";
import { ApiError, notFound } from "../core/errors";
import { now, requireStaff } from "../core/middleware";
import { assertCan, requireCan } from "../core/permissions";

const PAGE = 50;

/**
 * The daily reconciliation's differences (issue 28, decision 0042). They concern every gym's money, so, as webhook
 * calls, they are the organisation's: only staff who hold the capability in every gym (organisation admins).
 */
const orgWide = (capability: "money.read" | "money.write") =>
  [
    requireCan(capability),
    async (c: Context<ApiEnv>, next: () => Promise<void>) => {
      assertCan(c.var.user!, capability, null);
      await next();
    },
  ] as const;

export const reconciliationRoutes = new Hono<ApiEnv>()
  /** GET /api/reconciliation?status=open|explained|corrected|all&page=: open ones by default, newest first; `open` counts every open one. */
  .get("/reconciliation", requireStaff, ...orgWide("money.read"), async (c) => {
    const t = c.var.tenant;
    const q = readQuery(c, reconciliationQuery);
    const status = q.status ?? "open";
    const page = q.page ?? 1;
    const where = t.where(reconciliation_differences, status === "all" ? undefined : eq(reconciliation_differences.status, status));
    const [rows, [{ total }], open] = await Promise.all([
      t.db
        .select({
          d: reconciliation_differences,
          member: { id: users.id, name: users.name },
          gym: gyms.name,
          resolver: sql<string | null>`(select u.name from users u where u.id = ${reconciliation_differences.resolved_by})`,
        })
        .from(reconciliation_differences)
        .innerJoin(gyms, eq(gyms.id, reconciliation_differences.gym_id))
        .leftJoin(payments, eq(payments.id, reconciliation_differences.payment_id))
        .leftJoin(users, eq(users.id, payments.user_id))
        .where(where)
        .orderBy(desc(reconciliation_differences.id))
        .limit(PAGE)
        .offset((page - 1) * PAGE),
      t.db.select({ total: sql<number>`count(*)::int` }).from(reconciliation_differences).where(where),
      t.db.$count(reconciliation_differences, t.where(reconciliation_differences, eq(reconciliation_differences.status, "open"))),
    ]);
    const data = rows.map(({ d, member, gym, resolver }) => ({
      id: d.id,
      provider: d.provider,
      provider_label: PROVIDER_LABELS[d.provider] ?? d.provider,
      kind: d.kind,
      kind_label: DIFFERENCE_LABELS[d.kind] ?? d.kind,
      in_words: differenceInWords(d.kind, d.provider, d.ours, d.theirs),
      status: d.status,
      day: d.day,
      gym,
      member: member?.id ? member : null,
      payment_id: d.payment_id,
      provider_reference: d.provider_reference,
      ours_amount: typeof d.ours?.amount === "number" ? d.ours.amount : null,
      theirs_amount: typeof d.theirs?.amount === "number" ? d.theirs.amount : null,
      ours_status: typeof d.ours?.status === "string" ? d.ours.status : null,
      theirs_status: typeof d.theirs?.status === "string" ? d.theirs.status : null,
      explanation: d.explanation,
      resolved_by: resolver,
      resolved_at: d.resolved_at,
      created_at: d.created_at,
    }));
    return c.json({ data: { data, meta: { page, per_page: PAGE, total, open, status } } });
  })
  /** POST /api/reconciliation/{id}/explain { explanation }: a person's note; an open difference becomes explained. */
  .post("/reconciliation/:id{[0-9]+}/explain", requireStaff, ...orgWide("money.write"), async (c) => {
    const t = c.var.tenant;
    const id = pathId(c, "No such difference.");
    const { explanation } = await readBody(c, explainSchema);
    const [found] = await t.db.select().from(reconciliation_differences).where(t.where(reconciliation_differences, eq(reconciliation_differences.id, id)));
    if (!found) throw notFound("No such difference.");
    if (found.status === "corrected") throw new ApiError(409, "This difference was corrected automatically: there is nothing to explain.", "already_corrected");
    const [row] = await t.db
      .update(reconciliation_differences)
      .set({ status: "explained", explanation, resolved_by: c.var.user!.row.id, resolved_at: now(c) })
      .where(t.where(reconciliation_differences, and(eq(reconciliation_differences.id, id))))
      .returning({ id: reconciliation_differences.id, status: reconciliation_differences.status, explanation: reconciliation_differences.explanation, resolved_at: reconciliation_differences.resolved_at });
    return c.json({ data: row });
  });


