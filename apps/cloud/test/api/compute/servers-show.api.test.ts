import { describe, expect } from 'vitest';
import { SEED_IMAGE_ID } from '../../../src/image/seed.js';
import type { Session, TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { createVolume } from '../../helpers/volume-fixtures.js';
import { bfvBody, fault, novaClient } from './servers-fixtures.js';

let tc: TestCloud;
let demo: Session;
let admin: Session;
let nova: ReturnType<typeof novaClient>;
let bfv: string;
let bfvVolume: string;
let imageServer: string;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  admin = adminSession;
  nova = novaClient(tc, () => demo);
  bfvVolume = await createVolume(tc, { projectId: demo.projectId, bootable: true });
  bfv = (await nova('POST', '/servers', { body: bfvBody(bfvVolume, { name: 'cap2-x' }) })).body.server.id;
  imageServer = (
    await nova('POST', '/servers', {
      body: { server: { name: 'img', flavorRef: '1', networks: 'none', imageRef: SEED_IMAGE_ID } },
    })
  ).body.server.id;
  await tc.settle();
});

const show = async (id: string, version: string, session: Session = demo) => {
  const res = await nova('GET', `/servers/${id}`, { version, session });
  expect(res.status).toBe(200);
  return res.body.server as Record<string, unknown>;
};

/** Keys of capture 117 (2.1, member). */
const BASE = [
  'id',
  'name',
  'status',
  'tenant_id',
  'user_id',
  'metadata',
  'hostId',
  'image',
  'flavor',
  'created',
  'updated',
  'addresses',
  'accessIPv4',
  'accessIPv6',
  'links',
  'OS-DCF:diskConfig',
  'progress',
  'OS-EXT-AZ:availability_zone',
  'config_drive',
  'key_name',
  'OS-SRV-USG:launched_at',
  'OS-SRV-USG:terminated_at',
  'OS-EXT-STS:task_state',
  'OS-EXT-STS:vm_state',
  'OS-EXT-STS:power_state',
  'os-extended-volumes:volumes_attached',
];
const AT_260 = [...BASE, 'locked', 'description', 'tags'];
const AT_273 = [
  ...BASE,
  'locked',
  'locked_reason',
  'description',
  'tags',
  'trusted_image_certificates',
  'server_groups',
];
const AT_293 = [
  ...BASE,
  'locked',
  'locked_reason',
  'description',
  'tags',
  'trusted_image_certificates',
  'OS-EXT-SRV-ATTR:hostname',
  'server_groups',
];
const ESA_23 = [
  'OS-EXT-SRV-ATTR:host',
  'OS-EXT-SRV-ATTR:instance_name',
  'OS-EXT-SRV-ATTR:hypervisor_hostname',
  'OS-EXT-SRV-ATTR:reservation_id',
  'OS-EXT-SRV-ATTR:launch_index',
  'OS-EXT-SRV-ATTR:hostname',
  'OS-EXT-SRV-ATTR:kernel_id',
  'OS-EXT-SRV-ATTR:ramdisk_id',
  'OS-EXT-SRV-ATTR:root_device_name',
  'OS-EXT-SRV-ATTR:user_data',
];

const sorted = (keys: string[]) => [...keys].sort();

