import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoveryCache } from './discovery.js';

/** A compute and a volume service that answer discovery and count what they are asked. */
let server: Server;
let base = '';
const asked: string[] = [];
let computeMax = '2.105';
let failVolume = false;
beforeAll(async () => {
  server = createServer((req, res) => {
    asked.push(req.url ?? '');
    res.setHeader('Content-Type', 'application/json');
    if (req.url === '/compute/') {
      res.end(JSON.stringify({ version: { id: 'v2.1', min_version: '2.1', version: computeMax } }));
    } else if (req.url === '/volume/v3/') {
      if (failVolume) {
        res.statusCode = 503;
        res.end('{}');
        return;
      }
      res.end(
        JSON.stringify({
          versions: [{ id: 'v3.0', status: 'CURRENT', min_version: '3.0', version: '3.70' }],
        }),
      );
    } else {
      res.statusCode = 404;
      res.end(JSON.stringify({ itemNotFound: { code: 404, message: 'The resource could not be found.' } }));
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('discoveryCache', () => {
  it('asks once per cloud and audience within the time to live, for every project of the cloud', async () => {
    let now = 0;
    const cache = discoveryCache(60_000, () => now);
    asked.length = 0;
    computeMax = '2.105';
    const first = await cache.get(`${base}/compute`, `${base}/volume/v3/p1`, 't', 'member');
    expect(first).toEqual({
      compute: { min: '2.1', max: '2.105' },
      volume: { min: '3.0', max: '3.70' },
      topologyExtension: false,
    });
    expect(asked).toHaveLength(3);
    // Another project's volume endpoint on the same cloud: the same answer, nothing asked.
    await cache.get(`${base}/compute`, `${base}/volume/v3/p2`, 't2', 'member');
    expect(asked).toHaveLength(3);
    // An admin's probe is its own.
    await cache.get(`${base}/compute`, `${base}/volume/v3/p1`, 't3', 'admin');
    expect(asked).toHaveLength(6);
    // After the time to live the cloud is asked again, and an upgrade shows.
    computeMax = '2.96';
    now = 60_000;
    const later = await cache.get(`${base}/compute`, `${base}/volume/v3/p1`, 't', 'member');
    expect(later.compute.max).toBe('2.96');
    expect(asked).toHaveLength(9);
  });

  it('keeps no failed discovery, and asks every time when the time to live is 0', async () => {
    const cache = discoveryCache(60_000);
    asked.length = 0;
    failVolume = true;
    await expect(cache.get(`${base}/compute`, `${base}/volume/v3/p1`, 't', 'member')).rejects.toThrow();
    failVolume = false;
    await cache.get(`${base}/compute`, `${base}/volume/v3/p1`, 't', 'member');
    expect(asked).toHaveLength(6);

    const off = discoveryCache(0);
    asked.length = 0;
    await off.get(`${base}/compute`, `${base}/volume/v3/p1`, 't', 'member');
    await off.get(`${base}/compute`, `${base}/volume/v3/p1`, 't', 'member');
    expect(asked).toHaveLength(6);
  });
});
