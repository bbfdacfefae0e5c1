import { mailSite } from "../member-mail/brand";
import { Hono, type Context } from "hono";
import { formatCents } from "../../domain/money";
import { refundMethodFor, REFUND_METHOD_LABELS } from "../../domain/refunds";
import { refundRequest } from "../../domain/schemas/refunds";
import { adjustmentsView, applyRefund, pursueRefunds, refundEffect, refundTarget, tellMembers } from "../billing/refunds";
import { sandboxProviders } from "../core/providers/registry";
import { pathId, readBody } from "../core/body";
import type { ApiEnv } from "../core/context";
import { notFound } from "../core/errors";
import { now, requireStaff } from "../core/middleware";
import { assertCan, requireCan } from "../core/permissions";

/**
 * A payment's refunds and chargebacks (issue 28): GET /api/payments/{id}/refunds shows what was given back and what
 * may still be; POST refunds some of it (`preview` first: the amount, how it goes back, what the member is told).
 * Staff with money rights in the payment's gym only. The refund is written down in the request's transaction and
 * goes to its provider once that is committed.
 */
const paymentId = (c: Context<ApiEnv>) => pathId(c, "No such payment.");

async function targetFor(c: Context<ApiEnv>, capability: "money.read" | "money.write", lock = false) {
  const target = await refundTarget(c.var.tenant, paymentId(c), lock);
  if (!target) throw notFound("No such payment.");
  assertCan(c.var.user!, capability, target.p.gym_id);
  return target;
}

export const refundRoutes = new Hono<ApiEnv>()
  .get("/payments/:id{[0-9]+}/refunds", requireStaff, requireCan("money.read"), async (c) => {
    const target = await targetFor(c, "money.read");
    const method = refundMethodFor({ paymentKind: target.kind, pifPayment: target.p.pif_payment });
    const paid = target.p.amount + target.p.surcharge;
    return c.json({
      data: {
        payment: { id: target.p.id, user_id: target.p.user_id, status: target.p.status, amount: paid, formatted_amount: formatCents(paid), created_at: target.p.created_at, period_start_at: target.p.period_start_at },
        method,
        method_label: REFUND_METHOD_LABELS[method],
        ...adjustmentsView(paid, target.adjustments),
      },
    });
  })
  .post("/payments/:id{[0-9]+}/refunds", requireStaff, requireCan("money.write"), async (c) => {
    const req = await readBody(c, refundRequest);
    if (req.preview) return c.json({ data: { preview: refundEffect(await targetFor(c, "money.write"), req) } });
    // Checked for the gym before the payment's row is locked and the refund written.
    await targetFor(c, "money.write");
    const done = await applyRefund(c.var.tenant, paymentId(c), req, c.var.user!.row.id, now(c));
    if (!done) throw notFound("No such payment.");
    if (!done.repeated) {
      const deps = c.var.deps;
      const at = now(c);
      const id = done.refund.id;
      c.var.afterCommit(async () => {
        if (done.effect?.through_provider) await pursueRefunds(deps.db, deps.providers ?? sandboxProviders(deps.db), { mailer: deps.mailer, site: mailSite(deps.config) }, at, [id]);
        else await tellMembers(deps.db, { mailer: deps.mailer, site: mailSite(deps.config) }, [id]);
      });
    }
    return c.json({ data: { refund: { id: done.refund.id, status: done.refund.status, amount: done.refund.amount }, effect: done.effect, repeated: done.repeated } }, done.repeated ? 200 : 201);
  });
