import { beforeEach, describe, expect } from 'vitest';
import { listComputeHosts } from '../../../src/compute/host/compute-hosts.js';
import type { Session, TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { attachmentRows, createVolume, volumeRow } from '../../helpers/volume-fixtures.js';
import { addFlavor, allHostsEnabled, bfvBody, novaClient, onlyHosts, serverRow } from './servers-fixtures.js';

/**
 * A multi-create's servers are placed in one batch (hosts and usage read once): each placement
 * must still claim its share of the host, so the batch stops where one-by-one scheduling would,
 * and the servers left over end as a one-server build does without a host.
 */

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

const NO_VALID_HOST = 'No valid host was found. There are not enough hosts available.';

describe('batched multi-create placement', () => {
  it('fills the one host with room for two, the other two ERROR with NoValidHost and no attachment', async () => {
    await onlyHosts(tc, ['compute-2']);
    const host = (await listComputeHosts(tc.cloud.deps.store.db)).find((h) => h.host === 'compute-2')!;
    // Two servers of this flavor fit on the host's free vCPUs, a third does not.
    const vcpus = Math.floor(host.free.vcpus / 2);
    expect(vcpus).toBeGreaterThan(0);
    await addFlavor(tc, { id: 'half-host', name: 'half-host', vcpus, ram: 64, disk: 0 });
    const volumeId = await createVolume(tc, { projectId: demo.projectId, multiattach: true, bootable: true });

    const res = await nova('POST', '/servers', {
      version: '2.105',
      body: bfvBody(volumeId, {
        name: 'batch',
        flavorRef: 'half-host',
        min_count: 4,
        max_count: 4,
        return_reservation_id: true,
      }),
    });
    expect(res.status).toBe(202);
    await tc.settle();

    const list = await nova('GET', `/servers/detail?reservation_id=${res.body.reservation_id}`, {
      version: '2.105',
    });
    const byName = new Map<string, { id: string; status: string; fault?: { message: string } }>(
      list.body.servers.map((s: { name: string }) => [s.name, s]),
    );
    // Placed in launch order, as one select_destinations call hands out hosts.
    expect(['batch-1', 'batch-2', 'batch-3', 'batch-4'].map((n) => byName.get(n)?.status)).toEqual([
      'ACTIVE',
      'ACTIVE',
      'ERROR',
      'ERROR',
    ]);
    for (const n of ['batch-3', 'batch-4']) expect(byName.get(n)?.fault?.message).toBe(NO_VALID_HOST);
    for (const n of ['batch-1', 'batch-2']) {
      expect((await serverRow(tc, byName.get(n)!.id))?.host).toBe('compute-2');
    }
    const attachments = await attachmentRows(tc, volumeId);
    expect(attachments.map((a) => a.instance_uuid).sort()).toEqual(
      [byName.get('batch-1')!.id, byName.get('batch-2')!.id].sort(),
    );
    expect(attachments.every((a) => a.attach_status === 'attached')).toBe(true);
    expect(await volumeRow(tc, volumeId)).toMatchObject({ status: 'in-use', attach_status: 'attached' });
  });
});
