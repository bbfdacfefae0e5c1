import type { ProviderMode } from "../charge-result";
import { logWarning } from "../../observability/log";

/**
 * Deep links (Branch): a short link in an e-mail opens the member app where it is installed and the web page
 * otherwise. One interface, two adapters: the sandbox (./sandbox.ts, the default: short links on our own host that
 * redirect to the web page) and Branch itself (./branch-live.ts, over Branch's HTTP API).
 */
export interface DeepLinkRequest {
  /** The web page it opens without the app (Branch's $fallback_url and $desktop_url). */
  url: string;
  /** Branch's analytics labels. */
  channel: string;
  feature: string;
  /** What the app reads when it opens the link. */
  data?: Record<string, string>;
}

export interface LinkProvider {
  readonly name: "branch";
  readonly mode: ProviderMode;
  create(request: DeepLinkRequest): Promise<string>;
}

/** A link in an e-mail must not stop the e-mail: when the provider fails, the plain web address goes instead. */
export async function deepLinkOr(links: LinkProvider, request: DeepLinkRequest): Promise<string> {
  try {
    return await links.create(request);
  } catch (err) {
    logWarning(`[links] ${links.name}: sending the web address instead`, err);
    return request.url;
  }
}
