import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEVEL } from './log-buffer.js';
import { startTracedStack, type TracedStack } from './traced-stack.js';

// One request id, followed from the BFF's answer to the BFF's log and into the cloud's log: the cloud
// and the BFF run in this process, each logging (at debug) into a buffer the test reads.

const REQ_UUID = /^req-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let stack: TracedStack;
let cookie = '';

beforeAll(async () => {
  stack = await startTracedStack();
  cookie = await stack.signIn();
});
afterAll(() => stack.close());

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(stack.bffUrl + path, { headers: { Cookie: cookie, Accept: 'application/json', ...headers } });

describe('a request id from the browser to the cloud', () => {
  it('is on the answer, on the BFF access line, and in the cloud log of every call made for it', async () => {
    const res = await get('/api/volumes');
    expect(res.status).toBe(200);
    const id = res.headers.get('x-request-id') ?? '';
    expect(id).toMatch(REQ_UUID);

    const access = stack.bffLog.lines().filter((l) => l.requestId === id && l.req);
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({
      level: LEVEL.debug,
      req: { method: 'GET', url: '/api/volumes' },
      res: { statusCode: 200 },
    });
    expect(access[0]?.msg).toMatch(/^GET \/api\/volumes 200 \d+ms$/);

    // The cloud gave each call its own id and logged the BFF's next to it, as Nova does.
    const cloudLines = stack.cloudLog.lines().filter((l) => l.globalRequestId === id);
    expect(cloudLines.length).toBeGreaterThan(0);
    for (const line of cloudLines) expect(line.requestId).toMatch(REQ_UUID);
    expect(cloudLines.map((l) => l.requestId)).not.toContain(id);
    expect(cloudLines.some((l) => l.req?.url?.startsWith('/volume/v3/'))).toBe(true);

    // And the BFF's debug line for each call names the cloud's own id: the way back.
    const calls = stack.bffLog.lines().filter((l) => l.requestId === id && l.upstream);
    expect(calls.map((c) => c.cloudRequestId).sort()).toEqual(
      cloudLines
        .filter((l) => l.req)
        .map((l) => l.requestId)
        .sort(),
    );
  });

  it('keeps a sane X-Request-Id from the caller and sends its UUID to the cloud as req-<uuid>', async () => {
    const uuid = '0f5d8a2e-7c1b-4e8a-9d3f-2a6b1c4e5f70';
    const res = await get('/api/volumes', { 'X-Request-Id': uuid });
    expect(res.headers.get('x-request-id')).toBe(uuid);
    expect(stack.cloudLog.lines().some((l) => l.globalRequestId === `req-${uuid}`)).toBe(true);
  });

  it('keeps an id from a proxy that OpenStack would not take, and logs the one it sends instead', async () => {
    const proxyId = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    const res = await get('/api/servers', { 'X-Request-Id': proxyId });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe(proxyId);
    const access = stack.bffLog.lines().find((l) => l.requestId === proxyId && l.req);
    expect(access?.openstackRequestId).toMatch(REQ_UUID);
    expect(stack.cloudLog.lines().some((l) => l.globalRequestId === access?.openstackRequestId)).toBe(true);
  });

  it('replaces an id that is too long or could break a log line or header', async () => {
    for (const bad of ['x'.repeat(129), 'a b', 'id;drop', 'line\tbreak']) {
      const res = await get('/api/volumes', { 'X-Request-Id': bad });
      expect(res.headers.get('x-request-id')).toMatch(REQ_UUID);
    }
  });

  it('puts the id in the error body, the same as the header', async () => {
    const res = await get('/api/volumes/does-not-exist');
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: { requestId?: string } };
    expect(body.error.requestId).toBe(res.headers.get('x-request-id'));
    const refused = await fetch(`${stack.bffUrl}/api/volumes`);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { requestId?: string } }).error.requestId).toBe(
      refused.headers.get('x-request-id'),
    );
  });

  it('logs no cookie, CSRF token or other header', async () => {
    await get('/api/volumes', { 'X-CSRF-Token': 'secret-csrf' });
    const all = stack.bffLog.raw.join('');
    expect(all).not.toContain(cookie.split('=')[1]);
    expect(all).not.toContain('secret-csrf');
  });
});
