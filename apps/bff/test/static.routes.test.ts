import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type TestStack } from './helpers/stack.js';

let stack: TestStack;
let dist: string;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'web-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(
    join(dist, 'index.html'),
    '<!doctype html><title>Shared volumes</title><div id="root"></div>',
  );
  writeFileSync(join(dist, 'assets', 'app.js'), `console.log(${JSON.stringify('x'.repeat(20_000))});`);
  stack = await startStack({ bff: { webDist: dist } });
});
afterAll(async () => {
  await stack.close();
  rmSync(dist, { recursive: true, force: true });
});

/** node:http, because fetch decompresses and hides Content-Encoding. */
function rawGet(
  path: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request(`${stack.bffUrl}${path}`, { headers: { 'Accept-Encoding': 'gzip' } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the single-page app', () => {
  it('serves assets gzip-compressed', async () => {
    const res = await rawGet('/assets/app.js');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
  });

  it('falls back to index.html for client-side routes, uncached', async () => {
    const res = await fetch(`${stack.bffUrl}/volumes/some-id`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<div id="root">');
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });

  it('keeps unknown API paths as JSON errors, not the app', async () => {
    const res = await fetch(`${stack.bffUrl}/api/nope`);
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: { code: string } };
    expect(body.error.code).toBe('not_found');
  });
});
