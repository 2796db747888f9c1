import { beforeEach, describe, expect } from 'vitest';
import { SEED_IMAGE_ID } from '../../../src/image/seed.js';
import type { Session, TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { attachmentRows, createVolume, volumeRow } from '../../helpers/volume-fixtures.js';
import { addFlavor, allHostsEnabled, bfvBody, novaClient, onlyHosts, serverRow } from './servers-fixtures.js';

let tc: TestCloud;
let demo: Session;
let admin: Session;
let nova: ReturnType<typeof novaClient>;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  admin = adminSession;
  nova = novaClient(tc, () => demo);
});
beforeEach(async () => {
  await tc.settle();
  await allHostsEnabled(tc);
});

const NO_VALID_HOST = 'No valid host was found. There are not enough hosts available.';
const shared = () => createVolume(tc, { projectId: demo.projectId, multiattach: true, bootable: true });
const plain = () => createVolume(tc, { projectId: demo.projectId, bootable: true });

async function boot(body: unknown, version = '2.60', session: Session = demo): Promise<string> {
  const res = await nova('POST', '/servers', { body, version, session });
  expect(res.status).toBe(202);
  await tc.settle();
  return res.body.server.id as string;
}

const hostOf = async (id: string) => (await serverRow(tc, id))?.host ?? null;

describe('capabilities beyond real Nova', () => {
  it('a read-only boot lands only on a host new enough for attach modes', async () => {
    await onlyHosts(tc, ['compute-old']);
    const refused = await boot(bfvBody(await shared(), {}, { attach_mode: 'ro' }), '2.105');
    expect(await serverRow(tc, refused)).toMatchObject({ vm_state: 'error', host: null });
    const rw = await boot(bfvBody(await shared(), {}, { attach_mode: 'rw' }), '2.105');
    expect(await hostOf(rw)).toBe('compute-old');
    await onlyHosts(tc, ['compute-old', 'compute-2']);
    const ro = await boot(bfvBody(await shared(), {}, { attach_mode: 'ro' }), '2.105');
    expect(await hostOf(ro)).toBe('compute-2');
  });

  it('a multiattach boot never lands on ironic-1 (its driver cannot share disks)', async () => {
    await onlyHosts(tc, ['ironic-1']);
    const vol = await shared();
    const refused = await boot(bfvBody(vol));
    expect(await serverRow(tc, refused)).toMatchObject({ vm_state: 'error' });
    expect(await attachmentRows(tc, vol)).toEqual([]);
    const ok = await boot(bfvBody(await plain()));
    expect(await hostOf(ok)).toBe('ironic-1');
    await allHostsEnabled(tc);
    const inAz2 = await boot(bfvBody(await shared(), { availability_zone: 'az2' }));
    expect(await hostOf(inAz2)).toBe('compute-3');
  });
});

describe('no valid host', () => {
  it('ERROR with the NoValidHost fault, no attachment left, the volume available again', async () => {
    await onlyHosts(tc, []);
    const vol = await plain();
    const id = await boot(bfvBody(vol));
    const show = await nova('GET', `/servers/${id}`);
    expect(show.body.server).toMatchObject({
      status: 'ERROR',
      'OS-EXT-STS:vm_state': 'error',
      'OS-EXT-STS:task_state': null,
      hostId: '',
      fault: {
        code: 500,
        message: NO_VALID_HOST,
        created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      },
      'os-extended-volumes:volumes_attached': [],
    });
    // Tracebacks of 500 faults are for admins only.
    expect(show.body.server.fault.details).toBeUndefined();
    expect(show.body.server).not.toHaveProperty('progress');
    const asAdmin = await nova('GET', `/servers/${id}`, { session: admin });
    expect(asAdmin.body.server.fault.details).toContain('NoValidHost');
    expect(await attachmentRows(tc, vol)).toEqual([]);
    expect(await volumeRow(tc, vol)).toMatchObject({ status: 'available', attach_status: 'detached' });
    // An ERROR server can still be deleted.
    expect((await nova('DELETE', `/servers/${id}`)).status).toBe(204);
    await tc.settle();
    expect((await nova('GET', `/servers/${id}`)).status).toBe(404);
  });

  it('capacity: vcpus, RAM and disk are summed over the servers on a host', async () => {
    await addFlavor(tc, { id: 'huge', name: 'huge', vcpus: 8, ram: 200_000, disk: 10 });
    await onlyHosts(tc, ['compute-1']);
    const image = { name: 'big', flavorRef: 'huge', networks: 'none', imageRef: SEED_IMAGE_ID };
    const first = await boot({ server: image });
    expect(await hostOf(first)).toBe('compute-1');
    const second = await boot({ server: image });
    expect(await serverRow(tc, second)).toMatchObject({ vm_state: 'error', host: null });
    await nova('DELETE', `/servers/${first}`);
    await tc.settle();
    const third = await boot({ server: image });
    expect(await hostOf(third)).toBe('compute-1');
    await nova('DELETE', `/servers/${third}`);
  });

  it('an unknown zone is refused up front; a zone with every host disabled fails the build', async () => {
    await onlyHosts(tc, ['compute-1']);
    const res = await nova('POST', '/servers', {
      body: {
        server: {
          name: 'z',
          flavorRef: '1',
          networks: 'none',
          imageRef: SEED_IMAGE_ID,
          availability_zone: 'az2',
        },
      },
    });
    expect(res.body).toEqual({
      badRequest: { code: 400, message: 'The requested availability zone is not available' },
    });
  });
});

