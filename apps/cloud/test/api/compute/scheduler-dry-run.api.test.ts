import { beforeEach, describe, expect } from 'vitest';
import { SEED_IMAGE_ID } from '../../../src/image/seed.js';
import { http, type Session, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { addFlavor, allHostsEnabled, fault, novaClient, onlyHosts } from './servers-fixtures.js';

/**
 * `POST /os-scheduler-dry-run` (docs/cloud-extensions.md): how many of N servers the emulated
 * scheduler would place, per zone, checked against what a real multi-create then does.
 *
 * The seeded hosts, for m1.xlarge (8 vCPUs, 16 GB, 160 GB disk): compute-1, compute-2 and
 * compute-3 hold 8 each (vCPUs bind), compute-old and ironic-1 4 each: 20 in `nova`, 12 in `az2`.
 */

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
  // RAM-bound and disk-heavy: 3 per big host (2 when its 1000 GB root disk is local), 1 per small one.
  await addFlavor(tc, { id: 'fat', name: 'fat', vcpus: 1, ram: 65_536, disk: 1000 });
});
beforeEach(async () => {
  await tc.settle();
  await allHostsEnabled(tc);
});

const XLARGE = '5';

async function dryRun(dry: Record<string, unknown>, session: Session = demo, version = '2.105') {
  return nova('POST', '/os-scheduler-dry-run', { body: { dry_run: dry }, version, session });
}

async function fits(dry: Record<string, unknown>, session: Session = demo) {
  const res = await dryRun(dry, session);
  expect(res.status).toBe(200);
  return res.body.dry_run;
}

