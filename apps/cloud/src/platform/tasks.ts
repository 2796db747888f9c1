import { databaseFault, describeDatabaseError } from './db/unavailable.js';
import type { Logger } from './logger.js';

/**
 * What a task works on. A process that takes over a dead process's work (`platform/presence.ts`)
 * leaves alone every subject its own scheduled tasks still cover.
 */
export type TaskSubject = `server:${string}` | `volume:${string}` | `snapshot:${string}`;

/** How soon a step that failed on a transient database fault runs again. */
export interface RetryPolicy {
  /** The first retry's delay; each next one doubles, up to `maxMs`. */
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { baseMs: 100, maxMs: 30_000 };

/**
 * The delay before retry number `attempt` (1, 2, ...): exponential, capped, with jitter (half
 * fixed, half random) so that the steps a database outage failed together do not all come
 * back at the same instant.
 */
export function retryDelayMs(policy: RetryPolicy, attempt: number, random = Math.random): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(attempt - 1, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * The emulated backends' clock: work that is asynchronous in OpenStack (a volume being
 * created, a server building) is scheduled here, after the configured delay. Tests use a
 * delay of 0 and `idle()` to wait for everything scheduled to finish.
 */
export class TaskRunner {
  #pending = new Set<Promise<void>>();
  /** Timers not yet fired, with what cancels each (clears it, resolves its `finished` promise). */
  #timers = new Map<NodeJS.Timeout | NodeJS.Immediate, () => void>();
  /** Scheduled or running tasks per subject. */
  #subjects = new Map<TaskSubject, number>();
  #stopped = false;

  constructor(
    readonly delayMs: number,
    private readonly log: Logger,
    private readonly retry: RetryPolicy = DEFAULT_RETRY,
  ) {}

  /**
   * Runs `work` after `delayMs` (default: the configured delay). Failures are never thrown: one on
   * a transient database fault (lost connection, timeout, busy or full database) runs `work`
   * again, with backoff, for as long as the process lives, since the request that scheduled it
   * was already answered 2xx; any other failure is logged once. `work` must therefore be safe
   * to run again after a failure (every step re-reads and re-checks the state it moves on).
   * `subject` names what the work moves on (a batch names every one), until it has finished.
   */
  schedule(
    name: string,
    work: () => Promise<void>,
    delayMs = this.delayMs,
    subject?: TaskSubject | readonly TaskSubject[],
  ): void {
    if (this.#stopped) return;
    const subjects: readonly TaskSubject[] =
      subject === undefined ? [] : typeof subject === 'string' ? [subject] : subject;
    let resolveFinished!: () => void;
    const finished = new Promise<void>((resolve) => {
      resolveFinished = resolve;
    });
    for (const subject of subjects) this.#subjects.set(subject, (this.#subjects.get(subject) ?? 0) + 1);
    const done = () => {
      for (const subject of subjects) {
        const left = (this.#subjects.get(subject) ?? 1) - 1;
        if (left > 0) this.#subjects.set(subject, left);
        else this.#subjects.delete(subject);
      }
      resolveFinished();
    };
    this.#pending.add(finished);
    const finish = () => {
      this.#pending.delete(finished);
      done();
    };
    // Runs attempt `attempt` after `ms` (on the next turn of the event loop when `immediate`).
    const arm = (attempt: number, ms: number, immediate: boolean): void => {
      const fire = () => void run(timer, attempt);
      const timer = immediate ? setImmediate(fire) : setTimeout(fire, ms);
      this.#timers.set(timer, () => {
        if (immediate) clearImmediate(timer as NodeJS.Immediate);
        else clearTimeout(timer as NodeJS.Timeout);
        finish();
      });
    };
    const run = async (timer: NodeJS.Timeout | NodeJS.Immediate, attempt: number) => {
      this.#timers.delete(timer);
      try {
        if (!this.#stopped) await work();
      } catch (err) {
        const fault = databaseFault(err);
        if (fault && !this.#stopped) {
          const retryInMs = retryDelayMs(this.retry, attempt);
          this.log.warn(
            { err: describeDatabaseError(err), task: name, attempt, retryInMs },
            'background task failed on the database; retrying',
          );
          arm(attempt + 1, retryInMs, false);
          return;
        }
        if (!fault) this.log.error({ err, task: name }, 'background task failed');
      }
      finish();
    };
    // No delay: the next turn of the event loop, after the I/O already waiting (a chain of steps
    // must not starve other requests), rather than a timer that waits a whole millisecond.
    arm(1, delayMs, delayMs <= 0);
  }

  /** Whether work on `subject` is scheduled or running in this process. */
  covers(subject: TaskSubject): boolean {
    return this.#subjects.has(subject);
  }

  /** Resolves once nothing is scheduled or running, including work scheduled by work. */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  stop(): void {
    this.#stopped = true;
    // Work that will never run no longer counts as pending, so idle() cannot hang.
    for (const cancel of this.#timers.values()) cancel();
    this.#timers.clear();
  }
}
