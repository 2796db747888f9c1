import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { apiPaths } from '@sv/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleServer, packageOf, undeclaredImports } from '../../scripts/build.mjs';
import { freePort, type Started, startProcess, until200 } from './processes.js';
import { repoRoot } from './repo-root.js';

/**
 * Production runs `node apps/<app>/dist/main.js` after `npm ci --omit=dev`: bundles that need neither
 * tsx nor any other dev dependency. The bundles are built here into .test-results/ (inside the
 * repository, so their imports resolve from its node_modules as they would from a deployed one), then
 * run with plain node, no loader, and used the way the dashboard uses them.
 */

describe('undeclaredImports', () => {
  it('names the packages a bundle imports that its app does not depend on', () => {
    expect(
      undeclaredImports(['express', 'node:fs', 'fs/promises', 'vite/client', '@scope/pkg/sub', 'zod'], {
        express: '5.3.0',
        zod: '4.6.7',
      }),
    ).toEqual(['@scope/pkg', 'vite']);
    expect(packageOf('@libsql/client/web')).toBe('@libsql/client');
    expect(packageOf('node:path')).toBeNull();
  });
});

describe('the production bundles', () => {
  let dir = '';
  const running: Started[] = [];

  beforeAll(() => {
    mkdirSync(join(repoRoot, '.test-results'), { recursive: true });
    dir = mkdtempSync(join(repoRoot, '.test-results', 'prod-build-'));
  });
  afterAll(async () => {
    await Promise.all(running.map((p) => p.stop()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('import only their apps\u2019 production dependencies, and run with plain node: sign in through the BFF', async () => {
    const cloudImports = await bundleServer('cloud', join(dir, 'cloud/main.js'));
    const bffImports = await bundleServer('bff', join(dir, 'bff/main.js'));
    for (const imports of [cloudImports, bffImports]) {
      expect(imports).toContain('express');
      expect(imports).not.toContain('tsx');
      // The workspace package is inside the bundle, not an import of TypeScript at run time.
      expect(imports).not.toContain('@sv/shared');
    }

    const [cloudPort, bffPort] = [await freePort(), await freePort()];
    // No loader of any kind: what `node apps/<app>/dist/main.js` gets on a production machine.
    const base = { ...process.env, NODE_OPTIONS: '', LOG_LEVEL: 'warn' };
    const cloud = startProcess(process.execPath, [join(dir, 'cloud/main.js')], {
      ...base,
      CLOUD_PORT: String(cloudPort),
      DATABASE_URL: `file:${join(dir, 'cloud.db')}`,
      CLOUD_BACKEND_DELAY_MS: '0',
    });
    running.push(cloud);
    const cloudUrl = `http://127.0.0.1:${cloudPort}`;
    await until200(`${cloudUrl}/identity/v3`).catch((err) => {
      throw new Error(`${err.message}\n${cloud.output()}`);
    });
    const bff = startProcess(process.execPath, [join(dir, 'bff/main.js')], {
      ...base,
      PORT: String(bffPort),
      OS_AUTH_URL: `${cloudUrl}/identity/v3`,
      WEB_DIST: join(dir, 'no-web-app'),
    });
    running.push(bff);
    const bffUrl = `http://127.0.0.1:${bffPort}`;
    await until200(`${bffUrl}/api/health`).catch((err) => {
      throw new Error(`${err.message}\n${bff.output()}`);
    });

    const login = await fetch(bffUrl + apiPaths.session, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'demo', password: 'demo' }),
    });
    expect(login.status, await login.clone().text()).toBe(201);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const session = (await login.json()) as { capabilities: { multiattachEnhancements: boolean } };
    expect(session.capabilities.multiattachEnhancements).toBe(true);

    const volumes = await fetch(bffUrl + apiPaths.volumes, { headers: { Cookie: cookie } });
    expect(volumes.status).toBe(200);
    expect(bff.output()).not.toMatch(/Error|ERR_/);
    expect(cloud.output()).not.toMatch(/Error|ERR_/);
  });
});
