import type { Payment } from "akahu";
import { ProviderError } from "../errors";
import { lazily } from "../lazily";
import { statementField, toDollars, type AkahuWebhookPayload, type BankPayment, type BankProvider, type SharedAccount } from "./bank-provider";

export interface AkahuSettings {
  /** The gym's Akahu app (or the deployment's): its app token and secret. */
  appToken: string;
  appSecret: string;
  /** Tests point the SDK at a local fake that answers as Akahu documents. */
  host?: string;
  port?: number;
  protocol?: "http" | "https";
}

/**
 * Akahu's webhook signing keys, shared by every client in this process: a key is fetched once (GET /keys/{id}) and
 * kept a day, as Akahu advises; a newer key id replaces it (Akahu rotates keys by issuing a higher id).
 */
// Per process: every process fetches the same keys, so a cold cache costs one request, never a wrong answer.
const keyCache = new Map<string, string>();
const sharedKeyCache = { get: (key: string) => keyCache.get(key) ?? null, set: (key: string, value: string) => void keyCache.set(key, value) };

interface AkahuErrorLike {
  isAkahuError?: boolean;
  status?: number;
  message: string;
}

/**
 * Bank payments through Akahu itself: POST /payments from the member's connected account to the gym's, sent with
 * our idempotency key, and GET /payments/{id} for its state now. A 4xx for the request itself (an account the
 * token cannot pay from, an amount over a limit) is a decline with Akahu's words; a network failure, 5xx or 429 leaves the payment
 * pending to go again with the same key.
 */
export function akahuBank(settings: AkahuSettings): BankProvider {
  // The SDK is loaded the first time it is used (../lazily.ts).
  const akahu = lazily(async () => {
    const { AkahuClient } = await import("akahu");
    return new AkahuClient({
      appToken: settings.appToken,
      appSecret: settings.appSecret,
      host: settings.host,
      port: settings.port,
      protocol: settings.protocol,
      timeout: 20_000,
      retries: 2,
    });
  });
  const asState = (p: Payment): BankPayment => ({ id: p._id, status: p.status, statusCode: p.status_code ?? null, statusText: p.status_text ?? null });
  /** A 4xx for the request itself (not 429) is Akahu refusing it: its status and words; anything else may pass if sent again. */
  const refusal = (err: unknown): { status: number; message: string } => {
    const e = err as AkahuErrorLike;
    if (e.isAkahuError && e.status && e.status >= 400 && e.status < 500 && e.status !== 429) return { status: e.status, message: e.message };
    throw new ProviderError(`Akahu: ${e.message}`, true);
  };
  return {
    name: "akahu",
    mode: "live",
    /** https://developers.akahu.nz/docs/authorizing-with-oauth2: enduring consent, the member's e-mail prefilled. */
    async authorisationUrl(req) {
      return (await akahu()).auth.buildAuthorizationUrl({ redirect_uri: req.redirectUri, state: req.state, email: req.email, scope: "ENDURING_CONSENT" });
    },
    async exchange(code, redirectUri) {
      try {
        const token = await (await akahu()).auth.exchange(code, redirectUri);
        return { token: token.access_token };
      } catch (err) {
        const refused = refusal(err);
        // A code used twice, expired or not ours: the member connects again; anything else may be tried again.
        throw new ProviderError(`Akahu: ${(err as Error).message}`, !refused);
      }
    },
    async accounts(token): Promise<SharedAccount[]> {
      try {
        const list = await (await akahu()).accounts.list(token);
        return list.map((a) => ({
          id: a._id,
          name: a.name,
          accountNumber: a.formatted_account ?? null,
          bank: a.connection.name,
          canPay: a.status === "ACTIVE" && a.attributes.includes("PAYMENT_FROM"),
        }));
      } catch (err) {
        throw new ProviderError(`Akahu: ${(err as Error).message}`, !refusal(err));
      }
    },
    async pay(req) {
      try {
        const client = await akahu();
        const payment = await client.payments.create(
          req.token,
          {
            from: req.fromAccount,
            amount: toDollars(req.amount),
            to: req.to,
            meta: {
              destination: {
                particulars: statementField(req.statement.particulars),
                code: statementField(req.statement.code),
                reference: statementField(req.statement.reference),
              },
            },
          },
          { idempotencyKey: req.idempotencyKey },
        );
        return asState(payment);
      } catch (err) {
        // Refused for what it is: nothing was paid. Akahu's 401 or 403 means the member's token no longer works.
        const refused = refusal(err);
        const code = refused.status === 401 || refused.status === 403 ? "AUTHENTICATION_FAILED" : "INVALID_REQUEST";
        return { id: "", status: "DECLINED", statusCode: code, statusText: `Akahu: ${refused.message}` };
      }
    },
    /** With the member's token: Akahu shows a user only the payments made from their own accounts. */
    async retrieve(token, id) {
      try {
        const payment = await (await akahu()).payments.get(token, id);
        const reference = payment.meta?.destination?.reference;
        // Akahu pays in New Zealand dollars only, and counts them in dollars.
        const made = { amount: Math.round(payment.amount * 100), currency: "nzd", account: null, metadata: (reference ? { reference } : {}) as Record<string, string> };
        return { ...asState(payment), made };
      } catch (err) {
        if ((err as AkahuErrorLike).isAkahuError && (err as AkahuErrorLike).status === 404) return null;
        throw new ProviderError(`Akahu: ${(err as Error).message}`, true);
      }
    },
    async verifyWebhook(body, keyId, signature): Promise<AkahuWebhookPayload> {
      if (!signature || !keyId) throw new Error("No X-Akahu-Signature or X-Akahu-Signing-Key header.");
      return (await (await akahu()).webhooks.validateWebhook(keyId, signature, body, { cache: sharedKeyCache })) as unknown as AkahuWebhookPayload;
    },
  };
}
