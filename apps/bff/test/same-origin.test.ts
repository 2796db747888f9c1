import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startStack, type TestStack } from './helpers/stack.js';

/**
 * Issue 11, defence in depth: every state-changing request is checked for the site that sent it
 * (`Origin`, else `Sec-Fetch-Site`, else `Referer`), on top of the CSRF token; a change sent from
 * another site is a typed 403, signing in included.
 */

let stack: TestStack;
let demo: ApiClient;
beforeAll(async () => {
  stack = await startStack({ bff: { allowedOrigins: ['https://dashboard.example'] } });
  demo = await stack.signIn('demo');
});
afterAll(async () => {
  await stack.close();
});

const volume = { name: 'origin', sizeGb: 1 };

describe('the Origin check', () => {
  it('refuses a change from another site even with the session and its CSRF token', async () => {
    const crossSite: Record<string, string>[] = [
      { Origin: 'http://evil.example' },
      { Origin: 'null' },
      { Origin: `${stack.bffUrl}.evil.example` },
      { Origin: 'not a url' },
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'same-site' },
      { Referer: 'http://evil.example/page' },
    ];
    for (const headers of crossSite) {
      const res = await demo.request('POST', '/api/volumes', volume, headers);
      expect({ headers, status: res.status, code: res.body?.error?.code }).toEqual({
        headers,
        status: 403,
        code: 'cross_origin',
      });
    }
    const deleted = await demo.request('DELETE', '/api/session', undefined, {
      Origin: 'http://evil.example',
    });
    expect(deleted.status).toBe(403);
    expect((await demo.get('/api/session')).status).toBe(200);
  });

  it('refuses a sign-in from another site (it would sign the browser in as someone else)', async () => {
    const c = stack.client();
    const res = await c.request(
      'POST',
      '/api/session',
      { username: 'demo', password: 'demo' },
      { Origin: 'http://evil.example' },
    );
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('cross_origin');
    expect(c.cookie).toBeNull();
  });

  it('lets the dashboard itself, a configured origin, and clients that are not browsers through', async () => {
    const own = new URL(stack.bffUrl).origin;
    const sameSite: Record<string, string>[] = [
      { Origin: own },
      { Origin: 'https://dashboard.example' },
      { 'Sec-Fetch-Site': 'same-origin' },
      { Referer: `${own}/volumes` },
      {},
    ];
    for (const headers of sameSite) {
      const res = await demo.request('POST', '/api/volumes', volume, headers);
      expect({ headers, status: res.status }).toEqual({ headers, status: 201 });
    }
  });

  it('leaves reads alone', async () => {
    const res = await demo.request('GET', '/api/volumes', undefined, { Origin: 'http://evil.example' });
    expect(res.status).toBe(200);
  });
});
