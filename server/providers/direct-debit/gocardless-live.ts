import type { Payment } from "gocardless-nodejs";
import { ProviderError } from "../errors";
import { lazily } from "../lazily";
import { withTimeout } from "../timeout";
import type { DirectDebitPayment, DirectDebitProvider } from "./direct-debit-provider";

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
    async retrieve(id) {
      try {
        return await withCause(await call(`payment ${id}`, (client) => client.payments.find(id)));
      } catch (err) {
        const { ApiError } = (await sdk()).errors;
        if (err instanceof ApiError && Number(err.code) === 404) return null;
        if (err instanceof ApiError) throw new ProviderError(`GoCardless: ${err.message}`, true);
        throw err;
      }
    },
  };
}
