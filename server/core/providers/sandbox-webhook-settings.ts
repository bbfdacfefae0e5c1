/** How the sandbox providers' webhooks misbehave (SANDBOX_WEBHOOKS). Apart from their sender (sandbox-webhooks.ts): the config reads these, and the sender signs with what the config holds. */
export interface SandboxWebhookSettings {
  /** Seconds after the event before its webhook is sent. */
  delaySeconds: number;
  /** Share of webhooks sent twice (0–1). */
  duplicate: number;
  /** Share of webhooks never sent (0–1). */
  drop: number;
  /** Send each batch in a shuffled order. */
  reorder: boolean;
  /** Webhooks under way at once (default 1, one after another); a bank payment's own events still go in turn. */
  inFlight?: number;
}

export const DEFAULT_SANDBOX_WEBHOOKS: SandboxWebhookSettings = { delaySeconds: 30, duplicate: 0, drop: 0, reorder: false };

/** "delay=30,duplicate=0.1,drop=0.02,reorder=1" → settings; a bad part is an error naming it. */
export function parseSandboxWebhooks(text: string): SandboxWebhookSettings {
  const settings = { ...DEFAULT_SANDBOX_WEBHOOKS };
  for (const part of text
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [key, raw] = part.split("=").map((x) => x.trim());
    const value = Number(raw);
    if (key === "delay" && Number.isInteger(value) && value >= 0) settings.delaySeconds = value;
    else if ((key === "duplicate" || key === "drop") && value >= 0 && value <= 1) settings[key] = value;
    else if (key === "reorder" && (raw === "1" || raw === "0")) settings.reorder = raw === "1";
    else throw new Error(`"${part}": use delay=<seconds>, duplicate=<0–1>, drop=<0–1>, reorder=<0|1>`);
  }
  return settings;
}