describe('GET /servers/{id}: keys per microversion, none from a later one', () => {
  it('2.1: flavor is {id, links}; no locked/description/tags (117)', async () => {
    const s = await show(bfv, '2.1');
    expect(sorted(Object.keys(s))).toEqual(sorted(BASE));
    expect(s.flavor).toEqual({ id: '1', links: [{ rel: 'bookmark', href: `${tc.url}/compute/flavors/1` }] });
    expect(s['os-extended-volumes:volumes_attached']).toEqual([{ id: bfvVolume }]);
    expect(s.image).toBe('');
    expect(s.addresses).toEqual({});
    expect(s.status).toBe('ACTIVE');
  });

  it.each(['2.3', '2.9', '2.19', '2.26'])(
    '%s adds delete_on_termination, locked, description, tags in turn',
    async (v) => {
      const s = await show(bfv, v);
      expect(s['os-extended-volumes:volumes_attached']).toEqual([
        { id: bfvVolume, delete_on_termination: false },
      ]);
      expect('locked' in s).toBe(v !== '2.3');
      expect('description' in s).toBe(v === '2.19' || v === '2.26');
      expect('tags' in s).toBe(v === '2.26');
    },
  );

  it('2.47 and 2.60: the embedded flavor with extra_specs (118, 119)', async () => {
    for (const v of ['2.47', '2.60']) {
      const s = await show(bfv, v);
      expect(sorted(Object.keys(s))).toEqual(sorted(AT_260));
      expect(s.flavor).toEqual({
        vcpus: 1,
        ram: 512,
        disk: 1,
        ephemeral: 0,
        swap: 0,
        original_name: 'm1.tiny',
        extra_specs: {},
      });
      expect(s).toMatchObject({ locked: false, description: null, tags: [] });
    }
  });

  it('2.63 adds trusted_image_certificates, 2.71 server_groups, 2.73 locked_reason (120, 121)', async () => {
    expect('trusted_image_certificates' in (await show(bfv, '2.63'))).toBe(true);
    expect('server_groups' in (await show(bfv, '2.70'))).toBe(false);
    expect((await show(bfv, '2.71')).server_groups).toEqual([]);
    expect('locked_reason' in (await show(bfv, '2.72'))).toBe(false);
    for (const v of ['2.73', '2.89']) expect(sorted(Object.keys(await show(bfv, v)))).toEqual(sorted(AT_273));
  });

  it('2.90 gives members the hostname (124 at 2.93)', async () => {
    expect('OS-EXT-SRV-ATTR:hostname' in (await show(bfv, '2.89'))).toBe(false);
    const s = await show(bfv, '2.93');
    expect(sorted(Object.keys(s))).toEqual(sorted(AT_293));
    expect(s['OS-EXT-SRV-ATTR:hostname']).toBe('cap2-x');
  });

  it('2.96 pinned_availability_zone, 2.100 scheduler_hints; 2.101-2.105 add nothing', async () => {
    expect('pinned_availability_zone' in (await show(bfv, '2.95'))).toBe(false);
    const s296 = await show(bfv, '2.96');
    expect(s296.pinned_availability_zone).toBeNull();
    expect('scheduler_hints' in (await show(bfv, '2.99'))).toBe(false);
    const s2100 = await show(bfv, '2.100');
    expect(s2100.scheduler_hints).toEqual({});
    const expected = sorted([...AT_293, 'pinned_availability_zone', 'scheduler_hints']);
    for (const v of ['2.100', '2.104', '2.105', 'latest']) {
      const res = await nova('GET', `/servers/${bfv}`, { version: v });
      expect(sorted(Object.keys(res.body.server))).toEqual(expected);
    }
  });

  it('2.98 shows the image properties of an image-booted server', async () => {
    expect(await show(imageServer, '2.97')).toMatchObject({ image: { id: SEED_IMAGE_ID } });
    expect(Object.keys((await show(imageServer, '2.97')).image as object)).toEqual(['id', 'links']);
    const image = (await show(imageServer, '2.98')).image as Record<string, unknown>;
    expect(Object.keys(image)).toEqual(['id', 'links', 'properties']);
    expect(image.properties).toMatchObject({
      base_image_ref: SEED_IMAGE_ID,
      disk_format: 'qcow2',
      hw_rng_model: 'virtio',
    });
    expect(image.links).toEqual([{ rel: 'bookmark', href: `${tc.url}/compute/images/${SEED_IMAGE_ID}` }]);
  });

  it('admins see OS-EXT-SRV-ATTR (3 keys at 2.1, 10 from 2.3) and host_status from 2.16 (125)', async () => {
    const s21 = await show(bfv, '2.1', admin);
    expect(Object.keys(s21).filter((k) => k.startsWith('OS-EXT-SRV-ATTR:'))).toEqual(ESA_23.slice(0, 3));
    expect('host_status' in s21).toBe(false);
    const s = await show(bfv, '2.60', admin);
    expect(sorted(Object.keys(s))).toEqual(sorted([...AT_260, ...ESA_23, 'host_status']));
    expect(s).toMatchObject({
      'OS-EXT-SRV-ATTR:hostname': 'cap2-x',
      'OS-EXT-SRV-ATTR:launch_index': 0,
      'OS-EXT-SRV-ATTR:kernel_id': '',
      'OS-EXT-SRV-ATTR:ramdisk_id': '',
      'OS-EXT-SRV-ATTR:root_device_name': '/dev/vda',
      'OS-EXT-SRV-ATTR:user_data': null,
      host_status: 'UP',
    });
    expect(s['OS-EXT-SRV-ATTR:instance_name']).toMatch(/^instance-[0-9a-f]{8}$/);
    expect(s['OS-EXT-SRV-ATTR:reservation_id']).toMatch(/^r-[0-9a-z]{8}$/);
    expect(s['OS-EXT-SRV-ATTR:host']).toBe(s['OS-EXT-SRV-ATTR:hypervisor_hostname']);
    // A disabled host shows MAINTENANCE (190).
    await tc.cloud.deps.store.db
      .updateTable('compute_services')
      .set({ status: 'disabled' })
      .where('host', '=', s['OS-EXT-SRV-ATTR:host'] as string)
      .execute();
    expect((await show(bfv, '2.60', admin)).host_status).toBe('MAINTENANCE');
    await tc.cloud.deps.store.db.updateTable('compute_services').set({ status: 'enabled' }).execute();
    // Admins get hostname with the other attributes at 2.90+, not twice.
    const s293 = await show(bfv, '2.93', admin);
    expect(Object.keys(s293).filter((k) => k === 'OS-EXT-SRV-ATTR:hostname')).toHaveLength(1);
  });

  it('times: created/updated to the second with Z, launched_at with microseconds (09)', async () => {
    const s = await show(bfv, '2.60');
    expect(s.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(s.updated).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(s['OS-SRV-USG:launched_at']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000000$/);
    expect(s['OS-SRV-USG:terminated_at']).toBeNull();
    expect(s['OS-EXT-STS:power_state']).toBe(1);
    expect(s.hostId).toMatch(/^[0-9a-f]{56}$/);
  });

  it('an unknown or foreign id is 404 (153)', async () => {
    const unknown = 'c99ffad6-4b83-43f3-a071-0f23f3c4212a';
    const res = await nova('GET', `/servers/${unknown}`);
    expect({ status: res.status, body: res.body }).toEqual({
      status: 404,
      body: fault(404, `Instance ${unknown} could not be found.`),
    });
    const theirs = (
      await nova('POST', '/servers', {
        body: { server: { name: 'theirs', flavorRef: '1', networks: 'none', imageRef: SEED_IMAGE_ID } },
        session: admin,
      })
    ).body.server.id;
    expect((await nova('GET', `/servers/${theirs}`)).status).toBe(404);
    expect((await nova('GET', `/servers/${theirs}`, { session: admin })).status).toBe(200);
  });

  it('PATCH and PUT on /servers are webob 404s without version headers (151, 152)', async () => {
    for (const method of ['PATCH', 'PUT']) {
      const res = await nova(method, '/servers', { body: {} });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        message: 'The resource could not be found.<br /><br />\n\n\n',
        code: '404 Not Found',
        title: 'Not Found',
      });
      expect(res.headers.get('openstack-api-version')).toBeNull();
    }
  });
});
