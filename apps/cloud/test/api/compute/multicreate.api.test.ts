import { beforeEach, describe, expect } from 'vitest';
import { SEED_IMAGE_ID } from '../../../src/image/seed.js';
import type { Session, TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { attachmentRows, createVolume, volumeRow } from '../../helpers/volume-fixtures.js';
import { allHostsEnabled, bfvBody, fault, novaClient } from './servers-fixtures.js';

let tc: TestCloud;
let demo: Session;
let nova: ReturnType<typeof novaClient>;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession }) => {
  tc = cloud;
  demo = demoSession;
  nova = novaClient(tc, () => demo);
});
beforeEach(async () => {
  await tc.settle();
  await allHostsEnabled(tc);
});

const MULTI = 'Cannot attach one or more volumes to multiple instances';
const shared = (bootable = true) =>
  createVolume(tc, { projectId: demo.projectId, multiattach: true, bootable });
const plain = (bootable = true) => createVolume(tc, { projectId: demo.projectId, bootable });

async function members(reservationId: string) {
  const res = await nova('GET', `/servers/detail?reservation_id=${reservationId}`);
  expect(res.status).toBe(200);
  return res.body.servers as Record<string, unknown>[];
}

describe('multi-create with existing volumes below 2.105 (bug 1747985)', () => {
  it.each([
    ['2.60', 2, 2, true],
    ['2.60', 1, 2, true],
    ['2.60', 2, 2, false],
    ['2.1', 2, 2, true],
    ['2.104', 3, 3, true],
  ])('at %s, min %i max %i, multiattach %s: 400 (13, 14, 15, 54)', async (version, min, max, multiattach) => {
    const vol = multiattach ? await shared() : await plain();
    // Below 2.37 networks is a list only, so capture 15 leaves it out.
    const networks = version === '2.1' ? undefined : 'none';
    const res = await nova('POST', '/servers', {
      version,
      body: bfvBody(vol, { min_count: min, max_count: max, networks }),
    });
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: fault(400, MULTI) });
    expect(await attachmentRows(tc, vol)).toEqual([]);
  });

  it('also with return_reservation_id (134)', async () => {
    const vol = await plain();
    const res = await nova('POST', '/servers', {
      body: bfvBody(vol, { min_count: 2, max_count: 2, return_reservation_id: true }),
    });
    expect(res.body).toEqual(fault(400, MULTI));
  });

  it('min_count above max_count (140)', async () => {
    const res = await nova('POST', '/servers', {
      body: {
        server: {
          name: 'm',
          flavorRef: '1',
          networks: 'none',
          min_count: 3,
          max_count: 2,
          block_device_mapping_v2: [
            { boot_index: 0, source_type: 'blank', destination_type: 'volume', volume_size: 1 },
          ],
        },
      },
    });
    expect(res.body).toEqual(fault(400, 'min_count must be <= max_count'));
  });
});

