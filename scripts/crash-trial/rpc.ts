/**
 * The crash trial's providers over HTTP (decision 0043): the sandboxes serve from their own process
 * (./provider-process.ts) and the billing process reaches them through `remoteProviders`, an object shaped as
 * server/core/providers/registry.ts's `Providers`, each call `providers.<rail>(…).<method>(…args)` a POST /rpc. The
 * sandbox code is unchanged: this is only the wire between the two processes.
 *
 * Each call carries the caller's simulated time (`now`), so the provider lives on the day of the run that asks, as
 * `simulatedClock()` makes it live in one process; the provider process reads it per request (AsyncLocalStorage),
 * so calls of a child killed a moment ago and of the next child never share a clock.
 */
import { ProviderError } from "../../server/core/providers/errors";
import type { SandboxClock } from "../../server/core/providers/clock";
import type { Providers } from "../../server/core/providers/registry";

/** The rails made per gym or service (`providers.directDebit(gym)`) and the ones that are one object (`providers.cards`). */
export const FACTORIES = ["directDebit", "bank", "push", "links", "connect"] as const;
export const OBJECTS = ["cards", "doors"] as const;
export type Root = (typeof FACTORIES)[number] | (typeof OBJECTS)[number];

export interface RpcCall {
  root: Root;
  /** What the factory was called with (the gym, the service); none for an object rail. */
  rootArgs: unknown[];
  method: string;
  args: unknown[];
  /** The caller's simulated time, ISO. */
  now: string;
}

export type RpcAnswer = { result: unknown } | { error: { message: string; provider: boolean; retryable: boolean } };

/** JSON with Dates kept (`{"$date": iso}`): windows asked for, `created` answered. */
export function encode(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key, v: unknown) {
    const raw = this[key];
    return raw instanceof Date ? { $date: raw.toISOString() } : v;
  });
}

export function decode<T>(text: string): T {
  return JSON.parse(text, (_, v: unknown) => (v && typeof v === "object" && "$date" in v && Object.keys(v).length === 1 ? new Date((v as { $date: string }).$date) : v)) as T;
}

const NAMES: Partial<Record<Root, string>> = { cards: "stripe", directDebit: "gocardless", bank: "akahu", push: "onesignal", links: "branch", doors: "kisi" };

/**
 * The providers as the billing process sees them: every call goes to the provider process at `base`. `local` methods
 * run here instead (Akahu's webhook signature is checked with its published key on our side, as the live adapter does).
 */
export function remoteProviders(base: string, clock: SandboxClock, local: Partial<Record<`${Root}.${string}`, (...args: unknown[]) => unknown>> = {}): Providers {
  const call = async (root: Root, rootArgs: unknown[], method: string, args: unknown[]) => {
    const body = encode({ root, rootArgs, method, args, now: clock.now().toISOString() } satisfies RpcCall);
    let text: string;
    try {
      const res = await fetch(`${base}/rpc`, { method: "POST", headers: { "content-type": "application/json" }, body });
      text = await res.text();
    } catch (err) {
      // Not reached, or no answer: the outcome is unknown, as a timeout is; the same key goes again next run.
      throw new ProviderError(`The provider could not be reached: ${(err as Error).message}`, true);
    }
    const answer = decode<RpcAnswer>(text);
    if ("error" in answer) throw answer.error.provider ? new ProviderError(answer.error.message, answer.error.retryable) : new Error(answer.error.message);
    return answer.result;
  };
  const rail = (root: Root, rootArgs: unknown[]) =>
    new Proxy(
      {},
      {
        get(_, prop) {
          // Not a promise, and has no symbols: only its methods go over the wire.
          if (typeof prop === "symbol" || prop === "then" || prop === "toJSON") return undefined;
          if (prop === "name") return root === "connect" ? rootArgs[0] : NAMES[root];
          if (prop === "mode") return "sandbox";
          if (prop === "service" && root === "connect") return rootArgs[0];
          const here = local[`${root}.${prop}`];
          if (here) return here;
          return (...args: unknown[]) => call(root, rootArgs, prop, args);
        },
      },
    );
  const providers = {
    clock,
    cards: rail("cards", []),
    doors: rail("doors", []),
    ...Object.fromEntries(FACTORIES.map((f) => [f, (...rootArgs: unknown[]) => rail(f, rootArgs)])),
    // The providers' books are theirs, on no handle of ours.
    on: () => providers,
  } as unknown as Providers;
  return providers;
}
