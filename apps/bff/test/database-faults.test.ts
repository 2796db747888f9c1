import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqlLaunchStore } from '../src/features/launch/launch.store.js';
import { faultFromBody, toApiError } from '../src/openstack/fault.js';
import { createLogger } from '../src/platform/logger.js';
import { PgSessionStore } from '../src/platform/session-store.js';
import { startStack, type TestStack } from './helpers/stack.js';

/**
 * Issue 11, findings 2 and 5: the BFF's PostgreSQL stores while the database cannot be reached
 * answer the typed 503 `database_unavailable` (not a 500), and a store whose first query failed
 * works again once the database is back.
 */

const log = createLogger('silent');
const pgUrl = process.env.TEST_DATABASE_URL;

/** A PostgreSQL URL on a port nothing listens on: every connection is refused. */
async function unreachableDatabaseUrl(): Promise<string> {
  const port = await new Promise<number>((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
  return `postgres://postgres@127.0.0.1:${port}/sessions`;
}

const UNAVAILABLE = {
  error: {
    code: 'database_unavailable',
    message: 'The dashboard cannot reach its database right now. Try again in a moment.',
    requestId: expect.stringMatching(/^req-/),
  },
};

describe('the BFF while its database cannot be reached', () => {
  let sessionsDown: TestStack;
  let launchesDown: TestStack;

  beforeAll(async () => {
    const url = await unreachableDatabaseUrl();
    sessionsDown = await startStack({
      bff: { sessionDatabaseUrl: url },
      sessions: new PgSessionStore(url, log),
    });
    // Sessions in memory, launches in the unreachable database.
    launchesDown = await startStack({ bff: { sessionDatabaseUrl: url } });
  });
  afterAll(async () => {
    await sessionsDown?.close();
    await launchesDown?.close();
  });

  it('answers sign-in and session reads with the typed 503, and still serves what needs no database', async () => {
    const browser = sessionsDown.client();
    // The health check names the part that is down (for a load balancer), without a session.
    const health = await browser.get('/api/health');
    expect(health.status).toBe(503);
    expect(JSON.stringify(health.body)).toMatch(/database/);
    expect((await browser.get('/api/openapi.json')).status).toBe(200);
    const signIn = await browser.post('/api/session', { username: 'demo', password: 'demo' });
    expect(signIn.status).toBe(503);
    expect(signIn.body).toEqual(UNAVAILABLE);
    browser.cookie = `sv_session=${randomBytes(32).toString('base64url')}`;
    const session = await browser.get('/api/session');
    expect(session.status).toBe(503);
    expect(session.body).toEqual(UNAVAILABLE);
    expect(session.text).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);
  });

  it('answers launch reads with the typed 503', async () => {
    const demo = await launchesDown.signIn('demo');
    const launches = await demo.get('/api/launches');
    expect(launches.status).toBe(503);
    expect(launches.body).toEqual(UNAVAILABLE);
  });
});

describe('a cloud service that answers 503', () => {
  it('is the typed 503 cloud_unavailable, not a 502', () => {
    const fault = faultFromBody(
      'compute',
      503,
      { serviceUnavailable: { code: 503, message: 'The service is temporarily unavailable.' } },
      'req-1',
    );
    const err = toApiError(fault);
    expect(err.status).toBe(503);
    expect(err.code).toBe('cloud_unavailable');
  });
});

describe.runIf(pgUrl)('a launch store whose first connection failed', () => {
  it('tries again on the next call instead of failing until restart', async () => {
    // The database does not exist yet: the first connection fails as it would with PostgreSQL away.
    const name = `launches_${randomBytes(5).toString('hex')}`;
    const url = new URL(pgUrl!);
    url.pathname = `/${name}`;
    const store = SqlLaunchStore.postgres(url.toString(), log);
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    try {
      await expect(store.list('p1', 10)).rejects.toThrow();
      await admin.query(`create database "${name}"`);
      await expect(store.list('p1', 10)).resolves.toEqual([]);
    } finally {
      await store.close();
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    }
  });
});