describe('multi-create at 2.105 with one multiattach volume', () => {
  it('5 servers boot from one bootable multiattach volume: 5 attachments, each server its own', async () => {
    const vol = await shared();
    const res = await nova('POST', '/servers', {
      version: '2.105',
      body: bfvBody(vol, { name: 'fleet', min_count: 5, max_count: 5, return_reservation_id: true }),
    });
    expect(res.status).toBe(202);
    const rid = res.body.reservation_id as string;
    await tc.settle();
    const servers = await members(rid);
    expect(servers.map((s) => s.name).sort()).toEqual([
      'fleet-1',
      'fleet-2',
      'fleet-3',
      'fleet-4',
      'fleet-5',
    ]);
    for (const s of servers) {
      expect(s.status).toBe('ACTIVE');
      expect(s['os-extended-volumes:volumes_attached']).toEqual([{ id: vol, delete_on_termination: false }]);
    }
    const atts = await attachmentRows(tc, vol);
    expect(atts).toHaveLength(5);
    expect(new Set(atts.map((a) => a.instance_uuid))).toEqual(new Set(servers.map((s) => s.id)));
    expect(atts.every((a) => a.attach_status === 'attached' && a.mountpoint === '/dev/vda')).toBe(true);
    expect(await volumeRow(tc, vol)).toMatchObject({ status: 'in-use', attach_status: 'attached' });
    // Never on the host whose driver cannot share disks.
    const hosts = await tc.cloud.deps.store.db
      .selectFrom('servers')
      .select('host')
      .where('reservation_id', '=', rid)
      .execute();
    expect(hosts.every((h) => h.host !== 'ironic-1')).toBe(true);
  });

  it('several servers attach one multiattach data volume, each with its own device name', async () => {
    const vol = await shared(false);
    const res = await nova('POST', '/servers', {
      version: '2.105',
      body: {
        server: {
          name: 'data',
          flavorRef: '1',
          networks: 'none',
          imageRef: SEED_IMAGE_ID,
          min_count: 3,
          max_count: 3,
          block_device_mapping_v2: [
            { boot_index: 0, uuid: SEED_IMAGE_ID, source_type: 'image', destination_type: 'local' },
            {
              boot_index: -1,
              uuid: vol,
              source_type: 'volume',
              destination_type: 'volume',
              attach_mode: 'ro',
            },
          ],
        },
      },
    });
    expect(res.status).toBe(202);
    expect(res.headers.get('location')).toMatch(/\/compute\/v2\.1\/servers\//);
    await tc.settle();
    const atts = await attachmentRows(tc, vol);
    expect(atts).toHaveLength(3);
    expect(atts.every((a) => a.attach_mode === 'ro' && a.attach_status === 'attached')).toBe(true);
    const bdms = await tc.cloud.deps.store.db
      .selectFrom('block_device_mappings')
      .selectAll()
      .where('volume_id', '=', vol)
      .execute();
    expect(bdms).toHaveLength(3);
    expect(bdms.every((b) => b.device_name === '/dev/vdb' && b.attach_mode === 'ro')).toBe(true);
  });

  it('a volume that is not multiattach is still refused, with the real message', async () => {
    const vol = await plain();
    const res = await nova('POST', '/servers', {
      version: '2.105',
      body: bfvBody(vol, { min_count: 2, max_count: 2 }),
    });
    expect(res.body).toEqual(fault(400, MULTI));
    expect(await attachmentRows(tc, vol)).toEqual([]);
  });

  it('one non-multiattach volume among several mappings is enough to refuse', async () => {
    const root = await shared();
    const data = await plain(false);
    const res = await nova('POST', '/servers', {
      version: '2.105',
      body: {
        server: {
          name: 'mixed',
          flavorRef: '1',
          networks: 'none',
          min_count: 2,
          block_device_mapping_v2: [
            { boot_index: 0, uuid: root, source_type: 'volume', destination_type: 'volume' },
            { boot_index: -1, uuid: data, source_type: 'volume', destination_type: 'volume' },
          ],
        },
      },
    });
    expect(res.body).toEqual(fault(400, MULTI));
    expect(await attachmentRows(tc, root)).toEqual([]);
  });

  it('a multiattach volume with max_count 2 at 2.105 and min_count 1 works too', async () => {
    const vol = await shared();
    const res = await nova('POST', '/servers', {
      version: '2.105',
      body: bfvBody(vol, { min_count: 1, max_count: 2 }),
    });
    expect(res.status).toBe(202);
    await tc.settle();
    expect(await attachmentRows(tc, vol)).toHaveLength(2);
  });
});

describe('multi-create with new volumes and images', () => {
  it('blank volumes: one new volume per server, delete_on_termination kept (135-138)', async () => {
    const res = await nova('POST', '/servers', {
      body: {
        server: {
          name: 'cap2-multi',
          flavorRef: '1',
          networks: 'none',
          min_count: 2,
          max_count: 2,
          return_reservation_id: true,
          block_device_mapping_v2: [
            {
              boot_index: 0,
              source_type: 'blank',
              destination_type: 'volume',
              volume_size: 1,
              delete_on_termination: true,
            },
          ],
        },
      },
    });
    expect(res.status).toBe(202);
    await tc.settle();
    const servers = await members(res.body.reservation_id);
    expect(servers).toHaveLength(2);
    const vols = servers.map((s) => (s['os-extended-volumes:volumes_attached'] as { id: string }[])[0]!);
    expect(vols[0]!.id).not.toBe(vols[1]!.id);
    for (const s of servers) {
      expect(s).toMatchObject({ status: 'ACTIVE', image: '' });
      expect(s['os-extended-volumes:volumes_attached']).toEqual([
        { id: expect.any(String), delete_on_termination: true },
      ]);
    }
    for (const v of vols) {
      expect(await volumeRow(tc, v.id)).toMatchObject({ status: 'in-use', size: 1 });
      expect(await attachmentRows(tc, v.id)).toHaveLength(1);
    }
    // Deleting the servers deletes their volumes (delete_on_termination).
    for (const s of servers) expect((await nova('DELETE', `/servers/${s.id}`)).status).toBe(204);
    await tc.settle();
    for (const v of vols) {
      const left = await tc.cloud.deps.store.db
        .selectFrom('volumes')
        .select('id')
        .where('id', '=', v.id)
        .execute();
      expect(left).toEqual([]);
    }
  });

  it('without return_reservation_id the answer is the first server (139)', async () => {
    const res = await nova('POST', '/servers', {
      body: {
        server: {
          name: 'two',
          flavorRef: '1',
          networks: 'none',
          min_count: 2,
          block_device_mapping_v2: [
            { boot_index: 0, source_type: 'blank', destination_type: 'volume', volume_size: 1 },
          ],
        },
      },
    });
    expect(res.status).toBe(202);
    expect(Object.keys(res.body.server)).toEqual([
      'id',
      'links',
      'OS-DCF:diskConfig',
      'security_groups',
      'adminPass',
    ]);
    const list = await nova('GET', '/servers?name=^two-');
    const first = list.body.servers.find((s: { name: string }) => s.name === 'two-1');
    expect(first.id).toBe(res.body.server.id);
  });

  it('image multi-create: names suffixed -1, -2, both in the reservation list (131, 132)', async () => {
    const res = await nova('POST', '/servers', {
      body: {
        server: {
          name: 'cap2-multi-img',
          flavorRef: '1',
          networks: 'none',
          min_count: 2,
          max_count: 2,
          return_reservation_id: true,
          imageRef: SEED_IMAGE_ID,
        },
      },
    });
    const list = await nova('GET', `/servers?reservation_id=${res.body.reservation_id}`);
    expect(list.body.servers.map((s: { name: string }) => s.name).sort()).toEqual([
      'cap2-multi-img-1',
      'cap2-multi-img-2',
    ]);
    for (const s of list.body.servers) expect(Object.keys(s)).toEqual(['id', 'name', 'links']);
    await tc.settle();
    const row = await tc.cloud.deps.store.db
      .selectFrom('servers')
      .select(['hostname', 'launch_index'])
      .where('reservation_id', '=', res.body.reservation_id)
      .orderBy('launch_index')
      .execute();
    expect(row).toEqual([
      { hostname: 'cap2-multi-img-1', launch_index: 0 },
      { hostname: 'cap2-multi-img-2', launch_index: 1 },
    ]);
  });
});
