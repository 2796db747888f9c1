import { isIP } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { type LogOutput, logOutputFor } from './platform/logger.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Express's names for address ranges, usable in TRUST_PROXY. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** `10.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`, or one of Express's named ranges. */
function isProxyAddress(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Whose X-Forwarded-For the BFF believes: nobody by default (the client address is the TCP peer);
 * a number of proxy hops in front of it; or the proxies' addresses and ranges, comma-separated.
 * `true` (believe anyone) is refused: any client could then pick its own address.
 */
const trustProxySchema = z
  .string()
  .trim()
  .default('')
  .transform((raw, ctx): false | number | string[] => {
    if (raw === '' || raw === 'false' || raw === 'none' || raw === '0') return false;
    if (/^\d+$/.test(raw)) return Number(raw);
    const entries = raw
      .split(',')
      .map((e) => e.trim())
      .filter((e) => e !== '');
    const bad = entries.filter((e) => !isProxyAddress(e));
    if (bad.length > 0 || entries.length === 0) {
      ctx.addIssue({
        code: 'custom',
        message: `not a hop count or a list of proxy addresses (${bad.join(', ') || raw}); e.g. 1, loopback, 10.0.0.0/8`,
      });
      return z.NEVER;
    }
    return entries;
  });

const originSchema = z
  .string()
  .trim()
  .default('')
  .transform((raw, ctx): string[] => {
    const origins: string[] = [];
    for (const entry of raw.split(',').map((e) => e.trim())) {
      if (entry === '') continue;
      let url: URL | null = null;
      try {
        url = new URL(entry);
      } catch {
        url = null;
      }
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== entry) {
        ctx.addIssue({ code: 'custom', message: `not an origin (scheme://host[:port]): ${entry}` });
        return z.NEVER;
      }
      origins.push(url.origin);
    }
    return origins;
  });

export const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  /** The only thing the BFF knows about the cloud: its Keystone. */
  OS_AUTH_URL: z.string().url().default('http://127.0.0.1:8780/identity/v3'),
  /** Sessions live in PostgreSQL when this is a postgres:// URL, so several BFFs can serve one user. */
  DATABASE_URL: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `pretty` (one readable line per event) or `json` (JSON lines); unset: pretty on a terminal outside production. */
  LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
  /** `production` makes JSON lines the default log format. */
  NODE_ENV: z.string().optional(),
  /** Set (non-empty): no colour in logs. */
  NO_COLOR: z.string().optional(),
  /** Set: colour in logs even when stdout is not a terminal (unless NO_COLOR). */
  FORCE_COLOR: z.string().optional(),
  /** `serial` forces the fallback launch strategy even when the cloud has 2.105. */
  BFF_LAUNCH_STRATEGY: z.enum(['auto', 'serial']).default('auto'),
  WEB_DIST: z.string().default(resolve(repoRoot, 'apps/web/dist')),
  /** The embedded SQLite file that keeps launches when DATABASE_URL is not PostgreSQL. */
  BFF_DATABASE_FILE: z.string().min(1).default(resolve(repoRoot, 'data/bff.db')),
  /** Failed sign-ins per client address per window; then that address is refused until the window ends. */
  LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).default(50),
  /** Failed sign-ins per account (domain + user name) per window, from any address. */
  LOGIN_ACCOUNT_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
  /** The window both sign-in limits count over, from an address's or account's first failure. */
  LOGIN_RATE_WINDOW_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(15),
  TRUST_PROXY: trustProxySchema,
  /** Origins besides the BFF's own host that may send changes (a proxy that rewrites Host). */
  BFF_ALLOWED_ORIGINS: originSchema,
  /**
   * How long a cloud's version ranges and extensions, learnt at a sign-in, serve the next sign-ins
   * to the same endpoints without asking again (0: every sign-in asks).
   */
  BFF_DISCOVERY_CACHE_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 3600)
    .default(300),
});

export interface BffConfig {
  port: number;
  host: string;
  authUrl: string;
  sessionDatabaseUrl: string | null;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** How log lines look (LOG_FORMAT, NO_COLOR, FORCE_COLOR and whether stdout is a terminal). */
  logOutput: LogOutput;
  launchStrategy: 'auto' | 'serial';
  /** Where launches are kept without PostgreSQL: an SQLite file (`:memory:`: this process only). */
  databaseFile: string;
  webDist: string;
  /** Failed sign-ins per client address per window. */
  loginRateLimit: number;
  /** Failed sign-ins per account per window. */
  loginAccountRateLimit: number;
  loginRateWindowMs: number;
  /** Express's `trust proxy`: false (trust no X-Forwarded-* header), a hop count, or proxy addresses. */
  trustProxy: false | number | string[];
  /** Extra origins allowed to send state-changing requests (the BFF's own host always is). */
  allowedOrigins: string[];
  /** How long discovery answers are kept per cloud (0: not kept). */
  discoveryCacheMs: number;
}

export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  stdoutIsTTY = Boolean(process.stdout.isTTY),
): BffConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    authUrl: e.OS_AUTH_URL.replace(/\/+$/, ''),
    sessionDatabaseUrl: e.DATABASE_URL && /^postgres(ql)?:\/\//.test(e.DATABASE_URL) ? e.DATABASE_URL : null,
    logLevel: e.LOG_LEVEL,
    logOutput: logOutputFor(e, stdoutIsTTY),
    launchStrategy: e.BFF_LAUNCH_STRATEGY,
    webDist: e.WEB_DIST,
    databaseFile: e.BFF_DATABASE_FILE,
    loginRateLimit: e.LOGIN_RATE_LIMIT,
    loginAccountRateLimit: e.LOGIN_ACCOUNT_RATE_LIMIT,
    loginRateWindowMs: e.LOGIN_RATE_WINDOW_MINUTES * 60_000,
    trustProxy: e.TRUST_PROXY,
    allowedOrigins: e.BFF_ALLOWED_ORIGINS,
    discoveryCacheMs: e.BFF_DISCOVERY_CACHE_SECONDS * 1000,
  };
}
