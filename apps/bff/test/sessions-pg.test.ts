import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_IMAGE_ID } from '../../cloud/src/image/seed.js';
import { startCloud, type TestCloud } from '../../cloud/test/helpers/cloud.js';
import { createBffApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/platform/logger.js';
import { PgSessionStore } from '../src/platform/session-store.js';

/**
 * Two BFF processes (two apps on two ports, each with its own pool) behind one imaginary load
 * balancer, sharing sessions and launches in one PostgreSQL database.
 */
const url = process.env.TEST_DATABASE_URL;

describe.runIf(url)(
  'sessions in PostgreSQL shared by two BFFs (needs TEST_DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/test)',
  () => {
    const table = `bff_sessions_t_${randomBytes(5).toString('hex')}`;
    const launchIds: string[] = [];
    let cloud: TestCloud;
    const bffs: { url: string; server: Server; store: PgSessionStore }[] = [];

    beforeAll(async () => {
      cloud = await startCloud();
      for (let i = 0; i < 2; i++) {
        const store = new PgSessionStore(url!, createLogger('silent'), table);
        const app = createBffApp({
          config: {
            ...loadConfig({}),
            databaseFile: ':memory:',
            port: 0,
            authUrl: `${cloud.url}/identity/v3`,
            sessionDatabaseUrl: url!,
            logLevel: 'silent',
            webDist: '/nonexistent',
            loginRateLimit: 1000,
          },
          logger: createLogger('silent'),
          sessions: store,
        });
        const server: Server = await new Promise((resolve) => {
          const s = app.listen(0, '127.0.0.1', () => resolve(s));
        });
        bffs.push({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, store });
      }
    });

    afterAll(async () => {
      for (const b of bffs) {
        await new Promise<void>((resolve) => b.server.close(() => resolve()));
        b.server.closeAllConnections();
        await b.store.close();
      }
      const pool = new pg.Pool({ connectionString: url, max: 1 });
      await pool.query(`drop table if exists ${table}`);
      if (launchIds.length > 0) await pool.query('delete from bff_launches where id = any($1)', [launchIds]);
      await pool.end();
      await cloud?.close();
    });

    /** The browser: one cookie jar and CSRF token, sent to whichever BFF the balancer picks. */
    const browser = { cookie: '', csrf: '' };
    async function call(bff: number, method: string, path: string, body?: unknown) {
      const headers: Record<string, string> = { Accept: 'application/json' };
      if (browser.cookie) headers.Cookie = browser.cookie;
      if (method !== 'GET') headers['X-CSRF-Token'] = browser.csrf;
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const res = await fetch(bffs[bff]!.url + path, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const setCookie = res.headers.get('set-cookie');
      if (setCookie) browser.cookie = setCookie.split(';')[0] ?? '';
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    }

    it('signs in through one BFF and is the same session on the other; logging out on either ends it', async () => {
      const login = await call(0, 'POST', '/api/session', { username: 'demo', password: 'demo' });
      expect(login.status).toBe(201);
      browser.csrf = login.body.csrfToken;

      const other = await call(1, 'GET', '/api/session');
      expect(other.status).toBe(200);
      expect(other.body).toEqual(login.body);

      // A mutation on the second BFF passes its CSRF check with the token the first one issued.
      const plan = await call(1, 'POST', '/api/launches/plan', {
        name: 'pg',
        count: 1,
        flavorId: '1',
        boot: { source: 'image', imageId: SEED_IMAGE_ID },
      });
      expect(plan.status).toBe(200);
      expect(plan.body.ok).toBe(true);

      expect((await call(1, 'DELETE', '/api/session')).status).toBe(204);
    });

    it('refuses the old cookie on the first BFF after logging out on the second', async () => {
      const login = await call(0, 'POST', '/api/session', { username: 'demo', password: 'demo' });
      const cookie = browser.cookie;
      browser.csrf = login.body.csrfToken;
      expect((await call(1, 'DELETE', '/api/session')).status).toBe(204);
      browser.cookie = cookie;
      const after = await call(0, 'GET', '/api/session');
      expect(after.status).toBe(401);
    });

    it('reports on one BFF the progress of a launch the other one drives', async () => {
      const login = await call(0, 'POST', '/api/session', { username: 'demo', password: 'demo' });
      browser.csrf = login.body.csrfToken;
      const started = await call(0, 'POST', '/api/launches', {
        name: 'across',
        count: 2,
        flavorId: '1',
        boot: { source: 'image', imageId: SEED_IMAGE_ID },
      });
      expect(started.status).toBe(202);
      launchIds.push(started.body.id);
      let seen = await call(1, 'GET', `/api/launches/${started.body.id}`);
      expect(seen.status).toBe(200);
      for (let i = 0; i < 200 && seen.body.status === 'running'; i++) {
        await new Promise((r) => setTimeout(r, 50));
        seen = await call(1, 'GET', `/api/launches/${started.body.id}`);
      }
      expect(seen.body.status).toBe('succeeded');
      expect(seen.body.servers.map((s: { state: string }) => s.state)).toEqual(['active', 'active']);
      const listed = await call(1, 'GET', '/api/launches');
      expect(listed.body.launches.map((l: { id: string }) => l.id)).toContain(started.body.id);
    });
  },
);

describe.runIf(url)('a session store whose first query failed', () => {
  it('tries again on the next request instead of failing forever', async () => {
    // The table's schema does not exist yet: the store's first query fails as it would with PostgreSQL down.
    const schema = `s_${randomBytes(5).toString('hex')}`;
    const store = new PgSessionStore(url!, createLogger('silent'), `${schema}.bff_sessions`);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await expect(store.get('nobody')).rejects.toThrow();
      await admin.query(`create schema ${schema}`);
      await expect(store.get('nobody')).resolves.toBeNull();
    } finally {
      await store.close();
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    }
  });
});
