import type { Logger } from './logger.js';

/**
 * What a task works on. A process that takes over a dead process's work (`platform/presence.ts`)
 * leaves alone every subject its own scheduled tasks still cover.
 */
export type TaskSubject = `server:${string}` | `volume:${string}`;

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
  ) {}

  /**
   * Runs `work` after `delayMs` (default: the configured delay). Failures are logged, never thrown.
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
    const run = async () => {
      this.#timers.delete(timer);
      try {
        if (!this.#stopped) await work();
      } catch (err) {
        this.log.error({ err, task: name }, 'background task failed');
      } finally {
        this.#pending.delete(finished);
        done();
      }
    };
    // No delay: the next turn of the event loop, after the I/O already waiting (a chain of steps
    // must not starve other requests), rather than a timer that waits a whole millisecond.
    const timer = delayMs > 0 ? setTimeout(run, delayMs) : setImmediate(run);
    this.#timers.set(timer, () => {
      if (delayMs > 0) clearTimeout(timer as NodeJS.Timeout);
      else clearImmediate(timer as NodeJS.Immediate);
      this.#pending.delete(finished);
      done();
    });
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
