import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_IMAGE_ID } from '../../cloud/src/image/seed.js';
import { attachmentRows } from '../../cloud/test/helpers/volume-fixtures.js';
import { inventory } from './helpers/inventory.js';
import { waitForLaunch } from './helpers/launch.js';
import { type ApiClient, startStack, type TestStack } from './helpers/stack.js';

/**
 * Issue 11, finding 3, for the launch wizard: read-write on a shared volume by several servers
 * needs the same acknowledgement as an attach, predicted by the plan and enforced when the
 * servers are created or the volume attached, inside the same per-volume section as attaches.
 */

/** A launch body without the acknowledgement unless asked (the shared test helper acknowledges). */
const body = (over: Record<string, unknown>) => ({
  name: 'lw',
  count: 1,
  flavorId: '1',
  boot: { source: 'image', imageId: SEED_IMAGE_ID },
  dataVolumes: [],
  ...over,
});

/** Read-write holders of a volume in the cloud's own records (live ones). */
const rwHolders = async (stack: TestStack, volumeId: string) =>
  (await attachmentRows(stack.cloud, volumeId))
    .filter((a) => a.attach_status !== 'detached' && a.attach_mode !== 'ro')
    .map((a) => a.instance_uuid);

for (const strategy of ['auto', 'serial'] as const) {
  describe(`launches under the two-writer rule (${strategy === 'auto' ? 'multi-create' : 'serial'})`, () => {
    let stack: TestStack;
    let inv: ReturnType<typeof inventory>;
    let demo: ApiClient;

    beforeAll(async () => {
      stack = await startStack({ bff: { launchStrategy: strategy } });
      inv = inventory(stack);
      await inv.modernHostsOnly();
      demo = await stack.signIn('demo');
    });
    afterAll(async () => {
      await stack?.close();
    });

    it('refuses several servers read-write on a shared volume without the acknowledgement', async () => {
      const vol = await inv.volume('demo', `lw-three-${strategy}`, { shared: true });
      const request = body({ count: 3, dataVolumes: [{ volumeId: vol, mode: 'rw' }] });
      const plan = await demo.post('/api/launches/plan', request);
      expect(plan.status).toBe(200);
      expect(plan.body.ok).toBe(false);
      expect(plan.body.problems).toEqual([
        {
          field: 'acknowledgeMultipleWriters',
          message: expect.stringMatching(
            /^Volume lw-three-\S+ would be written by 3 servers at once\..*cluster file system/,
          ),
        },
      ]);
      const refused = await demo.post('/api/launches', request);
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('launch_not_possible');

      const acked = await demo.post('/api/launches', { ...request, acknowledgeMultipleWriters: true });
      expect(acked.status).toBe(202);
      expect((await waitForLaunch(demo, acked.body.id)).body.status).toBe('succeeded');
      expect(await rwHolders(stack, vol)).toHaveLength(3);
    });

    it('counts the writers a volume already has, and read-only needs nothing', async () => {
      const vol = await inv.volume('demo', `lw-held-${strategy}`, { shared: true });
      const holder = await inv.server('demo', `lw-holder-${strategy}`);
      await inv.attach('demo', holder, vol, 'rw');
      const plan = await demo.post(
        '/api/launches/plan',
        body({ dataVolumes: [{ volumeId: vol, mode: 'rw' }] }),
      );
      expect(plan.body.ok).toBe(false);
      expect(plan.body.problems[0].message).toContain(
        `it already has read-write holders: lw-holder-${strategy}`,
      );
      const ro = await demo.post(
        '/api/launches/plan',
        body({ dataVolumes: [{ volumeId: vol, mode: 'ro' }] }),
      );
      expect(ro.body).toMatchObject({ ok: true, problems: [] });
    });

    it('lets one server of several concurrent launches and attaches become the writer, and fails the rest', async () => {
      const vol = await inv.volume('demo', `lw-race-${strategy}`, { shared: true });
      const targets = await Promise.all([0, 1, 2, 3].map((i) => inv.server('demo', `lw-t${i}-${strategy}`)));
      // Four single-server launches and four dialog attaches at once, none acknowledged: each plan
      // alone is fine (the volume has no writer), so only the section can keep it to one writer.
      const launches = [0, 1, 2, 3].map((i) =>
        demo.post(
          '/api/launches',
          body({ name: `lw-l${i}-${strategy}`, dataVolumes: [{ volumeId: vol, mode: 'rw' }] }),
        ),
      );
      const attaches = targets.map((s) =>
        demo.post(`/api/servers/${s}/attachments`, { volumeId: vol, mode: 'rw' }),
      );
      const started = await Promise.all(launches);
      const attached = await Promise.all(attaches);
      const done = await Promise.all(
        started.map(async (r) => {
          // A launch whose plan already saw a writer is refused at once.
          if (r.status === 400) return 'refused';
          expect(r.status).toBe(202);
          return (await waitForLaunch(demo, r.body.id)).body;
        }),
      );
      const launchWinners = done.filter((d) => d !== 'refused' && d.status === 'succeeded');
      const attachWinners = attached.filter((r) => r.status === 201);
      expect(launchWinners.length + attachWinners.length).toBe(1);
      for (const r of attached.filter((a) => a.status !== 201)) {
        expect(r.status).toBe(409);
        expect(r.body.error.code).toBe('multiple_writers_unacknowledged');
      }
      for (const d of done) {
        if (d === 'refused' || d.status === 'succeeded') continue;
        expect(d.status).toBe('failed');
        expect(d.servers[0].error).toMatch(/would be written by 2 servers at once.*cluster file system/);
      }
      await stack.cloud.settle();
      expect(await rwHolders(stack, vol)).toHaveLength(1);
    });
  });
}
