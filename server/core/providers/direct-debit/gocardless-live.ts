import type { Payment } from "gocardless-nodejs";
import { ProviderError } from "../errors";
import { gocardlessRefundStatus, type ProviderRefund } from "../refunds";
import { lazily } from "../lazily";
import { withTimeout } from "../timeout";
import type { DirectDebitPayment, DirectDebitProvider, MandateSetupResult } from "./direct-debit-provider";

export interface GoCardlessSettings {
  /** The gym's access token (from connecting its GoCardless account), or the deployment's own. */
  accessToken: string;
  /** GoCardless's own environments: its test-mode sandbox, or live. */
  environment: "live" | "sandbox";
}

/**
 * Direct debit through GoCardless itself: a payment against the member's mandate, created with our idempotency
 * key (GoCardless answers a repeated key with the payment it created), looked up by id for its state now. A
 * failed payment's cause is on its `failed` event, not on the payment, so it is read from there. Network
 * failures, 5xx, rate limits and credentials GoCardless refuses leave the payment pending to go again (the
 * member is not to blame for those); a validation or state error (an inactive mandate) is a decline.
 */
export function gocardlessDirectDebits(settings: GoCardlessSettings): DirectDebitProvider {
  // The SDK is loaded the first time it is used: a server on the sandbox never pays for it (../lazily.ts).
  const sdk = lazily(async () => {
    const [{ default: gocardless, Environments }, errors] = await Promise.all([import("gocardless-nodejs"), import("gocardless-nodejs/errors")]);
    return { client: gocardless(settings.accessToken, settings.environment === "live" ? Environments.Live : Environments.Sandbox), errors };
  });

  const call = async <T>(what: string, work: (client: Awaited<ReturnType<typeof sdk>>["client"]) => Promise<T>): Promise<T> => {
    const { client, errors } = await sdk();
    const { ApiError, AuthenticationError, GoCardlessInternalError, PermissionsError, RateLimitError } = errors;
    try {
      return await withTimeout(work(client), 20_000, `GoCardless did not answer ${what} in 20 s`);
    } catch (err) {
      if (err instanceof ProviderError) throw err;
      if (err instanceof GoCardlessInternalError || err instanceof RateLimitError || err instanceof AuthenticationError || err instanceof PermissionsError) {
        throw new ProviderError(`GoCardless: ${err.message}`, true);
      }
      if (err instanceof ApiError) throw err;
      // Not an answer from GoCardless at all (a refused connection, a reset): the same key may be sent again.
      throw new ProviderError(`GoCardless: ${(err as Error).message}`, true);
    }
  };

  const withCause = async (p: Payment): Promise<DirectDebitPayment> => {
    const state: DirectDebitPayment = { id: p.id!, status: p.status as DirectDebitPayment["status"], chargeDate: p.charge_date ?? null };
    if (state.status !== "failed" && state.status !== "charged_back" && state.status !== "cancelled") return state;
    const events = await call("its events", (client) => client.events.list({ payment: p.id!, action: state.status, limit: 1 }));
    const details = events.events?.[0]?.details;
    return { ...state, cause: details?.cause ?? null, description: details?.description ?? null };
  };

  return {
    name: "gocardless",
    mode: "live",
    /**
     * A billing request for a BECS NZ mandate, with the member's details and the account we checked given to it,
     * then its hosted flow, where the person confirms the authority (https://developer.gocardless.com/billing-requests/overview).
     */
    async startMandate(req) {
      try {
        const request = await call("a billing request", (client) =>
          client.billingRequests.create({ mandate_request: { scheme: "becs_nz", currency: "NZD" }, metadata: { reference: req.reference } }, `${req.idempotencyKey}:request`),
        );
        const id = request.id!;
        await call("the customer's details", (client) => client.billingRequests.collectCustomerDetails(id, { customer: { email: req.email, given_name: req.givenName, family_name: req.familyName } }));
        await call("the bank account", (client) =>
          client.billingRequests.collectBankAccount(id, {
            account_holder_name: req.accountHolder,
            bank_code: req.account.bank,
            branch_code: req.account.branch,
            account_number: req.account.number,
            account_number_suffix: req.account.suffix,
            country_code: "NZ",
            currency: "NZD",
          }),
        );
        const flow = await call("a billing request flow", (client) =>
          client.billingRequestFlows.create({ redirect_uri: req.successUrl.replace("{BILLING_REQUEST_ID}", id), exit_uri: req.cancelUrl, links: { billing_request: id }, lock_bank_account: true, lock_customer_details: true }),
        );
        return { id, url: flow.authorisation_url! };
      } catch (err) {
        // Refused for what was sent (GoCardless judged the account or details invalid): not worth sending again.
        if (err instanceof (await sdk()).errors.ApiError) throw new ProviderError(`GoCardless: ${err.message}`, false);
        throw err;
      }
    },
    async readMandate(id): Promise<MandateSetupResult | null> {
      try {
        const request = await call(`billing request ${id}`, (client) => client.billingRequests.find(id));
        if (request.status !== "fulfilled") return { status: request.status === "cancelled" ? "expired" : "open" };
        const details = request.resources?.customer_bank_account;
        return {
          status: "complete",
          reference: (request.metadata as Record<string, string> | undefined)?.reference ?? null,
          mandate: request.links!.mandate_request_mandate!,
          accountHolder: details?.account_holder_name ?? "",
          accountNumber: details?.account_number_ending ? `••${details.account_number_ending}` : "",
        };
      } catch (err) {
        const { ApiError } = (await sdk()).errors;
        if (err instanceof ApiError && Number(err.code) === 404) return null;
        if (err instanceof ApiError) throw new ProviderError(`GoCardless: ${err.message}`, false);
        throw err;
      }
    },
    async collect(req) {
      if (!req.mandate) return { id: "", status: "failed", chargeDate: null, cause: "no_mandate", description: "No GoCardless mandate is saved for this member." };
      try {
        const payment = await call("a new payment", (client) =>
          client.payments.create(
            {
              amount: req.amount,
              currency: "NZD",
              charge_date: req.chargeDate ?? undefined,
              description: req.description,
              metadata: req.metadata,
              links: { mandate: req.mandate! },
            },
            req.idempotencyKey,
          ),
        );
        return withCause(payment);
      } catch (err) {
        if (!(err instanceof (await sdk()).errors.ApiError)) throw err;
        // Refused for what it is (an inactive mandate, a charge date it cannot meet): nothing was created.
        const reason = err.errors?.[0]?.reason ?? err.code ?? "validation_failed";
        const cause = reason === "mandate_is_inactive" || reason === "mandate_not_active" ? "mandate_cancelled" : reason;
        return { id: "", status: "failed", chargeDate: null, cause, description: `GoCardless: ${err.message}` };
      }
    },
    /**
     * A refund of one of the creditor's payments, with our key; GoCardless asks for the running total refunded so
     * far as a confirmation, so two refunds made at once cannot both pass (https://developer.gocardless.com/api-reference#core-endpoints-refunds).
     */
    async refund(req) {
      try {
        const refund = await call("a new refund", (client) =>
          client.refunds.create(
            { amount: req.amount, total_amount_confirmation: req.refundedBefore + req.amount, links: { payment: req.paymentReference }, metadata: req.metadata },
            req.idempotencyKey,
          ),
        );
        return refundOf(refund, req.paymentReference);
      } catch (err) {
        const { ApiError } = (await sdk()).errors;
        if (err instanceof ApiError) throw new ProviderError(`GoCardless refused the refund: ${err.message}`, false);
        throw err;
      }
    },
    async retrieveRefund(id) {
      try {
        return refundOf(await call(`refund ${id}`, (client) => client.refunds.find(id)), null);
      } catch (err) {
        const { ApiError } = (await sdk()).errors;
        if (err instanceof ApiError && Number(err.code) === 404) return null;
        if (err instanceof ApiError) throw new ProviderError(`GoCardless: ${err.message}`, true);
        throw err;
      }
    },
    async listRefunds(paymentReference) {
      const list = await call(`the refunds of ${paymentReference}`, (client) => client.refunds.list({ payment: paymentReference, limit: 100 }));
      return (list.refunds ?? []).map((r) => refundOf(r, paymentReference));
    },
    /** The creditor's payments made in the window (https://developer.gocardless.com/api-reference#payments-list-payments), every page. */
    async listPayments(window) {
      const listed = [];
      let after: string | undefined;
      do {
        const page = await call("the payments of the window", (client) =>
          client.payments.list({ created_at: { gte: window.from.toISOString(), lt: window.until.toISOString() }, limit: 500, ...(after ? { after } : {}) }),
        );
        for (const payment of page.payments ?? []) {
          const made = { amount: Number(payment.amount), currency: String(payment.currency ?? "").toLowerCase(), account: null, metadata: { ...(payment.metadata as Record<string, string> | undefined) } };
          listed.push({ ...(await withCause(payment)), made, created: new Date(payment.created_at!) });
        }
        after = page.meta?.cursors?.after ?? undefined;
      } while (after);
      return listed;
    },
    /** Payments charged back or failed in the window, from their events (https://developer.gocardless.com/api-reference#events-list-events), every page. */
    async listTakenBack(window) {
      const listed = [];
      const seen = new Set<string>();
      for (const action of ["charged_back", "failed"]) {
        let after: string | undefined;
        do {
          const page = await call(`the ${action} events of the window`, (client) =>
            client.events.list({ resource_type: "payments", action, created_at: { gte: window.from.toISOString(), lt: window.until.toISOString() }, limit: 500, ...(after ? { after } : {}) } as never),
          );
          for (const event of page.events ?? []) {
            const id = event.links?.payment;
            if (!id || seen.has(id)) continue;
            seen.add(id);
            const payment = await call(`payment ${id}`, (client) => client.payments.find(id));
            const made = { amount: Number(payment.amount), currency: String(payment.currency ?? "").toLowerCase(), account: null, metadata: { ...(payment.metadata as Record<string, string> | undefined) } };
            listed.push({ ...(await withCause(payment)), made, created: new Date(event.created_at!) });
          }
          after = page.meta?.cursors?.after ?? undefined;
        } while (after);
      }
      return listed;
    },
    /** The creditor's refunds made in the window, every page. */
    async listRefundsBetween(window) {
      const listed: ProviderRefund[] = [];
      let after: string | undefined;
      do {
        const page = await call("the refunds of the window", (client) =>
          client.refunds.list({ created_at: { gte: window.from.toISOString(), lt: window.until.toISOString() }, limit: 500, ...(after ? { after } : {}) }),
        );
        for (const r of page.refunds ?? []) listed.push({ ...refundOf(r, null), created: r.created_at ? new Date(r.created_at) : null });
        after = page.meta?.cursors?.after ?? undefined;
      } while (after);
      return listed;
    },
    /** With the gym's token: GoCardless answers only for its own creditor's payments (404 for another's). */
    async retrieve(id) {
      try {
        const payment = await call(`payment ${id}`, (client) => client.payments.find(id));
        const made = { amount: Number(payment.amount), currency: String(payment.currency ?? "").toLowerCase(), account: null, metadata: { ...(payment.metadata as Record<string, string> | undefined) } };
        return { ...(await withCause(payment)), made };
      } catch (err) {
        const { ApiError } = (await sdk()).errors;
        if (err instanceof ApiError && Number(err.code) === 404) return null;
        if (err instanceof ApiError) throw new ProviderError(`GoCardless: ${err.message}`, true);
        throw err;
      }
    },
  };
}

/** A GoCardless refund as ours: its status, amount in cents and the payment it refunds. */
function refundOf(r: { id?: string; status?: string; amount?: string | number; links?: { payment?: string }; metadata?: unknown }, payment: string | null): ProviderRefund {
  return {
    id: r.id!,
    status: gocardlessRefundStatus(r.status ?? null),
    amount: Number(r.amount),
    paymentReference: r.links?.payment ?? payment ?? "",
    metadata: { ...(r.metadata as Record<string, string> | undefined) },
  };
}
