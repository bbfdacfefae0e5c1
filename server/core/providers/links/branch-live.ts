import { ProviderError } from "../errors";
import type { LinkProvider } from "./link-provider";

export interface BranchSettings {
  /** The gym's Branch key (key_live_… ; SPEC §3: the deep-link service's key). */
  key: string;
  /** Tests point it at a local fake. */
  apiBase?: string;
}

/**
 * Deep links through Branch's HTTP API (POST /v1/url): Branch has no server SDK of its own for Node (branch-sdk is
 * its browser SDK), so this is its documented REST call with fetch. The answer is `{ url }`.
 */
export function branchLinks(settings: BranchSettings): LinkProvider {
  const endpoint = new URL("v1/url", settings.apiBase ?? "https://api2.branch.io/").toString();
  return {
    name: "branch",
    mode: "live",
    async create(request) {
      let res: Response;
      try {
        res = await fetch(endpoint, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            branch_key: settings.key,
            channel: request.channel,
            feature: request.feature,
            data: { $fallback_url: request.url, $desktop_url: request.url, ...request.data },
          }),
          signal: AbortSignal.timeout(10_000),
        });
      } catch (err) {
        throw new ProviderError(`Branch: ${(err as Error).message}`, true);
      }
      const body = (await res.json().catch(() => null)) as { url?: string; error?: { message?: string } } | null;
      if (!res.ok || !body?.url) throw new ProviderError(`Branch: ${body?.error?.message ?? `HTTP ${res.status}`}`, res.status === 429 || res.status >= 500);
      return body.url;
    },
  };
}
