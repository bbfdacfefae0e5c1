/** What /api/webhooks/{provider} answers a call (./receive.ts), refused ones too (./refused.ts). */
export interface Answer {
  status: 200 | 401 | 429 | 503;
  /** call_id: the stored call, or null for a refused call beyond the bounds (./refused.ts). */
  body: { message: string; call_id: number | null; result?: string };
  /** Seconds, with a 429. */
  retryAfter?: number;
}
