import { beforeEach, describe, expect } from 'vitest';
import { SEED_IMAGE_ID } from '../../../src/image/seed.js';
import { http, type Session, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { attachmentRows, createVolume, volumeRow } from '../../helpers/volume-fixtures.js';
import { allHostsEnabled, bfvBody, fault, novaClient, serverRow } from './servers-fixtures.js';

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

const bootable = (extra: { multiattach?: boolean } = {}) =>
  createVolume(tc, { projectId: demo.projectId, bootable: true, ...extra });
const plain = () => createVolume(tc, { projectId: demo.projectId });
const create = (body: unknown, version = '2.60', session: Session = demo) =>
  nova('POST', '/servers', { body, version, session });

async function expectFault(res: { status: number; body: unknown }, status: number, message: string) {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: fault(status, message) });
}

describe('POST /servers: the answer', () => {
  it('202 with id, links, diskConfig, security_groups and a 12-character adminPass, plus Location (08)', async () => {
    const vol = await bootable();
    const res = await create(bfvBody(vol));
    expect(res.status).toBe(202);
    const s = res.body.server;
    expect(Object.keys(s)).toEqual(['id', 'links', 'OS-DCF:diskConfig', 'security_groups', 'adminPass']);
    expect(s['OS-DCF:diskConfig']).toBe('MANUAL');
    expect(s.security_groups).toEqual([{ name: 'default' }]);
    expect(s.adminPass).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(s.links).toEqual([
      { rel: 'self', href: `${tc.url}/compute/v2.1/servers/${s.id}` },
      { rel: 'bookmark', href: `${tc.url}/compute/servers/${s.id}` },
    ]);
    expect(res.headers.get('location')).toBe(`${tc.url}/compute/v2.1/servers/${s.id}`);
    expect(res.headers.get('openstack-api-version')).toBe('compute 2.60');
  });

  it('echoes a given adminPass and the requested security groups', async () => {
    const web = await http(tc, 'POST', '/network/v2.0/security-groups', {
      token: demo.token,
      body: { security_group: { name: 'web' } },
    });
    expect(web.status).toBe(201);
    const vol = await bootable();
    const res = await create(
      bfvBody(vol, { adminPass: 'sekrit', security_groups: [{ name: 'web' }, { name: 'web' }] }),
    );
    expect(res.body.server.adminPass).toBe('sekrit');
    expect(res.body.server.security_groups).toEqual([{ name: 'web' }]);
  });

  it('return_reservation_id: 202 {"reservation_id"} without Location (131); the string "false" counts as true', async () => {
    for (const flag of [true, 'false']) {
      const res = await create({
        server: {
          name: 'rr',
          flavorRef: '1',
          networks: 'none',
          imageRef: SEED_IMAGE_ID,
          return_reservation_id: flag,
        },
      });
      expect(res.status).toBe(202);
      expect(Object.keys(res.body)).toEqual(['reservation_id']);
      expect(res.body.reservation_id).toMatch(/^r-[0-9a-z]{8}$/);
      expect(res.headers.get('location')).toBeNull();
    }
  });

  it('builds asynchronously: BUILD, then ACTIVE on a host with the volume attached', async () => {
    const vol = await bootable();
    const res = await create(bfvBody(vol));
    await tc.settle();
    const row = await serverRow(tc, res.body.server.id);
    expect(row).toMatchObject({ vm_state: 'active', task_state: null, power_state: 1 });
    expect(row?.host).toMatch(/^compute-/);
    expect(await volumeRow(tc, vol)).toMatchObject({ status: 'in-use', attach_status: 'attached' });
    const [att] = await attachmentRows(tc, vol);
    expect(att).toMatchObject({
      instance_uuid: res.body.server.id,
      attach_status: 'attached',
      attach_mode: 'rw',
    });
  });

  it('image boot: ACTIVE with the image and no volumes', async () => {
    const res = await create({
      server: { name: 'img', flavorRef: '1', networks: 'none', imageRef: SEED_IMAGE_ID },
    });
    expect(res.status).toBe(202);
    await tc.settle();
    const show = await nova('GET', `/servers/${res.body.server.id}`);
    expect(show.body.server).toMatchObject({
      status: 'ACTIVE',
      image: { id: SEED_IMAGE_ID },
      'os-extended-volumes:volumes_attached': [],
    });
  });

  it('below 2.37 networks may be left out; at 2.37 it is required (146)', async () => {
    const vol = await bootable();
    const body = bfvBody(vol);
    delete (body.server as Record<string, unknown>).networks;
    expect((await create(body, '2.36')).status).toBe(202);
    const res = await create(bfvBody(await bootable(), { networks: undefined }), '2.37');
    expect(res.status).toBe(400);
    expect(res.body.badRequest.message).toMatch(
      /^Invalid input for field\/attribute server\. Value: \{'name': 'srv', 'flavorRef': '1', 'block_device_mapping_v2': \[.*\]\}\. 'networks' is a required property$/,
    );
  });

  it('a list of networks names a network that does not exist (no Neutron here)', async () => {
    const vol = await bootable();
    const net = '7c2e8f43-6d34-4b36-a1a2-8f9ad0b7c5e1';
    await expectFault(
      await create(bfvBody(vol, { networks: [{ uuid: net }] })),
      400,
      `Network ${net} could not be found.`,
    );
    expect((await create(bfvBody(await bootable(), { networks: 'auto' }))).status).toBe(202);
  });
});