describe('admins pick the host', () => {
  it('availability_zone "zone:host" forces the host, past the filters (a disabled host too)', async () => {
    await onlyHosts(tc, []);
    const id = await boot(bfvBody(await plain(), { availability_zone: 'nova:compute-2' }), '2.60', admin);
    expect(await serverRow(tc, id)).toMatchObject({
      vm_state: 'active',
      host: 'compute-2',
      availability_zone: 'nova',
    });
    const show = await nova('GET', `/servers/${id}`, { session: admin });
    expect(show.body.server['OS-EXT-SRV-ATTR:host']).toBe('compute-2');
    expect(show.body.server['OS-EXT-AZ:availability_zone']).toBe('nova');
  });

  it('":host" alone works too', async () => {
    const id = await boot(bfvBody(await plain(), { availability_zone: ':compute-3' }), '2.60', admin);
    expect(await serverRow(tc, id)).toMatchObject({ host: 'compute-3', availability_zone: 'az2' });
  });

  it('host (2.74) narrows the filters to that host', async () => {
    const id = await boot(bfvBody(await plain(), { host: 'compute-old' }), '2.74', admin);
    expect(await hostOf(id)).toBe('compute-old');
    await onlyHosts(tc, ['compute-1']);
    const refused = await boot(bfvBody(await plain(), { host: 'compute-old' }), '2.74', admin);
    expect(await serverRow(tc, refused)).toMatchObject({ vm_state: 'error' });
  });

  it('a multiattach volume forced onto ironic-1 aborts the build on the host', async () => {
    const vol = await shared();
    const id = await boot(bfvBody(vol, { availability_zone: 'az2:ironic-1' }), '2.60', admin);
    const show = await nova('GET', `/servers/${id}`, { session: admin });
    expect(show.body.server.status).toBe('ERROR');
    expect(show.body.server.fault.message).toBe(
      `Build of instance ${id} aborted: Volume ${vol} has 'multiattach' set, which is not supported for this instance.`,
    );
    expect(await attachmentRows(tc, vol)).toEqual([]);
    expect(await volumeRow(tc, vol)).toMatchObject({ status: 'available' });
  });
});

describe('placement', () => {
  it('spreads by free RAM: the next server goes where most memory is free', async () => {
    await addFlavor(tc, { id: 'half', name: 'half', vcpus: 1, ram: 131_072, disk: 1 });
    await onlyHosts(tc, ['compute-1', 'compute-2']);
    const a = await boot(bfvBody(await plain(), { flavorRef: 'half' }));
    const b = await boot(bfvBody(await plain(), { flavorRef: 'half' }));
    const hosts = [await hostOf(a), await hostOf(b)].sort();
    expect(hosts).toEqual(['compute-1', 'compute-2']);
    for (const id of [a, b]) await nova('DELETE', `/servers/${id}`);
  });

  it('the server takes its host zone; hostId is sha224(project + host)', async () => {
    const id = await boot(bfvBody(await plain(), { availability_zone: 'az2' }));
    const row = await serverRow(tc, id);
    const show = await nova('GET', `/servers/${id}`);
    const { createHash } = await import('node:crypto');
    expect(show.body.server.hostId).toBe(
      createHash('sha224')
        .update(demo.projectId + row!.host)
        .digest('hex'),
    );
    expect(show.body.server['OS-EXT-AZ:availability_zone']).toBe('az2');
  });
});
