import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenStackFault } from '../src/openstack/fault.js';
import { callOpenStack } from '../src/openstack/http.js';
import { ApiError } from '../src/platform/errors.js';

// The transport under every cloud call: pooled keep-alive connections, faults, redirects.
let server: Server;
let base: string;
const seen: { method: string; url: string; body: string; socket: unknown }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', body, socket: req.socket });
      if (req.url === '/moved') {
        res.writeHead(307, { Location: '/target' }).end();
      } else if (req.url === '/see-other') {
        res.writeHead(303, { Location: '/target' }).end();
      } else if (req.url === '/fault') {
        res
          .writeHead(400, { 'Content-Type': 'application/json', 'x-openstack-request-id': 'req-1' })
          .end(JSON.stringify({ badRequest: { code: 400, message: 'Invalid volume: nope' } }));
      } else {
        res
          .writeHead(200, { 'Content-Type': 'application/json', 'x-subject-token': 'tok' })
          .end(JSON.stringify({ method: req.method, body: body ? JSON.parse(body) : null }));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('callOpenStack', () => {
  it('sends JSON with the token and microversion headers, and reuses the connection', async () => {
    const a = await callOpenStack('compute', `${base}/x`, {
      method: 'POST',
      body: { server: { name: 'a' } },
      token: 't',
      microversion: 'compute 2.105',
    });
    expect(a).toMatchObject({ status: 200, body: { method: 'POST', body: { server: { name: 'a' } } } });
    expect(a.headers.get('x-subject-token')).toBe('tok');
    await callOpenStack('compute', `${base}/y`);
    expect(seen.at(-1)!.socket).toBe(seen.at(-2)!.socket);
  });

  it('turns a fault body into an OpenStackFault, unless the status is allowed', async () => {
    const err = await callOpenStack('compute', `${base}/fault`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenStackFault);
    expect(err).toMatchObject({ status: 400, message: 'Invalid volume: nope', requestId: 'req-1' });
    expect((await callOpenStack('compute', `${base}/fault`, { allow: [400] })).status).toBe(400);
  });

  it('follows redirects as fetch does', async () => {
    const kept = await callOpenStack('image', `${base}/moved`, { method: 'POST', body: { a: 1 } });
    expect(kept.body).toEqual({ method: 'POST', body: { a: 1 } });
    const asGet = await callOpenStack('image', `${base}/see-other`, { method: 'POST', body: { a: 1 } });
    expect(asGet.body).toEqual({ method: 'GET', body: null });
  });

  it('answers 503 cloud_unreachable when nothing listens', async () => {
    const err = await callOpenStack('identity', 'http://127.0.0.1:9/v3').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 503, code: 'cloud_unreachable' });
  });
});

describe('callOpenStack on pooled connections the server is closing', () => {
  // A cloud that drops the connections it has served so far, without an answer, the next time one
  // is used: what a keep-alive timeout firing as the BFF reuses its idle sockets looks like.
  let cloud: Server;
  let url: string;
  const served = new Set<unknown>();
  const doomed = new Set<unknown>();
  beforeAll(async () => {
    cloud = createServer((req, res) => {
      if (doomed.has(req.socket)) {
        req.socket.destroy();
        return;
      }
      served.add(req.socket);
      setTimeout(() => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}'), 20);
    });
    await new Promise<void>((r) => cloud.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(cloud.address() as AddressInfo).port}/v3`;
  });
  afterAll(async () => {
    cloud.closeAllConnections();
    await new Promise((r) => cloud.close(r));
  });

  it("drops an idle connection before the server's announced keep-alive timeout", async () => {
    // Announces 2 s but keeps connections open: only the client's own timer can tell them apart.
    const hinting = createServer((req, res) => {
      res.setHeader('Keep-Alive', 'timeout=2');
      res.end(JSON.stringify({ port: req.socket.remotePort }));
    });
    hinting.keepAliveTimeout = 60_000;
    await new Promise<void>((r) => hinting.listen(0, '127.0.0.1', r));
    const at = `http://127.0.0.1:${(hinting.address() as AddressInfo).port}/v3`;
    try {
      const first = await callOpenStack<{ port: number }>('compute', at);
      expect((await callOpenStack<{ port: number }>('compute', at)).body.port).toBe(first.body.port);
      await new Promise((r) => setTimeout(r, 1_300));
      expect((await callOpenStack<{ port: number }>('compute', at)).body.port).not.toBe(first.body.port);
    } finally {
      hinting.closeAllConnections();
      await new Promise((r) => hinting.close(r));
    }
  });

  it('reads again on a new connection when every idle one turns out closed', async () => {
    // Three calls at once leave three idle sockets in the pool; then all of them go bad.
    await Promise.all([1, 2, 3].map(() => callOpenStack('compute', url)));
    for (const s of served) doomed.add(s);
    expect(doomed.size).toBe(3);
    const res = await callOpenStack('compute', url);
    expect(res).toMatchObject({ status: 200, body: { ok: true } });
  });
});
