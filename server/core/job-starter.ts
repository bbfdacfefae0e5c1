import { reportError } from "./observability/report";
/**
 * Starting a job from a request (issue 12's bulk price change): once the request's change is committed, the job is
 * handed to pg-boss when the server runs its jobs (any process may then take it, and it survives a restart), or run
 * in this process when it does not (BILLING_JOBS=0, the API tests). Either way a start while the job is already
 * running makes it run once more afterwards, so nothing confirmed meanwhile waits for the next minute's catch-up.
 */
export type StartableJob = "bulk-price-changes" | "member-imports" | "member-mail" | "webhook-delivery";

export interface JobStarter {
  start(name: StartableJob): void;
}

export interface InProcessJobs extends JobStarter {
  /** Resolves when nothing started here is still running (tests). */
  idle(): Promise<void>;
}

export function inProcessJobs(work: Record<StartableJob, () => Promise<unknown>>): InProcessJobs {
  const running = new Map<StartableJob, Promise<void>>();
  const again = new Set<StartableJob>();
  return {
    start(name) {
      if (running.has(name)) {
        again.add(name);
        return;
      }
      const run = (async () => {
        do {
          again.delete(name);
          try {
            await work[name]();
          } catch (err) {
            reportError(`[jobs] ${name} failed`, err, { job: name });
          }
        } while (again.has(name));
        running.delete(name);
      })();
      running.set(name, run);
    },
    idle: async () => {
      while (running.size) await Promise.all(running.values());
    },
  };
}

/** The starter the API holds: this process's until the scheduler is up, the scheduler's after. */
export function switchableJobs(first: JobStarter): JobStarter & { use(next: JobStarter): void } {
  let current = first;
  return {
    start: (name) => current.start(name),
    use: (next) => (current = next),
  };
}