const serverCount = async () =>
  Number(
    (
      await tc.cloud.deps.store.db
        .selectFrom('servers')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('the answer', () => {
  it('40 x m1.xlarge: 32 fit, 20 in nova and 12 in az2; a real multi-create of 40 then places exactly 32', async () => {
    const before = await serverCount();
    expect(await fits({ flavorRef: XLARGE, count: 40 })).toEqual({
      requested: 40,
      fits: 32,
      zones: [
        { zone_name: 'az2', fits: 12 },
        { zone_name: 'nova', fits: 20 },
      ],
    });
    // Nothing was claimed or written.
    expect(await serverCount()).toBe(before);
    expect((await fits({ flavorRef: XLARGE, count: 40 })).fits).toBe(32);

    const create = await nova('POST', '/servers', {
      version: '2.60',
      body: {
        server: {
          name: 'dry',
          flavorRef: XLARGE,
          imageRef: SEED_IMAGE_ID,
          networks: 'none',
          min_count: 40,
          max_count: 40,
          return_reservation_id: true,
        },
      },
    });
    expect(create.status).toBe(202);
    await tc.settle();
    const rows = await tc.cloud.deps.store.db
      .selectFrom('servers')
      .select(['id', 'vm_state'])
      .where('name', 'like', 'dry-%')
      .execute();
    expect(rows.filter((r) => r.vm_state === 'active')).toHaveLength(32);
    expect(rows.filter((r) => r.vm_state === 'error')).toHaveLength(8);
    // The hosts are full now: the dry run says so, per zone too.
    expect(await fits({ flavorRef: XLARGE, count: 1 })).toEqual({
      requested: 1,
      fits: 0,
      zones: [
        { zone_name: 'az2', fits: 0 },
        { zone_name: 'nova', fits: 0 },
      ],
    });
    for (const r of rows) await nova('DELETE', `/servers/${r.id}`);
    await tc.settle();
    expect((await fits({ flavorRef: XLARGE, count: 40 })).fits).toBe(32);
  });

  it('fewer than fit: fits is the count asked for', async () => {
    expect(await fits({ flavorRef: '1', count: 3 })).toEqual({
      requested: 3,
      fits: 3,
      zones: [
        { zone_name: 'az2', fits: 3 },
        { zone_name: 'nova', fits: 3 },
      ],
    });
  });

  it('a zone: only that zone is counted and listed', async () => {
    expect(await fits({ flavorRef: XLARGE, count: 40, availability_zone: 'az2' })).toEqual({
      requested: 40,
      fits: 12,
      zones: [{ zone_name: 'az2', fits: 12 }],
    });
  });

  it('volume_backed claims no local root disk', async () => {
    expect((await fits({ flavorRef: 'fat', count: 50 })).fits).toBe(2 * 3 + 2);
    expect((await fits({ flavorRef: 'fat', count: 50, volume_backed: true })).fits).toBe(3 * 3 + 2);
  });

  it('multiattach leaves out ironic-1 (no shareable disks); read_only leaves out compute-old (too old)', async () => {
    const shared = await fits({ flavorRef: XLARGE, count: 40, multiattach: true });
    expect(shared).toMatchObject({
      fits: 28,
      zones: [
        { zone_name: 'az2', fits: 8 },
        { zone_name: 'nova', fits: 20 },
      ],
    });
    const ro = await fits({ flavorRef: XLARGE, count: 40, multiattach: true, read_only: true });
    expect(ro).toMatchObject({
      fits: 24,
      zones: [
        { zone_name: 'az2', fits: 8 },
        { zone_name: 'nova', fits: 16 },
      ],
    });
  });

  it('disabled hosts take nothing; a zone with no enabled host is no longer available', async () => {
    await onlyHosts(tc, ['compute-1']);
    expect(await fits({ flavorRef: XLARGE, count: 40 })).toEqual({
      requested: 40,
      fits: 8,
      zones: [{ zone_name: 'nova', fits: 8 }],
    });
    const res = await dryRun({ flavorRef: XLARGE, count: 1, availability_zone: 'az2' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(fault(400, 'The requested availability zone is not available'));
  });

  it('an admin may force a host with "zone:host", past the filters as at create', async () => {
    await onlyHosts(tc, []);
    expect(await fits({ flavorRef: XLARGE, count: 5, availability_zone: 'nova:compute-2' }, admin)).toEqual({
      requested: 5,
      fits: 5,
      zones: [{ zone_name: 'nova', fits: 5 }],
    });
    expect(await fits({ flavorRef: XLARGE, count: 5, availability_zone: ':compute-3' }, admin)).toEqual({
      requested: 5,
      fits: 5,
      zones: [{ zone_name: 'az2', fits: 5 }],
    });
    expect(
      await fits({ flavorRef: XLARGE, count: 5, availability_zone: 'nova:no-such-host' }, admin),
    ).toEqual({ requested: 5, fits: 0, zones: [] });
  });

  it('never names a host', async () => {
    const res = await dryRun({ flavorRef: XLARGE, count: 40 });
    expect(res.text).not.toMatch(/compute-|ironic/);
  });
});

describe('faults', () => {
  it('below 2.105 the resource does not exist: 404 as for a Nova method added at a later microversion', async () => {
    const res = await dryRun({ flavorRef: '1', count: 1 }, demo, '2.104');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(fault(404, 'The resource could not be found.'));
    expect(res.headers.get('openstack-api-version')).toBe('compute 2.104');
  });

  it('only POST is routed', async () => {
    const res = await nova('GET', '/os-scheduler-dry-run', { version: '2.105' });
    expect(res.status).toBe(404);
  });

  it.each([
    [{}, "'dry_run' is a required property"],
    [
      { dry_run: { flavorRef: '1' } },
      "Invalid input for field/attribute dry_run. Value: {'flavorRef': '1'}. 'count' is a required property",
    ],
    [
      { dry_run: { count: 1 } },
      "Invalid input for field/attribute dry_run. Value: {'count': 1}. 'flavorRef' is a required property",
    ],
    [
      { dry_run: { flavorRef: '1', count: 0 } },
      'Invalid input for field/attribute count. Value: 0. 0 is less than the minimum of 1',
    ],
    [
      { dry_run: { flavorRef: '1', count: 1001 } },
      'Invalid input for field/attribute count. Value: 1001. 1001 is greater than the maximum of 1000',
    ],
    [
      { dry_run: { flavorRef: '1', count: '3' } },
      "Invalid input for field/attribute count. Value: 3. '3' is not of type 'integer'",
    ],
    [
      { dry_run: { flavorRef: '1', count: 1, multiattach: 'yes' } },
      "Invalid input for field/attribute multiattach. Value: yes. 'yes' is not of type 'boolean'",
    ],
    [
      { dry_run: { flavorRef: '', count: 1 } },
      "Invalid input for field/attribute flavorRef. Value: . '' is too short",
    ],
  ])('bad body %j: 400 in Nova’s words', async (body, message) => {
    const res = await nova('POST', '/os-scheduler-dry-run', { body, version: '2.105' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(fault(400, message));
  });

  it('an unknown key is refused', async () => {
    const res = await dryRun({ flavorRef: '1', count: 1, host: 'compute-1' });
    expect(res.status).toBe(400);
    expect(res.body.badRequest.message).toContain(
      "Additional properties are not allowed ('host' was unexpected)",
    );
  });

  it('an unknown flavor: 400 with server create’s message', async () => {
    const res = await dryRun({ flavorRef: 'no-such-flavor', count: 1 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(fault(400, 'Invalid flavorRef provided.'));
  });

  it('an unknown zone: 400 as at create', async () => {
    const res = await dryRun({ flavorRef: '1', count: 1, availability_zone: 'mars' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(fault(400, 'The requested availability zone is not available'));
  });

  it('"zone:host" from a member: the forced-host policy 403', async () => {
    const res = await dryRun({ flavorRef: '1', count: 1, availability_zone: 'nova:compute-1' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(
      fault(403, "Policy doesn't allow os_compute_api:servers:create:forced_host to be performed."),
    );
  });

  it('no token: 401', async () => {
    const res = await http(tc, 'POST', '/compute/v2.1/os-scheduler-dry-run', {
      body: { dry_run: { flavorRef: '1', count: 1 } },
      version: 'compute 2.105',
    });
    expect(res.status).toBe(401);
  });
});
