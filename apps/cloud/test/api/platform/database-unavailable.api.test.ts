import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler } from 'express';
import { describe, expect, it } from 'vitest';
import { keystoneFaultHandler } from '../../../src/identity/http.js';
import { createLogger } from '../../../src/platform/logger.js';
import { faultHandler } from '../../../src/platform/http/faults.js';

const log = createLogger('silent');

/** What a route answers when its query fails with `err`, rendered by `handler`. */
async function answerTo(err: unknown, handler: ErrorRequestHandler) {
  const app = express();
  app.use((req, _res, next) => {
    req.ctx = { log } as typeof req.ctx;
    next();
  });
  app.get('/', () => {
    throw err;
  });
  app.use(handler);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() };
  } finally {
    server.close();
  }
}

const terminated = Object.assign(new Error('terminating connection due to administrator command'), {
  code: '57P01',
});

describe('a database that cannot be used', () => {
  it("is Nova's and Cinder's serviceUnavailable 503, with Retry-After", async () => {
    expect(await answerTo(terminated, faultHandler('nova'))).toEqual({
      status: 503,
      retryAfter: '5',
      body: {
        serviceUnavailable: {
          code: 503,
          message: 'The service is temporarily unavailable: its database cannot be reached. Try again later.',
        },
      },
    });
  });

  it("is Keystone's 503 error, with Retry-After", async () => {
    const timeout = new Error('timeout exceeded when trying to connect');
    expect(await answerTo(timeout, keystoneFaultHandler)).toEqual({
      status: 503,
      retryAfter: '5',
      body: {
        error: {
          code: 503,
          title: 'Service Unavailable',
          message:
            'The service is temporarily unavailable: its database did not answer in time. Try again later.',
        },
      },
    });
  });

  it('leaves any other error a 500', async () => {
    const bug = Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' });
    const nova = await answerTo(bug, faultHandler('nova'));
    expect(nova.status).toBe(500);
    expect(nova.retryAfter).toBeNull();
  });
});
