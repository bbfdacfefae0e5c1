/**
 * A provider could not be asked, or refused the request itself (not a decline): the outcome is unknown. The
 * billing run leaves a payment pending when `retryable` (the same request, with the same idempotency key, goes
 * again next run) and fails it with `provider_refused` otherwise.
 */
export class ProviderError extends Error {
  constructor(
    message: string,
    /** Whether sending the same request again (same idempotency key) may succeed. */
    public retryable: boolean,
  ) {
    super(message);
  }
}
