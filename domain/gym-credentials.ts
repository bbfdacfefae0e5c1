/** The providers a gym gives its own keys for, without the schemas (./schemas/gyms.ts), so the gym page loads no zod. */
/**
 * The services whose credentials a gym stores (SPEC §3 Gym), each field write-only: an empty field keeps what is
 * stored, `clear` removes them all. The body is flat (`{ app_id, key, secret, clear }`).
 */
export const GYM_CREDENTIALS = {
  branch: { label: "Deep links (Branch)", fields: { app_id: "App id", key: "Key", secret: "Secret" } },
  akahu: { label: "Open banking (Akahu)", fields: { app_token: "App token", secret: "App secret" } },
  onesignal: { label: "Push notifications (OneSignal)", fields: { app_id: "App id", api_auth_key: "REST API key" } },
} as const;
export type CredentialService = keyof typeof GYM_CREDENTIALS;
