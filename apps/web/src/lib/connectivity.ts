import { apiPaths, healthSchema } from '@sv/shared';

/**
 * What the dashboard knows about the parts it depends on, for the banner that says data may be out
 * of date. The BFF's GET /api/health is the authority on the cloud and the database; a failed call
 * or a dropped live-update stream makes it look again at once instead of waiting for the next round.
 */
export interface ConnectivityState {
  /** The dashboard's own server (the BFF) answers. */
  server: boolean;
  /** The BFF reaches the cloud. */
  cloud: boolean;
  /** The BFF reaches its database (always true when it has none). */
  database: boolean;
  /** Consecutive failures of the live-update stream; 0 while it is open. */
  liveUpdateFailures: number;
}

const ALL_WELL: ConnectivityState = { server: true, cloud: true, database: true, liveUpdateFailures: 0 };

export interface ConnectivityTiming {
  /** Between looks while everything answers. */
  healthyIntervalMs: number;
  /** First look again after something failed; doubles on each failure up to `maxBackoffMs`. */
  minBackoffMs: number;
  maxBackoffMs: number;
}

export const DEFAULT_TIMING: ConnectivityTiming = {
  healthyIntervalMs: 10_000,
  minBackoffMs: 1_000,
  maxBackoffMs: 5_000,
};

/** Whether something that should answer does not, in the terms the banner uses. */
export const isDegraded = (s: ConnectivityState) => !s.server || !s.cloud || !s.database;

export class Connectivity {
  #state: ConnectivityState = ALL_WELL;
  readonly #listeners = new Set<() => void>();
  readonly #recovery = new Set<() => void>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #watching = false;
  #failures = 0;
  #looking: Promise<void> | null = null;
  #timing: ConnectivityTiming = DEFAULT_TIMING;

  getState = (): ConnectivityState => this.#state;

  /** For useSyncExternalStore. */
  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** Called when the server, the cloud or the database answers again after not answering. */
  onRecovered(listener: () => void): () => void {
    this.#recovery.add(listener);
    return () => this.#recovery.delete(listener);
  }

  /**
   * A call failed in a way that may mean a part is down: look now rather than at the next round.
   * While something is already known to be down the backoff goes on, however many calls fail.
   */
  reportFailure(): void {
    if (this.#watching && !isDegraded(this.#state)) this.#schedule(0);
  }

  #streamOpen = false;

  #setStreamOpen(open: boolean): void {
    if (this.#streamOpen === open) return;
    this.#streamOpen = open;
    for (const l of this.#listeners) l();
  }

  /** Whether the live-update stream is open now (pages that follow progress poll only when not). */
  get liveUpdatesOpen(): boolean {
    return this.#streamOpen;
  }

  /** The live-update stream is open: changes reach the page again. */
  liveUpdatesOpened(): void {
    this.#setStreamOpen(true);
    this.#set({ ...this.#state, liveUpdateFailures: 0 });
  }

  /** The live-update stream dropped or could not open (it reconnects with backoff). */
  liveUpdatesFailed(): void {
    this.#setStreamOpen(false);
    this.#set({ ...this.#state, liveUpdateFailures: this.#state.liveUpdateFailures + 1 });
    this.reportFailure();
  }

  /** No stream any more (signed out): nothing is missing updates. */
  liveUpdatesStopped(): void {
    this.#setStreamOpen(false);
    this.#set({ ...this.#state, liveUpdateFailures: 0 });
  }

  /** Looks at GET /api/health now and then (more often while something is down) until stopped. */
  start(timing: Partial<ConnectivityTiming> = {}): () => void {
    this.#timing = { ...DEFAULT_TIMING, ...timing };
    this.#watching = true;
    // Known to be down from before (signed out and in again meanwhile): look now, not in a round.
    this.#schedule(isDegraded(this.#state) ? 0 : this.#timing.healthyIntervalMs);
    return () => this.stop();
  }

  stop(): void {
    this.#watching = false;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Back to "all well", not watching (tests; signing out). */
  reset(): void {
    this.stop();
    this.#failures = 0;
    this.#state = ALL_WELL;
    this.#emit();
  }

  /** One look at GET /api/health; concurrent callers share it. */
  check(): Promise<void> {
    this.#looking ??= this.#look().finally(() => {
      this.#looking = null;
    });
    return this.#looking;
  }

  async #look(): Promise<void> {
    let next: Pick<ConnectivityState, 'server' | 'cloud' | 'database'>;
    try {
      const res = await fetch(apiPaths.health, {
        headers: { Accept: 'application/json' },
        cache: 'no-store',
      });
      const parsed = healthSchema.safeParse(await res.json().catch(() => null));
      if (!parsed.success) {
        // Not our BFF's answer (a proxy's 502 page): the dashboard's server is what is missing.
        next = { server: false, cloud: this.#state.cloud, database: this.#state.database };
      } else {
        const { checks } = parsed.data;
        next = {
          server: true,
          cloud: checks.cloud.status === 'ok',
          database: checks.database === undefined || checks.database.status === 'ok',
        };
      }
    } catch {
      next = { server: false, cloud: this.#state.cloud, database: this.#state.database };
    }
    const was = this.#state;
    this.#set({ ...was, ...next });
    const down = !next.server || !next.cloud || !next.database;
    this.#failures = down ? this.#failures + 1 : 0;
    if (isDegraded(was) && !down) for (const listener of this.#recovery) listener();
    if (this.#watching) this.#schedule(down ? this.#backoff() : this.#timing.healthyIntervalMs);
  }

  #backoff(): number {
    const { minBackoffMs, maxBackoffMs } = this.#timing;
    return Math.min(maxBackoffMs, minBackoffMs * 2 ** Math.max(0, this.#failures - 1));
  }

  #schedule(delayMs: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.check();
    }, delayMs);
  }

  #set(next: ConnectivityState): void {
    const s = this.#state;
    if (
      s.server === next.server &&
      s.cloud === next.cloud &&
      s.database === next.database &&
      s.liveUpdateFailures === next.liveUpdateFailures
    )
      return;
    this.#state = next;
    this.#emit();
  }

  #emit(): void {
    for (const listener of this.#listeners) listener();
  }
}

/** The page's one view of connectivity: api-client and live updates report to it, the banner reads it. */
export const connectivity = new Connectivity();
