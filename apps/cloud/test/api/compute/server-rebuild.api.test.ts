import { describe, expect } from 'vitest';
import { SEED_IMAGE_ID } from '../../../src/image/seed.js';
import type { Session, TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { fault, novaClient } from './servers-fixtures.js';

/**
 * Rebuild beyond what the golden test replays (issue 14, cloud-rebuild): what the reference
 * could not show (an unknown image, with its image stand-in), a rebuild while a task runs, an
 * ERROR server, a server booted from a volume made from the same image, the user data at create
 * and rebuild, and a key pair of the caller's.
 */

let tc: TestCloud;
let admin: Session;
let nova: ReturnType<typeof novaClient>;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo, admin: adminSession }) => {
  tc = cloud;
  admin = adminSession;
  nova = novaClient(tc, () => demo);
});

async function boot(server: Record<string, unknown> = {}): Promise<string> {
  const res = await nova('POST', '/servers', {
    body: { server: { name: 'rb', flavorRef: '1', imageRef: SEED_IMAGE_ID, networks: 'none', ...server } },
  });
  expect(res.status).toBe(202);
  await tc.settle();
  return res.body.server.id;
}

const rebuild = (
  id: string,
  body: Record<string, unknown>,
  opts: { version?: string; session?: Session } = {},
) =>
  nova('POST', `/servers/${id}/action`, { body: { rebuild: { imageRef: SEED_IMAGE_ID, ...body } }, ...opts });

const show = async (id: string, opts: { version?: string; session?: Session } = {}) =>
  (await nova('GET', `/servers/${id}`, opts)).body.server;

describe('rebuild', () => {
  it('an unknown image is "Cannot find image for rebuild", after the 404 of a missing server', async () => {
    const id = await boot();
    const unknown = '11111111-2222-4333-8444-555555555555';
    const res = await rebuild(id, { imageRef: unknown });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(fault(400, 'Cannot find image for rebuild'));
    const missing = '00000000-0000-4000-8000-000000000000';
    const gone = await rebuild(missing, { imageRef: unknown });
    expect(gone.body).toEqual(fault(404, `Instance ${missing} could not be found.`));
  });

  it('is refused while another task runs, with the task state in the message', async () => {
    const id = await boot();
    await tc.cloud.deps.store.db
      .updateTable('servers')
      .set({ task_state: 'rebuilding' })
      .where('id', '=', id)
      .execute();
    const res = await rebuild(id, {});
    expect(res.body).toEqual(
      fault(409, `Cannot 'rebuild' instance ${id} while it is in task_state rebuilding`),
    );
    await tc.cloud.deps.store.db
      .updateTable('servers')
      .set({ task_state: null })
      .where('id', '=', id)
      .execute();
  });

  it('takes an ERROR server back to ACTIVE, the action and its events done', async () => {
    const id = await boot();
    const reset = await nova('POST', `/servers/${id}/action`, {
      session: admin,
      body: { 'os-resetState': { state: 'error' } },
    });
    expect(reset.status).toBe(202);
    const res = await rebuild(id, { name: 'from-error' });
    expect(res.status).toBe(202);
    expect(res.body.server.status).toBe('REBUILD');
    await tc.settle();
    const after = await show(id);
    expect([after.status, after['OS-EXT-STS:task_state'], after.name]).toEqual([
      'ACTIVE',
      null,
      'from-error',
    ]);
    const actions = await nova('GET', `/servers/${id}/os-instance-actions`, { version: '2.58' });
    const req = actions.body.instanceActions.find(
      (a: { action: string }) => a.action === 'rebuild',
    ).request_id;
    const detail = await nova('GET', `/servers/${id}/os-instance-actions/${req}`, { version: '2.58' });
    const events = detail.body.instanceAction.events as { event: string; result: string }[];
    expect(events.every((e) => e.result === 'Success')).toBe(true);
    expect(events).toHaveLength(2);
  });

  it('accepts the same image for a server booted from a volume made of it, which stays volume-backed', async () => {
    const res = await nova('POST', '/servers', {
      body: {
        server: {
          name: 'rb-vol',
          flavorRef: '1',
          networks: 'none',
          block_device_mapping_v2: [
            {
              boot_index: 0,
              uuid: SEED_IMAGE_ID,
              source_type: 'image',
              destination_type: 'volume',
              volume_size: 1,
              delete_on_termination: true,
            },
          ],
        },
      },
    });
    expect(res.status).toBe(202);
    const id = res.body.server.id;
    await tc.settle();
    expect((await show(id)).status).toBe('ACTIVE');
    const rebuilt = await rebuild(id, {});
    expect(rebuilt.status).toBe(202);
    expect(rebuilt.body.server.image).toBe('');
    await tc.settle();
    const after = await show(id);
    expect([after.status, after.image]).toEqual(['ACTIVE', '']);
    expect(after['os-extended-volumes:volumes_attached']).toHaveLength(1);
  });

  it('keeps the user data of create, shows it to admins, and answers the new one from 2.57', async () => {
    const id = await boot({ user_data: 'Zmlyc3Q=' });
    expect((await show(id, { session: admin, version: '2.3' }))['OS-EXT-SRV-ATTR:user_data']).toBe(
      'Zmlyc3Q=',
    );
    const res = await rebuild(id, { user_data: 'c2Vjb25k' }, { version: '2.57' });
    expect(res.body.server.user_data).toBe('c2Vjb25k');
    await tc.settle();
    // From 2.75 the answer is the full view, without the admin's OS-EXT-SRV-ATTR:user_data.
    const asAdmin = await rebuild(id, {}, { version: '2.75', session: admin });
    expect(asAdmin.status).toBe(202);
    expect(asAdmin.body.server.user_data).toBe('c2Vjb25k');
    expect('OS-EXT-SRV-ATTR:user_data' in asAdmin.body.server).toBe(false);
    expect(asAdmin.body.server['OS-EXT-SRV-ATTR:host']).toBeTruthy();
    await tc.settle();
  });

  it('sets a key pair of the caller (2.54) and unsets it with null', async () => {
    const created = await nova('POST', '/os-keypairs', {
      version: '2.92',
      body: {
        keypair: {
          name: 'rb-key',
          public_key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA6MYWl6cLXzQ6hALfFJpxVjDOP5mC0pXqyCQEZlGGzk rb',
        },
      },
    });
    expect(created.status).toBe(201);
    const id = await boot();
    const res = await rebuild(id, { key_name: 'rb-key' }, { version: '2.54' });
    expect(res.body.server.key_name).toBe('rb-key');
    await tc.settle();
    const unset = await rebuild(id, { key_name: null }, { version: '2.54' });
    expect(unset.body.server.key_name).toBeNull();
    await tc.settle();
    expect((await show(id)).key_name).toBeNull();
  });
});
