import { describe, expect } from 'vitest';
import { SEED_IMAGE_ID } from '../../../src/image/seed.js';
import type { TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { fault, novaClient } from './servers-fixtures.js';

/** `os-getConsoleOutput` (nova/api/openstack/compute/console_output.py, the fake driver's console). */

let tc: TestCloud;
let nova: ReturnType<typeof novaClient>;
let server: string;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo }) => {
  tc = cloud;
  nova = novaClient(tc, () => demo);
  const res = await nova('POST', '/servers', {
    body: { server: { name: 'console', flavorRef: '1', imageRef: SEED_IMAGE_ID, networks: 'none' } },
  });
  server = res.body.server.id;
  await tc.settle();
});

const consoleOf = (args: unknown, id = server) =>
  nova('POST', `/servers/${id}/action`, { body: { 'os-getConsoleOutput': args } });

describe('console output', () => {
  it('the whole console, or its last lines', async () => {
    const all = await consoleOf({});
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ output: 'FAKE CONSOLE OUTPUT\nANOTHER\nLAST LINE' });
    expect((await consoleOf({ length: 1 })).body).toEqual({ output: 'LAST LINE' });
    expect((await consoleOf({ length: '2' })).body).toEqual({ output: 'ANOTHER\nLAST LINE' });
    expect((await consoleOf({ length: 10 })).body.output).toBe('FAKE CONSOLE OUTPUT\nANOTHER\nLAST LINE');
    expect((await consoleOf({ length: 0 })).body).toEqual({ output: '' });
    expect((await consoleOf({ length: null })).body.output).toContain('FAKE');
  });

  it('bad length: 400; unknown server: 404; no host yet: 409', async () => {
    const bad = await consoleOf({ length: -2 });
    expect(bad.body).toEqual(
      fault(400, 'Invalid input for field/attribute length. Value: -2. -2 is less than the minimum of -1'),
    );
    const missing = '00000000-0000-4000-8000-00000000beef';
    expect((await consoleOf({}, missing)).body).toEqual(
      fault(404, `Instance ${missing} could not be found.`),
    );
    await tc.cloud.deps.store.db
      .updateTable('servers')
      .set({ host: null })
      .where('id', '=', server)
      .execute();
    expect((await consoleOf({})).body).toEqual(fault(409, `Instance ${server} is not ready`));
  });
});
