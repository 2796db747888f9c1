import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, logOutputFor } from '../logger.js';
import { requestId } from './request-id.js';

// Each request gets the cloud's own id; a caller's X-OpenStack-Request-ID in oslo's `req-<uuid>`
// form is logged next to it as the global id (anything else is ignored), and the per-request line is
// debug for successes, so a dashboard's polling does not flood the console.

const raw: string[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    raw.push(String(chunk));
    done();
  },
});
// biome-ignore lint/suspicious/noExplicitAny: tests read log fields freely
const lines = (): any[] => raw.flatMap((c) => c.split('\n').filter(Boolean)).map((l) => JSON.parse(l));

let server: Server;
let base: string;
beforeAll(async () => {
  const app = express();
  app.use(requestId(createLogger('debug', { destination: sink })));
  app.get('/ok', (req, res) => {
    req.ctx.log.debug('inside');
    res.json({});
  });
  app.get('/missing', (_req, res) => {
    res.status(404).json({});
  });
  app.get('/broken', (_req, res) => {
    res.status(500).json({});
  });
  server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});

const GLOBAL = 'req-1b4e28ba-2fa1-41d2-883f-0016d3cca427';

describe('request ids in the cloud', () => {
  it("logs the caller's global id with its own on every line of the request", async () => {
    const res = await fetch(`${base}/ok`, { headers: { 'X-OpenStack-Request-ID': GLOBAL } });
    const own = res.headers.get('x-openstack-request-id');
    expect(own).toMatch(/^req-[0-9a-f-]{36}$/);
    expect(own).not.toBe(GLOBAL);
    const mine = lines().filter((l) => l.requestId === own);
    expect(mine.map((l) => l.msg)).toEqual(['inside', expect.stringMatching(/^GET \/ok 200 \d+ms$/)]);
    for (const l of mine) expect(l.globalRequestId).toBe(GLOBAL);
  });

  it('ignores a global id not in the req-<uuid> form', async () => {
    for (const bad of ['req-1', 'REQ-1B4E28BA-2FA1-41D2-883F-0016D3CCA427', `${GLOBAL}x`, 'x'.repeat(300)]) {
      const res = await fetch(`${base}/ok`, { headers: { 'X-OpenStack-Request-ID': bad } });
      const line = lines().find((l) => l.requestId === res.headers.get('x-openstack-request-id'));
      expect(line).toBeDefined();
      expect(line.globalRequestId).toBeUndefined();
    }
  });

  it('logs successes at debug, refusals at info, failures at error', async () => {
    const level = async (path: string) => {
      const res = await fetch(base + path);
      return lines().find((l) => l.requestId === res.headers.get('x-openstack-request-id') && l.req)?.level;
    };
    expect(await level('/ok')).toBe(20);
    expect(await level('/missing')).toBe(30);
    expect(await level('/broken')).toBe(50);
  });
});

describe('the log format contract', () => {
  it('is the same as the BFF one', () => {
    expect(logOutputFor({}, true)).toEqual({ format: 'pretty', colour: true });
    expect(logOutputFor({}, false)).toEqual({ format: 'json', colour: false });
    expect(logOutputFor({ NODE_ENV: 'production' }, true).format).toBe('json');
    expect(logOutputFor({ LOG_FORMAT: 'pretty', NO_COLOR: '1', FORCE_COLOR: '1' }, false)).toEqual({
      format: 'pretty',
      colour: false,
    });
  });
});
