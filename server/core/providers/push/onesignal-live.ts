import { ProviderError } from "../errors";
import { lazily } from "../lazily";
import { withTimeout } from "../timeout";
import type { PushProvider } from "./push-provider";

export interface OneSignalSettings {
  /** The gym's OneSignal app (SPEC §3: push service app id and api auth key). */
  appId: string;
  apiKey: string;
  /** Tests point the SDK at a local fake: http://127.0.0.1:port */
  baseUrl?: string;
}

/**
 * Push through OneSignal itself: one notification to the member's external id on the push channel, with our
 * idempotency key. A notification OneSignal could not address (the member never opened the app) comes back
 * without an id and counts as not sent; a failure to reach OneSignal is a retryable ProviderError.
 */
export function oneSignalPush(settings: OneSignalSettings): PushProvider {
  // The SDK is loaded the first time it is used (../lazily.ts).
  const sdk = lazily(async () => {
    const OneSignal = await import("@onesignal/node-onesignal");
    const config = OneSignal.createConfiguration({
      restApiKey: settings.apiKey,
      ...(settings.baseUrl ? { baseServer: new OneSignal.ServerConfiguration(settings.baseUrl, {}) } : {}),
    });
    return { OneSignal, client: new OneSignal.DefaultApi(config) };
  });
  return {
    name: "onesignal",
    mode: "live",
    async send(message) {
      const { OneSignal, client } = await sdk();
      const notification = new OneSignal.Notification();
      notification.app_id = settings.appId;
      notification.target_channel = "push";
      notification.include_aliases = { external_id: [message.externalId] };
      notification.headings = { en: message.heading };
      notification.contents = { en: message.content };
      if (message.url) notification.url = message.url;
      notification.idempotency_key = message.idempotencyKey;
      try {
        const answer = await withTimeout(client.createNotification(notification), 15_000, "OneSignal did not answer in 15 s");
        return { id: answer.id || null };
      } catch (err) {
        if (err instanceof ProviderError) throw err;
        const code = (err as { code?: number }).code ?? 0;
        throw new ProviderError(`OneSignal: ${(err as Error).message}`, code === 0 || code === 429 || code >= 500);
      }
    },
  };
}
