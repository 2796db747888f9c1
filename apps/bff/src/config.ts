import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  /** The only thing the BFF knows about the cloud: its Keystone. */
  OS_AUTH_URL: z.string().url().default('http://127.0.0.1:8780/identity/v3'),
  /** Sessions live in PostgreSQL when this is a postgres:// URL, so several BFFs can serve one user. */
  DATABASE_URL: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `serial` forces the fallback launch strategy even when the cloud has 2.105. */
  BFF_LAUNCH_STRATEGY: z.enum(['auto', 'serial']).default('auto'),
  WEB_DIST: z.string().default(resolve(repoRoot, 'apps/web/dist')),
  /** Login attempts per client address per 15 minutes. */
  LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).default(20),
});

export interface BffConfig {
  port: number;
  host: string;
  authUrl: string;
  sessionDatabaseUrl: string | null;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  launchStrategy: 'auto' | 'serial';
  webDist: string;
  loginRateLimit: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): BffConfig {
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
    launchStrategy: e.BFF_LAUNCH_STRATEGY,
    webDist: e.WEB_DIST,
    loginRateLimit: e.LOGIN_RATE_LIMIT,
  };
}