describe('POST /servers: request validation (JSON schema)', () => {
  it('an unknown top-level key: the bare jsonschema message (142)', async () => {
    const vol = await bootable();
    await expectFault(
      await create({ ...bfvBody(vol), cap2_unknown: 1 }),
      400,
      "Additional properties are not allowed ('cap2_unknown' was unexpected)",
    );
  });

  it('an unknown key in server: the field prefix with the Python repr of the value (143)', async () => {
    const vol = '3f6d2c1e-1111-4b2a-9c3d-2e1f0a9b8c7d';
    const res = await create(bfvBody(vol, { cap2_unknown: 1 }));
    await expectFault(
      res,
      400,
      `Invalid input for field/attribute server. Value: {'name': 'srv', 'flavorRef': '1', 'networks': 'none', 'block_device_mapping_v2': [{'boot_index': 0, 'uuid': '${vol}', 'source_type': 'volume', 'destination_type': 'volume', 'delete_on_termination': False}], 'cap2_unknown': 1}. Additional properties are not allowed ('cap2_unknown' was unexpected)`,
    );
  });

  it('malformed JSON is "Malformed request body" (141); text/plain is read as JSON (149); XML is 415 (150)', async () => {
    await expectFault(
      await nova('POST', '/servers', { rawBody: '{"server": {"name": "x",' }),
      400,
      'Malformed request body',
    );
    const vol = await bootable();
    const text = await nova('POST', '/servers', {
      rawBody: JSON.stringify(bfvBody(vol)),
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(text.status).toBe(202);
    await expectFault(
      await nova('POST', '/servers', {
        rawBody: JSON.stringify(bfvBody(vol)),
        headers: { 'Content-Type': 'application/xml' },
      }),
      415,
      'Unsupported Content-Type',
    );
  });

  it('a missing server, a bad name, a bad flavorRef type', async () => {
    await expectFault(await create({}), 400, "'server' is a required property");
    await expectFault(
      await create({ server: { name: ' x', flavorRef: '1', networks: 'none', imageRef: SEED_IMAGE_ID } }),
      400,
      "An invalid 'name' value was provided. The name must be: printable characters. Can not start or end with whitespace.",
    );
    await expectFault(
      await create({ server: { name: 'x', flavorRef: true, networks: 'none', imageRef: SEED_IMAGE_ID } }),
      400,
      "Invalid input for field/attribute flavorRef. Value: True. True is not of type 'string', 'integer'",
    );
  });

  it('min_count and max_count must be positive integers', async () => {
    await expectFault(
      await create({
        server: { name: 'x', flavorRef: '1', networks: 'none', imageRef: SEED_IMAGE_ID, min_count: 0 },
      }),
      400,
      'Invalid input for field/attribute min_count. Value: 0. 0 is less than the minimum of 1',
    );
    await expectFault(
      await create({
        server: { name: 'x', flavorRef: '1', networks: 'none', imageRef: SEED_IMAGE_ID, max_count: 'two' },
      }),
      400,
      "Invalid input for field/attribute max_count. Value: two. 'two' does not match '^[0-9]*$'",
    );
  });

  it('a bad boot_index and a bad source_type in a mapping name the field', async () => {
    const vol = await bootable();
    await expectFault(
      await create(bfvBody(vol, {}, { boot_index: 'first' })),
      400,
      "Invalid input for field/attribute boot_index. Value: first. 'first' does not match '^-?[0-9]+$'",
    );
    await expectFault(
      await create(bfvBody(vol, {}, { source_type: 'disk' })),
      400,
      "Invalid input for field/attribute source_type. Value: disk. 'disk' is not one of ['volume', 'image', 'snapshot', 'blank']",
    );
  });
});

describe('POST /servers: block device mappings (reference 1.4)', () => {
  const image = (bdm: Record<string, unknown>[], server: Record<string, unknown> = {}) => ({
    server: { name: 'b', flavorRef: '1', networks: 'none', block_device_mapping_v2: bdm, ...server },
  });

  it('both syntaxes at once', async () => {
    const vol = await bootable();
    const body = bfvBody(vol, { block_device_mapping: [{ volume_id: vol, device_name: 'vda' }] });
    await expectFault(
      await create(body),
      400,
      'Using different block_device_mapping syntaxes is not allowed in the same request.',
    );
  });

  it('blank with a uuid; a missing uuid (144); image to local without imageRef', async () => {
    const vol = await bootable();
    await expectFault(
      await create(
        image([
          { boot_index: 0, uuid: vol, source_type: 'blank', destination_type: 'volume', volume_size: 1 },
        ]),
      ),
      400,
      'Block Device Mapping is Invalid: Invalid device UUID.',
    );
    await expectFault(
      await create(image([{ boot_index: 0, source_type: 'volume', destination_type: 'volume' }])),
      400,
      'Block Device Mapping is Invalid: Missing device UUID.',
    );
    await expectFault(
      await create(
        image([{ boot_index: 0, uuid: SEED_IMAGE_ID, source_type: 'image', destination_type: 'local' }]),
      ),
      400,
      'Block Device Mapping is Invalid: Mapping image to local is not supported.',
    );
  });

  it('volume_type on a local mapping and on an existing volume (2.67)', async () => {
    const vol = await bootable();
    await expectFault(
      await create(
        image([
          { boot_index: 0, uuid: vol, source_type: 'volume', destination_type: 'volume' },
          { boot_index: -1, source_type: 'blank', destination_type: 'local', volume_type: 'x' },
        ]),
        '2.67',
      ),
      400,
      'Block Device Mapping is Invalid: Specifying a volume_type with destination_type=local is not supported.',
    );
    await expectFault(
      await create(
        image([
          {
            boot_index: 0,
            uuid: vol,
            source_type: 'volume',
            destination_type: 'volume',
            volume_type: 'multiattach',
          },
        ]),
        '2.67',
      ),
      400,
      'Block Device Mapping is Invalid: Specifying volume type to existing volume is not supported.',
    );
    await expectFault(
      await create(
        image([
          {
            boot_index: 0,
            source_type: 'blank',
            destination_type: 'volume',
            volume_size: 1,
            volume_type: 'nope',
          },
        ]),
        '2.67',
      ),
      400,
      'Volume type nope could not be found.',
    );
  });

  it('no image and no mappings: "Missing imageRef attribute" (147, and multi-create 130)', async () => {
    await expectFault(
      await create({ server: { name: 'x', flavorRef: '1', networks: 'none' } }),
      400,
      'Missing imageRef attribute',
    );
    await expectFault(
      await create({
        server: {
          name: 'x',
          flavorRef: '1',
          networks: 'none',
          min_count: 2,
          max_count: 2,
          return_reservation_id: true,
        },
      }),
      400,
      'Missing imageRef attribute',
    );
  });

  it('boot indexes must run 0..n (145)', async () => {
    const a = await bootable();
    const b = await plain();
    await expectFault(
      await create(
        image([
          { boot_index: 0, uuid: a, source_type: 'volume', destination_type: 'volume' },
          { boot_index: 2, uuid: b, source_type: 'volume', destination_type: 'volume' },
        ]),
      ),
      400,
      'Block Device Mapping is Invalid: Boot sequence for the instance and image/block device mapping combination is not valid.',
    );
  });

  it('blank and image volumes need a size', async () => {
    await expectFault(
      await create(image([{ boot_index: 0, source_type: 'blank', destination_type: 'volume' }])),
      400,
      "Blank volumes (source: 'blank', dest: 'volume') need to have non-zero size",
    );
    await expectFault(
      await create(
        image([{ boot_index: 0, uuid: SEED_IMAGE_ID, source_type: 'image', destination_type: 'volume' }]),
      ),
      400,
      "Images with destination_type 'volume' need to have a non-zero size specified",
    );
  });

  it('an unknown volume (148), a non-bootable boot volume (06), an unknown image or snapshot', async () => {
    const missing = '03726a7c-6c9b-4170-99b9-70b4a12be9a7';
    await expectFault(
      await create(bfvBody(missing)),
      400,
      `Block Device Mapping is Invalid: failed to get volume ${missing}.`,
    );
    const vol = await plain();
    await expectFault(await create(bfvBody(vol)), 400, `Block Device ${vol} is not bootable.`);
    await expectFault(
      await create(
        image([
          { boot_index: 0, uuid: missing, source_type: 'image', destination_type: 'volume', volume_size: 1 },
        ]),
      ),
      400,
      `Block Device Mapping is Invalid: failed to get image ${missing}.`,
    );
    await expectFault(
      await create(
        image([{ boot_index: 0, uuid: missing, source_type: 'snapshot', destination_type: 'volume' }]),
      ),
      400,
      `Block Device Mapping is Invalid: failed to get snapshot ${missing}.`,
    );
    await expectFault(
      await create({ server: { name: 'x', flavorRef: '1', networks: 'none', imageRef: missing } }),
      400,
      'Can not find requested image',
    );
  });

  it("another project's volume is not found for a member", async () => {
    const theirs = await createVolume(tc, { projectId: admin.projectId, bootable: true });
    await expectFault(
      await create(bfvBody(theirs)),
      400,
      `Block Device Mapping is Invalid: failed to get volume ${theirs}.`,
    );
  });

  it('an image boot may not put a volume on the root device name', async () => {
    const vol = await plain();
    await expectFault(
      await create(
        image(
          [
            { boot_index: 0, uuid: SEED_IMAGE_ID, source_type: 'image', destination_type: 'local' },
            {
              boot_index: -1,
              uuid: vol,
              source_type: 'volume',
              destination_type: 'volume',
              device_name: '/dev/vda',
            },
          ],
          { imageRef: SEED_IMAGE_ID },
        ),
      ),
      400,
      'The volume cannot be assigned the same device name as the root device vda',
    );
  });

  it('swap and local device limits, an unknown disk bus', async () => {
    const vol = await bootable();
    const root = { boot_index: 0, uuid: vol, source_type: 'volume', destination_type: 'volume' };
    const swap = { boot_index: -1, source_type: 'blank', destination_type: 'local', guest_format: 'swap' };
    await expectFault(
      await create(image([root, swap, swap])),
      400,
      'Block Device Mapping is Invalid: More than one swap drive requested.',
    );
    await expectFault(
      await create(image([root, { ...swap, volume_size: 1 }])),
      400,
      'Swap drive requested is larger than instance type allows.',
    );
    await expectFault(
      await create(image([{ ...root, disk_bus: 'floppy' }])),
      400,
      'Block Device Mapping is Invalid.',
    );
  });

  it('an image boot with a data volume and an image-to-local root works', async () => {
    const vol = await plain();
    const res = await create(
      image(
        [
          { boot_index: 0, uuid: SEED_IMAGE_ID, source_type: 'image', destination_type: 'local' },
          {
            boot_index: -1,
            uuid: vol,
            source_type: 'volume',
            destination_type: 'volume',
            delete_on_termination: 'yes',
          },
        ],
        { imageRef: SEED_IMAGE_ID },
      ),
    );
    expect(res.status).toBe(202);
    await tc.settle();
    const show = await nova('GET', `/servers/${res.body.server.id}`);
    expect(show.body.server['os-extended-volumes:volumes_attached']).toEqual([
      { id: vol, delete_on_termination: true },
    ]);
  });

  it('a multiattach volume below 2.60 (55): 400, and nothing stays reserved', async () => {
    const vol = await bootable({ multiattach: true });
    await expectFault(
      await create(bfvBody(vol), '2.59'),
      400,
      'Multiattach volumes are only supported starting with compute API version 2.60.',
    );
    expect(await attachmentRows(tc, vol)).toEqual([]);
    expect(await volumeRow(tc, vol)).toMatchObject({ status: 'available' });
  });

  it('a volume that is already in use cannot boot a second server', async () => {
    const vol = await bootable();
    expect((await create(bfvBody(vol))).status).toBe(202);
    await tc.settle();
    const res = await create(bfvBody(vol));
    expect(res.status).toBe(400);
    expect(res.body.badRequest.message).toMatch(
      new RegExp(
        `^Invalid volume: Invalid input received: Invalid volume: Volume ${vol} status must be available or downloading to reserve, but the current status is in-use\\. \\(HTTP 400\\) \\(Request-ID: req-[0-9a-f-]{36}\\)$`,
      ),
    );
  });
});

describe('POST /servers: flavor, zone and host', () => {
  it('an unknown flavor', async () => {
    await expectFault(
      await create({ server: { name: 'x', flavorRef: '999', networks: 'none', imageRef: SEED_IMAGE_ID } }),
      400,
      'Invalid flavorRef provided.',
    );
  });

  it('a zone that does not exist', async () => {
    await expectFault(
      await create({
        server: {
          name: 'x',
          flavorRef: '1',
          networks: 'none',
          imageRef: SEED_IMAGE_ID,
          availability_zone: 'nowhere',
        },
      }),
      400,
      'The requested availability zone is not available',
    );
  });

  it('zone:host and host (2.74) are admin-only, and not together', async () => {
    const base = { name: 'x', flavorRef: '1', networks: 'none', imageRef: SEED_IMAGE_ID };
    await expectFault(
      await create({ server: { ...base, availability_zone: 'nova:compute-2' } }),
      403,
      "Policy doesn't allow os_compute_api:servers:create:forced_host to be performed.",
    );
    await expectFault(
      await create({ server: { ...base, host: 'compute-2' } }, '2.74'),
      403,
      "Policy doesn't allow compute:servers:create:requested_destination to be performed.",
    );
    await expectFault(
      await create(
        { server: { ...base, host: 'compute-2', availability_zone: 'nova:compute-2' } },
        '2.74',
        admin,
      ),
      400,
      'One mechanism with host and/or hypervisor_hostname and another mechanism with zone:host:node are mutually exclusive.',
    );
    await expectFault(
      await create({ server: { ...base, host: 'compute-9' } }, '2.74', admin),
      400,
      'Compute host compute-9 could not be found.',
    );
    const below = await create({ server: { ...base, host: 'compute-2' } }, '2.73', admin);
    expect(below.body.badRequest.message).toBe(
      "Invalid input for field/attribute server. Value: {'name': 'x', 'flavorRef': '1', 'networks': 'none', 'imageRef': '" +
        SEED_IMAGE_ID +
        "', 'host': 'compute-2'}. Additional properties are not allowed ('host' was unexpected)",
    );
  });

  it('key pairs do not exist in this cloud', async () => {
    await expectFault(
      await create({
        server: { name: 'x', flavorRef: '1', networks: 'none', imageRef: SEED_IMAGE_ID, key_name: 'mine' },
      }),
      400,
      'Invalid key_name provided.',
    );
  });
});

describe('POST /servers: attach_mode (2.105)', () => {
  it('below 2.105 the key is unknown to the mapping schema', async () => {
    const vol = '0155e063-a222-4d63-b764-c99019bdcf50';
    await expectFault(
      await create(bfvBody(vol, {}, { attach_mode: 'ro' }), '2.104'),
      400,
      `Invalid input for field/attribute 0. Value: {'boot_index': 0, 'uuid': '${vol}', 'source_type': 'volume', 'destination_type': 'volume', 'delete_on_termination': False, 'attach_mode': 'ro'}. Additional properties are not allowed ('attach_mode' was unexpected)`,
    );
  });

  it('a value other than ro or rw', async () => {
    const vol = await bootable();
    await expectFault(
      await create(bfvBody(vol, {}, { attach_mode: 'xx' }), '2.105'),
      400,
      "Invalid input for field/attribute attach_mode. Value: xx. 'xx' is not one of ['ro', 'rw']",
    );
    await expectFault(
      await create(bfvBody(vol, {}, { attach_mode: 1 }), '2.105'),
      400,
      "Invalid input for field/attribute attach_mode. Value: 1. 1 is not of type 'string'",
    );
  });

  it('on a destination_type=local mapping', async () => {
    await expectFault(
      await create(
        {
          server: {
            name: 'x',
            flavorRef: '1',
            networks: 'none',
            imageRef: SEED_IMAGE_ID,
            block_device_mapping_v2: [
              {
                boot_index: 0,
                uuid: SEED_IMAGE_ID,
                source_type: 'image',
                destination_type: 'local',
                attach_mode: 'ro',
              },
            ],
          },
        },
        '2.105',
      ),
      400,
      'Block Device Mapping is Invalid: Specifying an attach_mode with destination_type=local is not supported.',
    );
  });

  it('ro reaches Cinder as the attachment mode and stays on the mapping; rw is the default', async () => {
    const ro = await bootable({ multiattach: true });
    const res = await create(bfvBody(ro, {}, { attach_mode: 'ro' }), '2.105');
    expect(res.status).toBe(202);
    const rw = await bootable();
    const res2 = await create(bfvBody(rw), '2.105');
    await tc.settle();
    const bdm = await tc.cloud.deps.store.db
      .selectFrom('block_device_mappings')
      .selectAll()
      .where('server_id', 'in', [res.body.server.id, res2.body.server.id])
      .execute();
    expect(bdm.find((b) => b.volume_id === ro)?.attach_mode).toBe('ro');
    expect(bdm.find((b) => b.volume_id === rw)?.attach_mode).toBe('rw');
    expect((await attachmentRows(tc, ro))[0]).toMatchObject({ attach_mode: 'ro', attach_status: 'attached' });
    expect(JSON.parse((await attachmentRows(tc, ro))[0]!.connector!)).toMatchObject({ mode: 'ro' });
  });
});
