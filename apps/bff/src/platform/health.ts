import { type Health, healthSchema } from '@sv/shared';
import type pg from 'pg';
import type { Logger } from './logger.js';
import { createPgPool } from './pg-pool.js';
import { type ApiRoute, rawRoute } from './route-table.js';

/** One part the BFF needs: its check resolves when the part answers. */
export interface HealthProbe {
  name: 'cloud' | 'database';
  /** For the log when the part stops or starts answering. */
  label: string;
  /** Where it is, for the log only (never in the answer: it is public). */
  target?: string;
  check: () => Promise<void>;
}

export interface HealthOptions {
  /** Answers within this long share one look (a load balancer's checks never add load downstream). */
  cacheMs?: number;
  /** A part that has not answered in this long is down. */
  timeoutMs?: number;
  now?: () => number;
}

type Checks = Health['checks'];

/**
 * Whether the BFF reaches the cloud and its database. At most one look per `cacheMs` whatever the
 * number of callers, each bounded by `timeoutMs`; a part that stops or starts answering is logged
 * once, with the reason, rather than on every look.
 */
export class HealthMonitor {
  readonly #cacheMs: number;
  readonly #timeoutMs: number;
  readonly #now: () => number;
  #last: { at: number; health: Health } | null = null;
  #looking: Promise<Health> | null = null;
  readonly #down = new Set<string>();

  constructor(
    private readonly probes: HealthProbe[],
    private readonly log: Logger,
    opts: HealthOptions = {},
  ) {
    this.#cacheMs = opts.cacheMs ?? 2_000;
    this.#timeoutMs = opts.timeoutMs ?? 2_000;
    this.#now = opts.now ?? Date.now;
  }

  health(): Promise<Health> {
    if (this.#last && this.#now() - this.#last.at < this.#cacheMs) return Promise.resolve(this.#last.health);
    this.#looking ??= this.#look().finally(() => {
      this.#looking = null;
    });
    return this.#looking;
  }

  async #look(): Promise<Health> {
    const results = await Promise.all(this.probes.map((p) => this.#probe(p)));
    const checks = Object.fromEntries(results) as Checks;
    const health: Health = {
      status: results.every(([, r]) => r.status === 'ok') ? 'ok' : 'unavailable',
      checks,
      checkedAt: new Date(this.#now()).toISOString(),
    };
    this.#last = { at: this.#now(), health };
    return health;
  }

  async #probe(probe: HealthProbe): Promise<[string, Checks['cloud']]> {
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        probe.check(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer in ${this.#timeoutMs} ms`)), this.#timeoutMs);
        }),
      ]);
      if (this.#down.delete(probe.name)) this.log.info({ check: probe.name }, `${probe.label} answers again`);
      return [probe.name, { status: 'ok', ms: ms() }];
    } catch (err) {
      if (!this.#down.has(probe.name)) {
        this.#down.add(probe.name);
        const reason = reasonOf(err);
        this.log.warn(
          { check: probe.name, ...(probe.target ? { target: probe.target } : {}), error: reason },
          `${probe.label} does not answer`,
        );
      }
      return [probe.name, { status: 'unreachable', ms: ms() }];
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The deepest message: the socket error under the BFF's typed 503. */
function reasonOf(err: unknown): string {
  let e: unknown = err;
  while (e instanceof Error && e.cause instanceof Error) e = e.cause;
  return e instanceof Error ? e.message : String(e);
}

/** A database probe on a one-connection pool of its own, opened on first use. */
export function databaseProbe(url: string, log: Logger): HealthProbe {
  let pool: pg.Pool | null = null;
  return {
    name: 'database',
    label: 'the database',
    async check() {
      pool ??= createPgPool(url, log, { max: 1, allowExitOnIdle: true });
      await pool.query('select 1');
    },
  };
}

/**
 * GET /api/health: 200 when every part answers, 503 (with which one does not) otherwise. For load
 * balancers and the dashboard's banner: no session, no body parsing, no cookie.
 */
export function healthRoutes(monitor: HealthMonitor): ApiRoute[] {
  return [
    rawRoute({
      method: 'get',
      path: '/api/health',
      summary: 'Whether the BFF reaches the cloud and its database (for a load balancer)',
      tag: 'platform',
      session: 'none',
      responses: {
        200: { description: 'Every part answers', schema: healthSchema },
        503: { description: 'A part does not answer (named in checks)', schema: healthSchema },
      },
      handler: async ({ res }) => {
        const health = await monitor.health();
        res.setHeader('Cache-Control', 'no-store');
        res.status(health.status === 'ok' ? 200 : 503).json(health);
      },
    }),
  ];
}
