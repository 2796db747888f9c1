import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { longRequestLine, sendOnSocket } from '../../cloud/test/helpers/raw-socket.js';
import { startStack, type TestStack } from './helpers/stack.js';

/**
 * What Node's HTTP parser refuses before Express runs (an address or headers past its 16 KB
 * limit, bytes that are not HTTP) gets the BFF's typed error JSON over a real socket, as every
 * other BFF error does, instead of a bare status line.
 */
let stack: TestStack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack.close();
});

describe('requests refused before routing', () => {
  it('an address over 16 KB is 431 with a typed error', async () => {
    const res = await sendOnSocket(stack.bffUrl, [longRequestLine('/api/volumes', 20_000)]);
    expect(res.status, res.raw.slice(0, 200)).toBe(431);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(res.body)).toEqual({
      error: { code: 'request_too_large', message: "The request's address or headers are too large." },
    });
  });

  it('an oversized cookie is 431 with a typed error', async () => {
    const res = await sendOnSocket(stack.bffUrl, [
      `GET /api/session HTTP/1.1\r\nHost: x\r\nCookie: sid=${'c'.repeat(20_000)}\r\n\r\n`,
    ]);
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body).error.code).toBe('request_too_large');
  });

  it('bytes that are not HTTP are 400 with a typed error', async () => {
    const res = await sendOnSocket(stack.bffUrl, ['GET /api/session HTTP/1.1\r\nHost x\r\n\r\n']);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({
      error: { code: 'malformed_request', message: 'The request is not valid HTTP.' },
    });
  });

  it('the BFF goes on serving', async () => {
    expect((await stack.client().get('/api/health')).status).toBe(200);
  });
});
