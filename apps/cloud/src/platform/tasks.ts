import type { Logger } from './logger.js';

/**
 * The emulated backends' clock: work that is asynchronous in OpenStack (a volume being
 * created, a server building) is scheduled here, after the configured delay. Tests use a
 * delay of 0 and `idle()` to wait for everything scheduled to finish.
 */
export class TaskRunner {
  #pending = new Set<Promise<void>>();
  /** Timers not yet fired, with the resolver of their `finished` promise. */
  #timers = new Map<NodeJS.Timeout, () => void>();
  #stopped = false;

  constructor(
    readonly delayMs: number,
    private readonly log: Logger,
  ) {}

  /** Runs `work` after `delayMs` (default: the configured delay). Failures are logged, never thrown. */
  schedule(name: string, work: () => Promise<void>, delayMs = this.delayMs): void {
    if (this.#stopped) return;
    let done!: () => void;
    const finished = new Promise<void>((resolve) => {
      done = resolve;
    });
    this.#pending.add(finished);
    const timer = setTimeout(async () => {
      this.#timers.delete(timer);
      try {
        if (!this.#stopped) await work();
      } catch (err) {
        this.log.error({ err, task: name }, 'background task failed');
      } finally {
        this.#pending.delete(finished);
        done();
      }
    }, delayMs);
    this.#timers.set(timer, () => {
      this.#pending.delete(finished);
      done();
    });
  }

  /** Resolves once nothing is scheduled or running, including work scheduled by work. */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  stop(): void {
    this.#stopped = true;
    // Work that will never run no longer counts as pending, so idle() cannot hang.
    for (const [t, cancel] of this.#timers) {
      clearTimeout(t);
      cancel();
    }
    this.#timers.clear();
  }
}
