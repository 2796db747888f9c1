import { test } from 'vitest';
import type { CloudConfig } from '../../src/config.js';
import { login, type StartOptions, startCloud } from './cloud.js';

/**
 * The test API of the cloud's API and golden tests: each file gets a cloud of its own, started
 * before the first test that needs it and closed after the file's last test (`tc`), and the
 * seeded users' sessions on it (`demo`, `admin`), as file-scoped fixtures. A file binds what its
 * helpers close over in `it.beforeAll(({ tc, demo }) => ...)`.
 */
export function cloudTest(config: Partial<CloudConfig> = {}, options: StartOptions = {}) {
  return (
    test
      // biome-ignore lint/correctness/noEmptyPattern: Vitest reads a fixture's dependencies from this pattern.
      .extend('tc', { scope: 'file' }, async ({}, { onCleanup }) => {
        const tc = await startCloud(config, options);
        onCleanup(() => tc.close());
        return tc;
      })
      .extend('demo', { scope: 'file' }, ({ tc }) => login(tc, 'demo'))
      .extend('admin', { scope: 'file' }, ({ tc }) => login(tc, 'admin'))
  );
}
