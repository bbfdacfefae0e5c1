import { ProviderError } from "./errors";

/**
 * A provider call that takes longer than `ms` is given up as a retryable ProviderError: the billing run sends the
 * same idempotency key again next time, and must not wait on one hung connection meanwhile. For SDKs that set no
 * timeout of their own (gocardless-nodejs's got client, kisi-client's axios one is set at construction instead).
 */
export async function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([work, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new ProviderError(message, true)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
