import { describe, expect } from 'vitest';
import { overflowKind } from '../../src/platform/http/client-error.js';
import { http, type TestCloud } from '../helpers/cloud.js';
import { cloudTest } from '../helpers/cloud-test.js';
import { longRequestLine, sendOnSocket } from '../helpers/raw-socket.js';

/**
 * What Node's HTTP parser refuses before any route runs (a request line or headers past its
 * 16 KB limit, bytes that are not HTTP) is answered in OpenStack's fault format, over a real
 * socket: Nova's and Cinder's fault, Keystone's `{"error": ...}` under /identity. A request line
 * too long is 414 as Nova and Cinder answer it (captures 422, 423); long headers are 431.
 */
let tc: TestCloud;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud }) => {
  tc = cloud;
});

describe('requests refused before routing', () => {
  it('a request line over 16 KB is 414 with a Nova fault body', async () => {
    const res = await sendOnSocket(tc.url, [longRequestLine('/compute/v2.1/servers', 20_000)]);
    expect(res.status, res.raw.slice(0, 200)).toBe(414);
    expect(res.headers['content-type']).toBe('application/json');
    expect(JSON.parse(res.body)).toEqual({
      computeFault: { code: 414, message: 'The request line is too long.' },
    });
  });

  it('the same on Cinder, and when the request line comes in two packets', async () => {
    const line = longRequestLine('/volume/v3/p/volumes', 20_000);
    const res = await sendOnSocket(tc.url, [line.slice(0, 9_000), line.slice(9_000)]);
    expect(res.status, res.raw.slice(0, 200)).toBe(414);
    expect(JSON.parse(res.body)).toEqual({
      computeFault: { code: 414, message: 'The request line is too long.' },
    });
  });

  it("under /identity the body is Keystone's error", async () => {
    const res = await sendOnSocket(tc.url, [longRequestLine('/identity/v3/users', 20_000)]);
    expect(res.status).toBe(414);
    expect(JSON.parse(res.body)).toEqual({
      error: { code: 414, message: 'The request line is too long.', title: 'Request-URI Too Long' },
    });
  });

  it('headers over 16 KB are 431 with a fault body', async () => {
    const res = await sendOnSocket(tc.url, [
      `GET /compute/v2.1/servers HTTP/1.1\r\nHost: x\r\nX-Auth-Token: ${'t'.repeat(20_000)}\r\n\r\n`,
    ]);
    expect(res.status, res.raw.slice(0, 200)).toBe(431);
    expect(JSON.parse(res.body)).toEqual({
      computeFault: { code: 431, message: 'The request headers are too large.' },
    });
  });

  it('bytes that are not HTTP are 400 in the fault format', async () => {
    const res = await sendOnSocket(tc.url, ['GET /compute/ HTTP/1.1\r\nHost x\r\n\r\n']);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({
      badRequest: { code: 400, message: 'The request is not valid HTTP.' },
    });
  });

  it('the cloud goes on serving', async () => {
    const res = await http(tc, 'GET', '/identity/v3');
    expect(res.status).toBe(200);
  });
});

describe('overflowKind', () => {
  const kind = (s: string) => overflowKind(Buffer.from(s, 'latin1'));
  it('tells a long request line from long headers by the first line of the chunk', () => {
    expect(kind(`GET /${'a'.repeat(20_000)}`)).toBe('request-line');
    expect(kind(`GET /${'a'.repeat(9_000)} HTTP/1.1\r\nHost: x\r\n`)).toBe('request-line');
    expect(kind(`${'a'.repeat(100)} HTTP/1.1\r\nHost: x\r\n`)).toBe('request-line');
    expect(kind(`AAAA HTTP/1.1\r\nHost: x\r\n`)).toBe('request-line');
    expect(kind(`${'a'.repeat(100)}`)).toBe('request-line');
    expect(kind(`GET /x?a=1 HTTP/1.1\r\nHost: x\r\nCookie: ${'c'.repeat(20_000)}`)).toBe('headers');
    expect(kind(`GET http://h/x HTTP/1.1\r\nX: ${'c'.repeat(100)}`)).toBe('headers');
    expect(kind(`Cookie: ${'c'.repeat(100)}\r\n\r\n`)).toBe('headers');
    expect(kind(`X-Long: ${'c'.repeat(100)}`)).toBe('headers');
    expect(overflowKind(undefined)).toBe('request-line');
  });
});
