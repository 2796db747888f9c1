import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AppProcess,
  pgUrl,
  type ScratchDatabase,
  scratchDatabase,
  spawnBff,
  spawnCloud,
} from './helpers/processes.js';

/**
 * Sessions kept in PostgreSQL outlive the BFF process that made them: after kill -9 a new process
 * on the same database accepts the same cookie and the same CSRF token, and two processes at once
 * serve one session, including its sign-out.
 */

// biome-ignore lint/suspicious/noExplicitAny: API bodies are read loosely here
type Json = any;

/** A browser: one cookie jar and CSRF token, sent to whichever BFF process it is pointed at. */
class Browser {
  cookie = '';
  csrf = '';

  async call(
    bff: AppProcess,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Json }> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.cookie) headers.Cookie = this.cookie;
    if (method !== 'GET' && this.csrf) headers['X-CSRF-Token'] = this.csrf;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(bff.url + path, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(30_000),
    });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0] ?? '';
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : undefined;
    if (parsed && typeof parsed.csrfToken === 'string') this.csrf = parsed.csrfToken;
    return { status: res.status, body: parsed };
  }

  async signIn(bff: AppProcess, user: string): Promise<void> {
    const res = await this.call(bff, 'POST', '/api/session', { username: user, password: user });
    if (res.status !== 201)
      throw new Error(`sign-in on ${bff.name}: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

describe.skipIf(!pgUrl())('BFF processes on PostgreSQL sessions', () => {
  let db: ScratchDatabase;
  let cloud: AppProcess;
  const bffs: AppProcess[] = [];
  const bff = async (name: string) => {
    const p = await spawnBff({ authUrl: `${cloud.url}/identity/v3`, databaseUrl: db.url, name });
    bffs.push(p);
    return p;
  };

  beforeAll(async () => {
    db = await scratchDatabase('bff');
    cloud = await spawnCloud({ databaseUrl: db.url, backendDelayMs: 0, name: 'cloud' });
  });
  afterAll(async () => {
    for (const p of bffs) await p.kill();
    await cloud?.kill();
    await db?.drop();
  });

  it('a session survives kill -9 of its BFF: same cookie, same CSRF token', async () => {
    const first = await bff('bff-1');
    const browser = new Browser();
    await browser.signIn(first, 'demo');
    const { cookie, csrf } = browser;
    expect(cookie).toMatch(/^sv_session=.+/);
    expect((await browser.call(first, 'GET', '/api/volumes')).status).toBe(200);

    await first.kill();
    const second = await bff('bff-2');
    const session = await browser.call(second, 'GET', '/api/session');
    expect(session.status).toBe(200);
    expect(session.body.user.name).toBe('demo');
    expect(session.body.csrfToken).toBe(csrf);
    expect((await browser.call(second, 'GET', '/api/volumes')).status).toBe(200);

    // The token is still checked, and the one from before the kill is still the right one.
    const forged = new Browser();
    forged.cookie = cookie;
    forged.csrf = 'not-the-token';
    expect((await forged.call(second, 'POST', '/api/volumes', { name: 'forged', sizeGb: 1 })).status).toBe(
      403,
    );
    const created = await browser.call(second, 'POST', '/api/volumes', { name: 'after-restart', sizeGb: 1 });
    expect(created.status).toBe(201);
    expect(browser.cookie).toBe(cookie);
    const list = await browser.call(second, 'GET', '/api/volumes');
    expect(list.body.volumes.map((v: { name: string }) => v.name)).toContain('after-restart');
  });

  it('two BFF processes serve one session, and signing out on one signs out on both', async () => {
    const left =
      bffs.find((p) => p.child.exitCode === null && p.child.signalCode === null) ?? (await bff('bff-2'));
    const right = await bff('bff-3');
    const browser = new Browser();
    await browser.signIn(right, 'demo');
    const cookie = browser.cookie;

    expect((await browser.call(left, 'GET', '/api/session')).status).toBe(200);
    const created = await browser.call(left, 'POST', '/api/volumes', { name: 'via-left', sizeGb: 1 });
    expect(created.status).toBe(201);
    expect((await browser.call(right, 'GET', `/api/volumes/${created.body.id}`)).status).toBe(200);

    expect((await browser.call(right, 'DELETE', '/api/session')).status).toBe(204);
    // The browser forgot the cookie; a copy of it (another tab, a thief) is refused everywhere.
    const stale = new Browser();
    stale.cookie = cookie;
    expect((await stale.call(left, 'GET', '/api/session')).status).toBe(401);
    expect((await stale.call(left, 'GET', '/api/volumes')).status).toBe(401);
    expect((await stale.call(right, 'GET', '/api/session')).status).toBe(401);
  });
});
