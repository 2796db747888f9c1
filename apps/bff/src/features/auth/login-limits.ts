import { createHash } from 'node:crypto';
import { ipKeyGenerator } from 'express-rate-limit';
import type pg from 'pg';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import type { BffConfig } from '../../config.js';
import { ApiError } from '../../platform/errors.js';
import type { Logger } from '../../platform/logger.js';
import { createPgPool } from '../../platform/pg-pool.js';

/** Whose failures a sign-in adds to: the account named in it and the address it came from. */
export interface LoginKeys {
  domain: string;
  username: string;
  /** The client address as Express sees it (`req.ip`: the TCP peer unless a proxy is trusted). */
  address: string | undefined;
}

const TABLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** A name typed into the user field may be a password: only its hash is kept. */
const accountKey = (k: LoginKeys) =>
  createHash('sha256').update(`${k.domain.toLowerCase()}\n${k.username.toLowerCase()}`).digest('hex');

/** One IPv6 client holds a whole prefix: count by /56 as express-rate-limit does. */
const addressKey = (k: LoginKeys) => (k.address ? ipKeyGenerator(k.address) : 'unknown');

const minutes = (ms: number) => Math.max(1, Math.ceil(ms / 60_000));

function refused(scope: 'account' | 'address', msBeforeNext: number): ApiError {
  const wait = minutes(msBeforeNext);
  const when = `Try again in ${wait} minute${wait === 1 ? '' : 's'}.`;
  return new ApiError(
    429,
    'too_many_attempts',
    scope === 'account'
      ? `Too many failed sign-ins for this user. ${when}`
      : `Too many failed sign-ins from your network address. ${when}`,
    { retryAfterSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)) },
  );
}

/**
 * The sign-in limits: failed sign-ins are counted per account and per client address over a fixed
 * window; past either limit, sign-ins for that account or from that address are refused (a typed 429
 * with Retry-After) until the window ends. A sign-in that succeeds, or that fails for another reason
 * than the credentials (bad input, the cloud down), is not counted.
 *
 * Each attempt takes its point before Keystone is asked and gives it back unless the credentials were
 * wrong, so a burst of concurrent guesses cannot all pass the check before any failure is recorded.
 */
export class LoginLimiter {
  readonly #byAccount: RateLimiterAbstract;
  readonly #byAddress: RateLimiterAbstract;
  readonly #prepare: () => Promise<void>;
  readonly close: () => Promise<void>;

  constructor(parts: {
    byAccount: RateLimiterAbstract;
    byAddress: RateLimiterAbstract;
    /** Run before counting (making the table); a failure leaves the counting to the insurance limiter. */
    prepare?: () => Promise<void>;
    close?: () => Promise<void>;
  }) {
    this.#byAccount = parts.byAccount;
    this.#byAddress = parts.byAddress;
    this.#prepare = parts.prepare ?? (async () => {});
    this.close = parts.close ?? (async () => {});
  }

  /** Runs one sign-in attempt under both limits. `wrongCredentials` says which failures count. */
  async attempt<T>(
    keys: LoginKeys,
    signIn: () => Promise<T>,
    wrongCredentials: (err: unknown) => boolean,
  ): Promise<T> {
    const account = accountKey(keys);
    const address = addressKey(keys);
    await this.#prepare().catch(() => undefined);
    await take(this.#byAddress, address, 'address');
    try {
      await take(this.#byAccount, account, 'account');
    } catch (err) {
      // A refusal for the account is not the address's failure (nor was the credential tried).
      await this.#byAddress.reward(address).catch(() => undefined);
      throw err;
    }
    let counts = false;
    try {
      return await signIn();
    } catch (err) {
      counts = wrongCredentials(err);
      throw err;
    } finally {
      if (!counts) {
        await Promise.all([
          this.#byAccount.reward(account).catch(() => undefined),
          this.#byAddress.reward(address).catch(() => undefined),
        ]);
      }
    }
  }
}

async function take(limiter: RateLimiterAbstract, key: string, scope: 'account' | 'address') {
  try {
    await limiter.consume(key);
  } catch (err) {
    if (err instanceof RateLimiterRes) throw refused(scope, err.msBeforeNext);
    throw err;
  }
}

interface LimitOptions {
  accountLimit: number;
  addressLimit: number;
  windowMs: number;
}

const limitsOf = (config: BffConfig): LimitOptions => ({
  accountLimit: config.loginAccountRateLimit,
  addressLimit: config.loginRateLimit,
  windowMs: config.loginRateWindowMs,
});

/** Counts in this process only: right for one BFF. */
export function memoryLoginLimiter(config: BffConfig): LoginLimiter {
  const o = limitsOf(config);
  const duration = Math.ceil(o.windowMs / 1000);
  return new LoginLimiter({
    byAccount: new RateLimiterMemory({ keyPrefix: 'account', points: o.accountLimit, duration }),
    byAddress: new RateLimiterMemory({ keyPrefix: 'address', points: o.addressLimit, duration }),
  });
}

/**
 * Counts in PostgreSQL (table `bff_login_failures`), shared by every BFF on the database, so a
 * guesser gains nothing by spreading tries over processes. While PostgreSQL is unreachable each
 * process counts in its memory instead (the library's insurance limiter).
 */
export function pgLoginLimiter(
  url: string,
  config: BffConfig,
  logger: Logger,
  table = 'bff_login_failures',
): LoginLimiter {
  if (!TABLE_NAME.test(table)) throw new Error(`not a table name: ${table}`);
  const pool = createPgPool(url, logger, { max: 2, allowExitOnIdle: true });
  const o = limitsOf(config);
  const duration = Math.ceil(o.windowMs / 1000);
  const make = (keyPrefix: string, points: number) =>
    new RateLimiterPostgres({
      storeClient: pool,
      tableName: table,
      // The table is made by `prepare`, retried until it exists: the library tries once, at construction.
      tableCreated: true,
      keyPrefix,
      points,
      duration,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration }),
    });
  return new LoginLimiter({
    byAccount: make('account', o.accountLimit),
    byAddress: make('address', o.addressLimit),
    prepare: tableCreator(pool, table),
    close: () => pool.end(),
  });
}

/** `create table if not exists`, once it has worked; forgotten after a failure so the next call retries. */
function tableCreator(pool: pg.Pool, table: string): () => Promise<void> {
  let created: Promise<void> | null = null;
  return () => {
    created ??= pool
      .query(
        `create table if not exists ${table} (key varchar(255) primary key, points integer not null default 0, expire bigint)`,
      )
      .then(
        () => undefined,
        (err: { code?: string }) => {
          // Two processes creating the table at once: the other one won.
          if (err.code === '23505') return;
          created = null;
          throw err;
        },
      );
    return created;
  };
}

/** PostgreSQL when the BFF keeps its sessions there, else this process's memory. */
export function loginLimiterFor(config: BffConfig, logger: Logger): LoginLimiter {
  return config.sessionDatabaseUrl
    ? pgLoginLimiter(config.sessionDatabaseUrl, config, logger)
    : memoryLoginLimiter(config);
}
