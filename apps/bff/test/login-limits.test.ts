import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startCloud, type TestCloud } from '../../cloud/test/helpers/cloud.js';
import { createBffApp } from '../src/app.js';
import { type BffConfig, loadConfig } from '../src/config.js';
import { type LoginLimiter, pgLoginLimiter } from '../src/features/auth/login-limits.js';
import { ApiError } from '../src/platform/errors.js';
import { createLogger } from '../src/platform/logger.js';
import { MemorySessionStore } from '../src/platform/session-store.js';
import { startStack, type TestStack } from './helpers/stack.js';

/**
 * Issue 11, finding 6: the sign-in limit counted successful sign-ins (a class behind one address,
 * or a test suite, was locked out after 20), and any client dodged it with a new X-Forwarded-For
 * because the loopback proxy was trusted by default. Now failures are counted, per account and per
 * client address, and forwarded addresses are believed only from proxies the operator names.
 */

const stacks: TestStack[] = [];
afterEach(async () => {
  await Promise.all(stacks.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  await Promise.all(stacks.splice(0).map((s) => s.close()));
});

async function stackWith(bff: Partial<BffConfig>) {
  const s = await startStack({ bff });
  stacks.push(s);
  return s;
}

const signIn = (s: TestStack, username: string, password: string, headers: Record<string, string> = {}) =>
  s.client().request('POST', '/api/session', { username, password }, headers);

describe('the sign-in limits', () => {
  it('do not count sign-ins that succeed', async () => {
    const s = await stackWith({ loginRateLimit: 3, loginAccountRateLimit: 3 });
    for (let i = 0; i < 12; i++) {
      const res = await signIn(s, i % 2 ? 'demo' : 'admin', i % 2 ? 'demo' : 'admin');
      expect({ i, status: res.status }).toEqual({ i, status: 201 });
    }
  });

  it('count failures per account, whatever the address, and refuse with a typed 429 and Retry-After', async () => {
    const s = await stackWith({
      loginRateLimit: 1000,
      loginAccountRateLimit: 3,
      loginRateWindowMs: 15 * 60_000,
    });
    for (let i = 0; i < 3; i++) expect((await signIn(s, 'admin', `wrong-${i}`)).status).toBe(401);
    // The right password now too: the account is closed to sign-ins until the window ends.
    const refused = await signIn(s, 'admin', 'admin');
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('too_many_attempts');
    expect(refused.body.error.message).toBe(
      'Too many failed sign-ins for this user. Try again in 15 minutes.',
    );
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // The name is the account whatever its case; another account is not affected.
    expect((await signIn(s, 'ADMIN', 'admin')).status).toBe(429);
    expect((await signIn(s, 'demo', 'demo')).status).toBe(201);
  });

  it('count failures per client address, across accounts', async () => {
    const s = await stackWith({ loginRateLimit: 3, loginAccountRateLimit: 1000 });
    for (const user of ['nobody-1', 'nobody-2', 'nobody-3'])
      expect((await signIn(s, user, 'x')).status).toBe(401);
    const refused = await signIn(s, 'demo', 'demo');
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toMatch(
      /^Too many failed sign-ins from your network address\. Try again in \d+ minutes?\.$/,
    );
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('count a burst of concurrent guesses before any of them is answered', async () => {
    const s = await stackWith({ loginRateLimit: 1000, loginAccountRateLimit: 3 });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => signIn(s, 'admin', `guess-${i}`)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((x) => x === 401)).toHaveLength(3);
    expect(statuses.filter((x) => x === 429)).toHaveLength(9);
  });

  it('do not count failures that are not about the credentials', async () => {
    const s = await stackWith({ loginRateLimit: 2, loginAccountRateLimit: 2 });
    for (let i = 0; i < 5; i++) {
      expect((await s.client().post('/api/session', { username: 'demo', password: '' })).status).toBe(400);
    }
    expect((await signIn(s, 'demo', 'demo')).status).toBe(201);
  });

  it('ignore X-Forwarded-For unless a proxy is trusted: a client cannot pick a new address', async () => {
    const s = await stackWith({ loginRateLimit: 3, loginAccountRateLimit: 1000 });
    for (let i = 0; i < 3; i++) {
      const res = await signIn(s, `nobody-${i}`, 'x', { 'X-Forwarded-For': `203.0.113.${i + 1}` });
      expect(res.status).toBe(401);
    }
    const dodge = await signIn(s, 'demo', 'demo', { 'X-Forwarded-For': '203.0.113.99' });
    expect(dodge.status).toBe(429);
  });

  it('believe X-Forwarded-For from a trusted proxy, one count per client behind it', async () => {
    const s = await stackWith({ loginRateLimit: 3, loginAccountRateLimit: 1000, trustProxy: ['loopback'] });
    const from = (ip: string) => ({ 'X-Forwarded-For': ip });
    for (let i = 0; i < 3; i++)
      expect((await signIn(s, `nobody-${i}`, 'x', from('203.0.113.7'))).status).toBe(401);
    expect((await signIn(s, 'demo', 'demo', from('203.0.113.7'))).status).toBe(429);
    expect((await signIn(s, 'demo', 'demo', from('203.0.113.8'))).status).toBe(201);
  });
});

describe('the sign-in settings', () => {
  it('default to 50 failures per address, 10 per account, over 15 minutes, trusting no proxy', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      loginRateLimit: 50,
      loginAccountRateLimit: 10,
      loginRateWindowMs: 15 * 60_000,
      trustProxy: false,
      allowedOrigins: [],
    });
  });

  it('read TRUST_PROXY as a hop count or a list of proxies, and refuse "trust anyone"', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::/8' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      'fd00::/8',
    ]);
    expect(loadConfig({ TRUST_PROXY: 'none' }).trustProxy).toBe(false);
    for (const bad of ['true', '10.0.0.0/33', 'proxy.example', '1.2.3']) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY/);
    }
  });

  it('read the limits and BFF_ALLOWED_ORIGINS', () => {
    const c = loadConfig({
      LOGIN_RATE_LIMIT: '7',
      LOGIN_ACCOUNT_RATE_LIMIT: '4',
      LOGIN_RATE_WINDOW_MINUTES: '5',
      BFF_ALLOWED_ORIGINS: 'https://dash.example, http://127.0.0.1:5173',
    });
    expect(c).toMatchObject({
      loginRateLimit: 7,
      loginAccountRateLimit: 4,
      loginRateWindowMs: 5 * 60_000,
      allowedOrigins: ['https://dash.example', 'http://127.0.0.1:5173'],
    });
    expect(() => loadConfig({ BFF_ALLOWED_ORIGINS: 'https://dash.example/path' })).toThrow(
      /BFF_ALLOWED_ORIGINS/,
    );
  });
});

