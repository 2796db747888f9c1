import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessLevel, accessLog } from '../../src/platform/access-log.js';
import { ApiError, errorHandler } from '../../src/platform/errors.js';
import { createLogger } from '../../src/platform/logger.js';
import { LEVEL, logBuffer } from './log-buffer.js';

// One access line per request, at a level that keeps `npm start` quiet: successes debug, a client's
// mistake info, the cloud failing us warn (no stack: an expected state), a bug error (with its stack).

const log = logBuffer();
let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(accessLog(createLogger('debug', { destination: log })));
  app.get('/ok', (_req, res) => {
    res.json({});
  });
  app.get('/bug', () => {
    throw new Error('a bug');
  });
  app.get('/cloud-failed', () => {
    throw new ApiError(502, 'cloud_error', 'The compute service failed: boom', { service: 'compute' });
  });
  app.use(errorHandler(createLogger('silent')));
  server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});

const lineFor = (res: Response) => log.lines().find((l) => l.requestId === res.headers.get('x-request-id'));

describe('the access line', () => {
  it('levels by status', () => {
    expect([200, 204, 304, 400, 401, 404, 500, 502, 503, 504].map((s) => accessLevel(s, false))).toEqual([
      'debug',
      'debug',
      'debug',
      'info',
      'info',
      'info',
      'error',
      'warn',
      'warn',
      'warn',
    ]);
    expect(accessLevel(200, true)).toBe('error');
  });

  it('keeps the stack of a bug, and the body says only that something went wrong, with the id', async () => {
    const res = await fetch(`${base}/bug`);
    expect(res.status).toBe(500);
    const body = (await res.json()) as { error: Record<string, unknown> };
    expect(body.error).toEqual({
      code: 'internal',
      message: 'Something went wrong on our side. Try again.',
      requestId: res.headers.get('x-request-id'),
    });
    const line = lineFor(res);
    expect(line).toMatchObject({ level: LEVEL.error, res: { statusCode: 500 }, err: { message: 'a bug' } });
    expect(line?.err.stack).toContain('Error: a bug');
    expect(line?.msg).toMatch(/^GET \/bug 500 \d+ms$/);
  });

  it('names the typed failure of the cloud without a stack', async () => {
    const res = await fetch(`${base}/cloud-failed`);
    expect(res.status).toBe(502);
    const line = lineFor(res);
    expect(line).toMatchObject({
      level: LEVEL.warn,
      error: { code: 'cloud_error', details: { service: 'compute' } },
    });
    expect(line?.err).toBeUndefined();
  });

  it('is debug for a success, with method, path, status and time, and nothing else of the request', async () => {
    const res = await fetch(`${base}/ok?x=1`, { headers: { Cookie: 'sv_session=secret' } });
    const line = lineFor(res);
    expect(line).toMatchObject({
      level: LEVEL.debug,
      req: { method: 'GET', url: '/ok?x=1' },
      res: { statusCode: 200 },
    });
    expect(Object.keys(line?.req ?? {})).toEqual(['method', 'url']);
    expect(JSON.stringify(line)).not.toContain('secret');
  });
});
