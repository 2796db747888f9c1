import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { type LogOutput, logOutputFor } from './platform/logger.js';

// Every setting the bundled cloud reads, with the defaults DESIGN.md documents.
export const envSchema = z.object({
  CLOUD_PORT: z.coerce.number().int().min(0).max(65535).default(8780),
  CLOUD_HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `pretty` (one readable line per event) or `json` (JSON lines); unset: pretty on a terminal outside production. */
  LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
  /** `production` makes JSON lines the default log format. */
  NODE_ENV: z.string().optional(),
  /** Set (non-empty): no colour in logs. */
  NO_COLOR: z.string().optional(),
  /** Set: colour in logs even when stdout is not a terminal (unless NO_COLOR). */
  FORCE_COLOR: z.string().optional(),
  /** How long the emulated volume backend and compute hosts take per step (0 in tests). */
  CLOUD_BACKEND_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(1500),
  /** PostgreSQL: how often a process alone on the database takes over a dead one's work (0: never). */
  CLOUD_TAKEOVER_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).default(5000),
  OS_ADMIN_PASSWORD: z.string().min(1).default('admin'),
  OS_DEMO_PASSWORD: z.string().min(1).default('demo'),
  TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).default(86_400),
  /** oslo.middleware's default max_request_body_size. */
  MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(114_688),
  SEED_DEMO_DATA: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((v) => v === 'true' || v === '1'),
});

export interface CloudConfig {
  port: number;
  host: string;
  /** A libsql URL (`file:...`, `:memory:`) or a `postgres://` URL. */
  databaseUrl: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** How log lines look (LOG_FORMAT, NO_COLOR, FORCE_COLOR and whether stdout is a terminal). */
  logOutput: LogOutput;
  backendDelayMs: number;
  /** 0 turns the takeover off (tests that run one process). */
  takeoverIntervalMs: number;
  adminPassword: string;
  demoPassword: string;
  tokenTtlSeconds: number;
  maxBodyBytes: number;
  seedDemoData: boolean;
}

/** `data/cloud.db` at the repository root, wherever the process was started from. */
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const DEFAULT_DATABASE_URL = `file:${resolve(repoRoot, 'data/cloud.db')}`;

export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  stdoutIsTTY = Boolean(process.stdout.isTTY),
): CloudConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  return {
    port: e.CLOUD_PORT,
    host: e.CLOUD_HOST,
    databaseUrl: e.DATABASE_URL ?? DEFAULT_DATABASE_URL,
    logLevel: e.LOG_LEVEL,
    logOutput: logOutputFor(e, stdoutIsTTY),
    backendDelayMs: e.CLOUD_BACKEND_DELAY_MS,
    takeoverIntervalMs: e.CLOUD_TAKEOVER_INTERVAL_MS,
    adminPassword: e.OS_ADMIN_PASSWORD,
    demoPassword: e.OS_DEMO_PASSWORD,
    tokenTtlSeconds: e.TOKEN_TTL_SECONDS,
    maxBodyBytes: e.MAX_BODY_BYTES,
    seedDemoData: e.SEED_DEMO_DATA,
  };
}

/** Settings for tests: an in-memory store, no delays, quiet logs. */
export function testConfig(overrides: Partial<CloudConfig> = {}): CloudConfig {
  return {
    port: 0,
    host: '127.0.0.1',
    databaseUrl: ':memory:',
    logLevel: 'silent',
    logOutput: { format: 'json', colour: false },
    backendDelayMs: 0,
    takeoverIntervalMs: 0,
    adminPassword: 'admin',
    demoPassword: 'demo',
    tokenTtlSeconds: 3600,
    maxBodyBytes: 114_688,
    seedDemoData: true,
    ...overrides,
  };
}
