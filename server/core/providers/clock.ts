/**
 * The time the sandbox providers live in. On a server it is the real time. `npm run billing -- --until` and the
 * tests move days on: their clock is simulated, and the billing run sets it to the run's own `now`, so a direct
 * debit created on a simulated Monday is collected two simulated business days later.
 */
export interface SandboxClock {
  now(): Date;
  /** Only a simulated clock can be set; the real one ignores the run's time. */
  set?(now: Date): void;
}

export const systemClock: SandboxClock = { now: () => new Date() };

export function simulatedClock(start: Date = new Date()): Required<SandboxClock> {
  let current = start;
  return {
    now: () => current,
    set: (now) => {
      current = now;
    },
  };
}
