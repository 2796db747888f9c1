import { describe, expect, it, test } from './helpers/fixtures.js';

test.beforeAll(async ({ inv }) => {
  await inv.modernHostsOnly();
});

describe('bulk detach', () => {
  it("detaches two servers from one shared volume, one after the other, and leaves the third's hold", async ({
    inv,
    member: demo,
  }) => {
    const vol = await inv.volume('demo', 'bulk-shared', { shared: true });
    const servers = [
      await inv.server('demo', 'bulk-a'),
      await inv.server('demo', 'bulk-b'),
      await inv.server('demo', 'bulk-c'),
    ];
    for (const s of servers) await inv.attach('demo', s, vol, 'ro');
    const [a, b, c] = servers as [string, string, string];

    const res = await demo.post('/api/attachments/detach', {
      items: [
        { serverId: a, volumeId: vol },
        { serverId: b, volumeId: vol },
      ],
    });
    expect(res.status, res.text).toBe(200);
    // Both detached: the second began only once the volume had left `detaching` (Cinder refuses otherwise).
    expect(res.body.outcomes).toEqual([
      { serverId: a, volumeId: vol, outcome: 'detached', code: null, message: null },
      { serverId: b, volumeId: vol, outcome: 'detached', code: null, message: null },
    ]);
    const after = await demo.get(`/api/volumes/${vol}`);
    expect(after.body.attachments.map((h: { serverId: string }) => h.serverId)).toEqual([c]);
  });

  it("gives each refusal in the cloud's words and still detaches the rest", async ({ inv, member: demo }) => {
    const vol = await inv.volume('demo', 'bulk-mixed', { shared: true });
    const held = await inv.server('demo', 'bulk-held');
    const stranger = await inv.server('demo', 'bulk-stranger');
    await inv.attach('demo', held, vol, 'rw');
    const other = await inv.volume('demo', 'bulk-other');
    await inv.attach('demo', stranger, other, 'rw');

    const res = await demo.post('/api/attachments/detach', {
      items: [
        { serverId: stranger, volumeId: vol },
        { serverId: held, volumeId: vol },
        { serverId: stranger, volumeId: other },
      ],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.outcomes).toEqual([
      {
        serverId: stranger,
        volumeId: vol,
        outcome: 'refused',
        code: 'not_found',
        message: `Instance ${stranger} is not attached to volume ${vol}`,
      },
      { serverId: held, volumeId: vol, outcome: 'detached', code: null, message: null },
      { serverId: stranger, volumeId: other, outcome: 'detached', code: null, message: null },
    ]);
  });

  it('refuses an empty or oversized batch with a message for people', async ({ member: demo }) => {
    const empty = await demo.post('/api/attachments/detach', { items: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.error.details.fields).toEqual({ items: 'Choose at least one attachment to detach' });
    const items = Array.from({ length: 51 }, (_, i) => ({ serverId: `s${i}`, volumeId: 'v' }));
    const big = await demo.post('/api/attachments/detach', { items });
    expect(big.status).toBe(400);
    expect(big.body.error.details.fields).toEqual({ items: 'Detach at most 50 attachments at once' });
  });
});
