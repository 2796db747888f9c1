import { describe, expect } from 'vitest';
import { SEED_IMAGE_ID } from '../../../src/image/seed.js';
import type { Session, TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { fault, novaClient } from './servers-fixtures.js';

/** `os-server-password` (nova/api/openstack/compute/server_password.py). */

let tc: TestCloud;
let admin: Session;
let nova: ReturnType<typeof novaClient>;
let server: string;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo, admin: adminSession }) => {
  tc = cloud;
  admin = adminSession;
  nova = novaClient(tc, () => demo);
  const res = await nova('POST', '/servers', {
    body: { server: { name: 'pw', flavorRef: '1', imageRef: SEED_IMAGE_ID, networks: 'none' } },
  });
  server = res.body.server.id;
  await tc.settle();
});

describe('server password', () => {
  it('empty until a guest posts one; a stored one is shown, then cleared', async () => {
    expect((await nova('GET', `/servers/${server}/os-server-password`)).body).toEqual({ password: '' });
    await tc.cloud.deps.store.db
      .updateTable('servers')
      .set({ password: 'c2VjcmV0' })
      .where('id', '=', server)
      .execute();
    expect((await nova('GET', `/servers/${server}/os-server-password`)).body).toEqual({
      password: 'c2VjcmV0',
    });
    const cleared = await nova('DELETE', `/servers/${server}/os-server-password`);
    expect(cleared.status).toBe(204);
    expect((await nova('GET', `/servers/${server}/os-server-password`)).body).toEqual({ password: '' });
  });

  it('another project’s server: 404', async () => {
    const theirs = await nova('POST', '/servers', {
      session: admin,
      body: { server: { name: 'pw-admin', flavorRef: '1', imageRef: SEED_IMAGE_ID, networks: 'none' } },
    });
    const id = theirs.body.server.id;
    expect((await nova('GET', `/servers/${id}/os-server-password`)).body).toEqual(
      fault(404, `Instance ${id} could not be found.`),
    );
    expect((await nova('DELETE', `/servers/${id}/os-server-password`)).status).toBe(404);
  });
});