const url = process.env.TEST_DATABASE_URL;

describe.runIf(url)('the sign-in limits on PostgreSQL', () => {
  const table = `bff_login_failures_t_${randomBytes(5).toString('hex')}`;
  let cloud: TestCloud;
  const bffs: { url: string; server: Server; limiter: LoginLimiter }[] = [];

  beforeAll(async () => {
    cloud = await startCloud();
    const config: BffConfig = {
      ...loadConfig({}),
      databaseFile: ':memory:',
      authUrl: `${cloud.url}/identity/v3`,
      logLevel: 'silent',
      webDist: '/nonexistent',
      loginRateLimit: 1000,
      loginAccountRateLimit: 3,
    };
    const logger = createLogger('silent');
    for (let i = 0; i < 2; i++) {
      const limiter = pgLoginLimiter(url!, config, logger, table);
      const app = createBffApp({ config, logger, sessions: new MemorySessionStore(), loginLimiter: limiter });
      const server: Server = await new Promise((resolve) => {
        const s = app.listen(0, '127.0.0.1', () => resolve(s));
      });
      bffs.push({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, limiter });
    }
  });
  afterAll(async () => {
    for (const b of bffs) {
      await new Promise<void>((resolve) => b.server.close(() => resolve()));
      b.server.closeAllConnections();
      await b.limiter.close();
    }
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    await pool.query(`drop table if exists ${table}`);
    await pool.end();
    await cloud?.close();
  });

  const signInAt = (bff: number, username: string, password: string) =>
    fetch(`${bffs[bff]!.url}/api/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ username, password }),
    });

  it('share one count between BFF processes: failures spread over two are refused on both', async () => {
    expect((await signInAt(0, 'admin', 'wrong-1')).status).toBe(401);
    expect((await signInAt(1, 'admin', 'wrong-2')).status).toBe(401);
    expect((await signInAt(0, 'admin', 'wrong-3')).status).toBe(401);
    for (const bff of [0, 1]) {
      const res = await signInAt(bff, 'admin', 'admin');
      expect({ bff, status: res.status }).toEqual({ bff, status: 429 });
    }
    // Successes on either process still count for nothing.
    for (let i = 0; i < 6; i++) expect((await signInAt(i % 2, 'demo', 'demo')).status).toBe(201);
  });
});

describe.runIf(url)('a PostgreSQL sign-in limiter whose database is unreachable', () => {
  it('counts in memory meanwhile instead of failing the sign-in', async () => {
    const config: BffConfig = {
      ...loadConfig({}),
      databaseFile: ':memory:',
      loginRateLimit: 1000,
      loginAccountRateLimit: 2,
    };
    // Nothing listens on port 9: every query fails at once.
    const limiter = pgLoginLimiter('postgres://postgres@127.0.0.1:9/test', config, createLogger('silent'));
    try {
      const keys = { domain: 'Default', username: 'demo', address: '127.0.0.1' };
      const wrong = () => Promise.reject(new ApiError(401, 'wrong_credentials', 'no'));
      const isWrong = (e: unknown) => e instanceof ApiError && e.code === 'wrong_credentials';
      for (let i = 0; i < 2; i++) await expect(limiter.attempt(keys, wrong, isWrong)).rejects.toThrow('no');
      await expect(limiter.attempt(keys, async () => 'ok', isWrong)).rejects.toMatchObject({ status: 429 });
    } finally {
      await limiter.close();
    }
  });
});
