import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SEED_IMAGE_ID } from '../../cloud/src/image/seed.js';
import { startCloud, type TestCloud } from '../../cloud/test/helpers/cloud.js';
import type { BffConfig } from '../src/config.js';
import { MemorySessionStore, type SessionStore } from '../src/platform/session-store.js';
import { launchBody, waitForLaunch } from './helpers/launch.js';
import { type ApiClient, startStack, type TestStack } from './helpers/stack.js';

/**
 * The BFF process that drives a launch stops half-way (its work halts, its lease is not renewed);
 * the launch is then picked up by another BFF process on the same database: resumed with the
 * session that started it when that session is still kept (sessions in PostgreSQL), else marked
 * interrupted, and finished by "retry the failed ones". On the embedded SQLite file, and on
 * PostgreSQL when TEST_DATABASE_URL is set.
 */
const pgUrl = process.env.TEST_DATABASE_URL;
/** The engine's name, its BFF settings, and a prefix for server names (both engines share one cloud). */
type Engine = [string, () => Partial<BffConfig>, string];
const engines: Engine[] = [
  ['SQLite file', () => ({ databaseFile: join(dir, 'bff.db') }), 'sq'],
  ...(pgUrl ? [['PostgreSQL', () => ({ sessionDatabaseUrl: pgUrl }), 'pg'] as Engine] : []),
];
const LEASES = { leaseMs: 400, renewMs: 100, sweepMs: 150 };

let dir = '';
let cloud: TestCloud;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bff-restart-'));
  // A visible delay, so that the launch is half-way when its BFF stops.
  cloud = await startCloud({ backendDelayMs: 150 });
});
afterAll(async () => {
  await cloud?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(engines)(
  'a launch whose BFF stopped half-way, launches on %s',
  (_engine, bffConfig, prefix) => {
    const stacks: TestStack[] = [];
    const bff = async (sessions: SessionStore, strategy: 'auto' | 'serial' = 'auto') => {
      const s = await startStack({
        bff: { ...bffConfig(), launchStrategy: strategy },
        sharedCloud: cloud,
        sessions,
        leases: LEASES,
      });
      stacks.push(s);
      return s;
    };
    // Each test's BFF processes go with it: a process left sweeping would pick up the next test's launch.
    afterEach(async () => {
      for (const s of stacks.splice(0)) await s.close();
    });

    /** Starts a launch of 3 on a shared data volume and stops its BFF once servers exist. */
    async function halfway(first: TestStack, name: string) {
      const demo = await first.signIn('demo');
      const vol = await demo.post('/api/volumes', { name: `${name}-data`, sizeGb: 1, type: 'multiattach' });
      expect(vol.status).toBe(201);
      const deadlineVol = Date.now() + 10_000;
      while ((await demo.get(`/api/volumes/${vol.body.id}`)).body.status !== 'available') {
        if (Date.now() > deadlineVol) throw new Error('volume not available');
        await new Promise((r) => setTimeout(r, 50));
      }
      const res = await demo.post(
        '/api/launches',
        launchBody({
          name,
          count: 3,
          boot: { source: 'image', imageId: SEED_IMAGE_ID },
          dataVolumes: [{ volumeId: vol.body.id, mode: 'ro' }],
        }),
      );
      expect(res.status).toBe(202);
      const id = res.body.id as string;
      const deadline = Date.now() + 10_000;
      for (;;) {
        const l = (await demo.get(`/api/launches/${id}`)).body;
        if (l.servers.some((s: { serverId: string | null }) => s.serverId)) break;
        if (Date.now() > deadline) throw new Error(`no server yet: ${JSON.stringify(l)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      // The process dies: nothing more is sent or saved, and its lease is not renewed.
      await first.launches.stop();
      const frozen = (await demo.get(`/api/launches/${id}`)).body;
      expect(frozen.status).toBe('running');
      return { id, frozen };
    }

    /** The launch's servers as the cloud has them, by name. */
    async function cloudServers(c: ApiClient, name: string) {
      const list = (await c.get('/api/servers')).body.servers as { id: string; name: string }[];
      return list.filter((s) => s.name === name || s.name.startsWith(`${name}-`));
    }

    it.each([
      ['multi-create', 'auto'],
      ['serial', 'serial'],
    ] as const)('is resumed by another BFF with the session that started it (%s)', async (_s, strategy) => {
      const sessions = new MemorySessionStore();
      const first = await bff(sessions, strategy);
      const name = `${prefix}-resume-${strategy}`;
      const { id } = await halfway(first, name);
      // Another process, the same sessions (as with PostgreSQL) and the same launches.
      const second = await bff(sessions, strategy);
      const demo = await second.signIn('demo');
      const done = (await waitForLaunch(demo, id, 30_000)).body;
      expect(done.status).toBe('succeeded');
      expect(done.actions.map((a: { kind: string }) => a.kind)).toEqual(['resumed']);
      expect(
        done.servers.every(
          (s: { attachments: { state: string }[] }) => s.attachments[0]?.state === 'attached',
        ),
      ).toBe(true);
      // Exactly the launch's three servers: none created twice.
      const made = await cloudServers(demo, name);
      expect(made.map((s) => s.id).sort()).toEqual(
        done.servers.map((s: { serverId: string }) => s.serverId).sort(),
      );
    });

    it('is picked up by exactly one of several BFF processes', async () => {
      const sessions = new MemorySessionStore();
      const first = await bff(sessions);
      const { id } = await halfway(first, `${prefix}-once`);
      const others = await Promise.all([bff(sessions), bff(sessions), bff(sessions)]);
      const demo = await others[0]!.signIn('demo');
      const done = (await waitForLaunch(demo, id, 30_000)).body;
      expect(done.status).toBe('succeeded');
      expect(done.actions.filter((a: { kind: string }) => a.kind === 'resumed')).toHaveLength(1);
      expect(await cloudServers(demo, `${prefix}-once`)).toHaveLength(3);
    });

    it('is marked interrupted when its session is gone, and "retry the failed ones" finishes it', async () => {
      const first = await bff(new MemorySessionStore());
      const { id } = await halfway(first, `${prefix}-lost`);
      // A restart with sessions in memory: the session that started it went with the process.
      const second = await bff(new MemorySessionStore());
      const demo = await second.signIn('demo');
      const marked = (await waitForLaunch(demo, id, 30_000)).body;
      expect(marked.status).toBe('interrupted');
      expect(marked.summary).toMatch(/^Interrupted: the dashboard stopped while this launch ran/);
      expect(marked.actions.map((a: { kind: string }) => a.kind)).toEqual(['interrupted']);
      expect(
        marked.servers.every((s: { state: string }) => s.state === 'active' || s.state === 'failed'),
      ).toBe(true);
      // The launch page after the restart: still there, listed with its outcome.
      const list = (await demo.get('/api/launches')).body.launches as { id: string; status: string }[];
      expect(list.find((l) => l.id === id)?.status).toBe('interrupted');

      const retry = await demo.post(`/api/launches/${id}/retry-failed`);
      expect(retry.status).toBe(202);
      const done = (await waitForLaunch(demo, id, 30_000)).body;
      expect(done.status).toBe('succeeded');
      const made = await cloudServers(demo, `${prefix}-lost`);
      // Servers that had become ACTIVE meanwhile count as they are; the rest were made again.
      expect(made.map((s) => s.id).sort()).toEqual(
        done.servers.map((s: { serverId: string }) => s.serverId).sort(),
      );
    });
  },
);
