import type { ProviderMode } from "../charge-result";

/**
 * Push notifications to members' phones (OneSignal), as the billing e-mails send them too when the member allows
 * push (issue 11). One interface, two adapters: the sandbox (./sandbox.ts, the default: it keeps what it would
 * have sent where /dev/mail shows it) and OneSignal itself (./onesignal-live.ts, on the official SDK).
 */
export interface PushMessage {
  /** Who it is for: the member as the member app signs them in to OneSignal (its external id, ./external-id.ts). */
  externalId: string;
  heading: string;
  content: string;
  /** What tapping it opens. */
  url?: string | null;
  /** The same notification asked for twice is sent once (OneSignal keeps keys for 30 days). */
  idempotencyKey: string;
}

export interface PushProvider {
  readonly name: "onesignal";
  readonly mode: ProviderMode;
  /** The provider's id for the notification; null when it had no one to send it to. */
  send(message: PushMessage): Promise<{ id: string | null }>;
}

/** The id the member app gives OneSignal for a member when they sign in (OneSignal.login): `user-{our user id}`. */
export const pushExternalId = (userId: number) => `user-${userId}`;
