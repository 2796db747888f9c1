import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MemorySessionStore,
  PgSessionStore,
  type SessionData,
  type SessionStore,
} from '../src/platform/session-store.js';
import { startStack, type TestStack } from './helpers/stack.js';
import { createLogger } from '../src/platform/logger.js';

/**
 * Issue 11, finding 4: a malformed session cookie (a NUL, anything the BFF never issues) made every
 * request of a PostgreSQL-backed BFF answer 500, the sign-in page included. A page on another port
 * of the same host can plant such a cookie, so it must cost nothing: ignored, cleared, never looked up.
 */

/** A memory store that counts its lookups and can be told to fail like an unreachable database. */
class WatchedStore implements SessionStore {
  readonly inner = new MemorySessionStore();
  lookups = 0;
  failing = false;
  async get(id: string) {
    this.lookups += 1;
    if (this.failing) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    return this.inner.get(id);
  }
  set(session: SessionData) {
    return this.inner.set(session);
  }
  delete(id: string) {
    return this.inner.delete(id);
  }
  close() {
    return this.inner.close();
  }
}

const MALFORMED = [
  '%00', // a NUL once percent-decoded: PostgreSQL refuses it in text
  `${'A'.repeat(20)}%00${'A'.repeat(20)}`,
  'j:{"id":"x"}', // cookie-parser's JSON cookies
  'garbage',
  `${'A'.repeat(42)}.`, // the right length, a character base64url never has
  'A'.repeat(44), // one too long
  '%ZZ',
];

let dist: string;
beforeAll(() => {
  dist = mkdtempSync(join(tmpdir(), 'web-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(
    join(dist, 'index.html'),
    '<!doctype html><title>Shared volumes</title><div id="root"></div>',
  );
  writeFileSync(join(dist, 'assets', 'app.js'), 'console.log(1);');
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const get = (stack: TestStack, path: string, cookie: string) =>
  fetch(stack.bffUrl + path, { headers: { Accept: 'application/json', Cookie: cookie } });

const clearsCookie = (res: Response) =>
  /^sv_session=;.*Expires=Thu, 01 Jan 1970/i.test(res.headers.get('set-cookie') ?? '');

describe('a malformed session cookie, with a memory store', () => {
  let stack: TestStack;
  const store = new WatchedStore();
  beforeAll(async () => {
    stack = await startStack({ sessions: store, bff: { webDist: dist } });
  });
  afterAll(async () => {
    await stack.close();
  });

  it('is never looked up, answers as signed out, and is cleared', async () => {
    for (const value of MALFORMED) {
      store.lookups = 0;
      const res = await get(stack, '/api/session', `sv_session=${value}`);
      expect({ value, status: res.status, lookups: store.lookups, cleared: clearsCookie(res) }).toEqual({
        value,
        status: 401,
        lookups: 0,
        cleared: true,
      });
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_authenticated');
    }
  });

  it('does not sign the user out when it comes before the real cookie (planted with a longer path)', async () => {
    const demo = await stack.signIn('demo');
    const res = await get(stack, '/api/session', `sv_session=garbage; ${demo.cookie}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('is replaced, in one Set-Cookie, by the session of a sign-in', async () => {
    for (const value of ['garbage', '']) {
      const res = await fetch(`${stack.bffUrl}/api/session`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Cookie: `sv_session=${value}` },
        body: JSON.stringify({ username: 'demo', password: 'demo' }),
      });
      expect(res.status).toBe(201);
      const cookies = res.headers.getSetCookie();
      expect({ value, cookies: cookies.length }).toEqual({ value, cookies: 1 });
      expect(cookies[0]).toMatch(/^sv_session=[A-Za-z0-9_-]{43};/);
    }
  });

  it('costs the static app no session lookup at all', async () => {
    const demo = await stack.signIn('demo');
    store.lookups = 0;
    for (const path of ['/', '/volumes/x', '/assets/app.js']) {
      for (const cookie of [demo.cookie!, 'sv_session=%00']) {
        const res = await get(stack, path, cookie);
        expect({ path, status: res.status }).toEqual({ path, status: 200 });
      }
    }
    expect(store.lookups).toBe(0);
  });

  it('turns a store that fails into a typed 503 where a session is needed, and nowhere else', async () => {
    const demo = await stack.signIn('demo');
    store.failing = true;
    try {
      const api = await get(stack, '/api/volumes', demo.cookie!);
      expect(api.status).toBe(503);
      expect(((await api.json()) as { error: { code: string } }).error.code).toBe('sessions_unavailable');
      expect(api.headers.get('set-cookie')).toBeNull();
      expect((await get(stack, '/', demo.cookie!)).status).toBe(200);
      expect((await get(stack, '/api/health', demo.cookie!)).status).toBe(200);
    } finally {
      store.failing = false;
    }
    expect((await get(stack, '/api/session', demo.cookie!)).status).toBe(200);
  });
});

const url = process.env.TEST_DATABASE_URL;

describe.runIf(url)('a malformed session cookie, with the PostgreSQL store', () => {
  const table = `bff_sessions_c_${randomBytes(5).toString('hex')}`;
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({
      sessions: new PgSessionStore(url!, createLogger('silent'), table),
      bff: { webDist: dist },
    });
  });
  afterAll(async () => {
    await stack?.close();
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    await pool.query(`drop table if exists ${table}`);
    await pool.end();
  });

  it('leaves the sign-in page and the API working (a NUL answered 500 everywhere)', async () => {
    for (const value of MALFORMED) {
      const page = await get(stack, '/', `sv_session=${value}`);
      expect({ value, page: page.status }).toEqual({ value, page: 200 });
      const api = await get(stack, '/api/session', `sv_session=${value}`);
      expect({ value, api: api.status, cleared: clearsCookie(api) }).toEqual({
        value,
        api: 401,
        cleared: true,
      });
    }
    const demo = await stack.signIn('demo');
    expect((await get(stack, '/api/session', demo.cookie!)).status).toBe(200);
  });
});
