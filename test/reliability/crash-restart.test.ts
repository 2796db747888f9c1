import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@libsql/client';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMPUTE_VERSION,
  type CloudView,
  VOLUME_VERSION,
  waitUntilConsistent,
} from './helpers/consistency.js';
import {
  type AppProcess,
  pgUrl,
  type ScratchDatabase,
  scratchDatabase,
  spawnCloud,
} from './helpers/processes.js';

/**
 * kill -9 of a real cloud process in the middle of a multi-create, of concurrent attaches and of
 * detaches; a new process on the same database must leave every server ACTIVE or ERROR, every
 * attachment attached or gone, every volume consistent with its attachments, and keep everything
 * a client was told had succeeded. On SQLite (a file) and on PostgreSQL. Then several processes on
 * one PostgreSQL database: one that starts next to a live one leaves its work alone, and the
 * survivor takes over the work of one that is killed.
 */

/** Per emulated backend step: long enough to kill between steps, short enough to keep this quick. */
const DELAY_MS = 250;

// --- A small OpenStack client ---------------------------------------------------------------------

// biome-ignore lint/suspicious/noExplicitAny: API bodies are read loosely here
type Json = any;

interface Reply {
  status: number;
  body: Json;
}

class CloudClient {
  constructor(
    readonly url: string,
    readonly token: string,
    readonly projectId: string,
  ) {}

  static async login(url: string, user: 'demo' | 'admin'): Promise<CloudClient> {
    const res = await fetch(`${url}/identity/v3/auth/tokens`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        auth: {
          identity: {
            methods: ['password'],
            password: { user: { name: user, domain: { name: 'Default' }, password: user } },
          },
          scope: { project: { name: user, domain: { name: 'Default' } } },
        },
      }),
    });
    if (res.status !== 201) throw new Error(`login ${user}: ${res.status}`);
    const body = (await res.json()) as Json;
    return new CloudClient(url, res.headers.get('x-subject-token') ?? '', body.token.project.id);
  }

  /** The same user (the token lives in the database) against another process. */
  on(url: string): CloudClient {
    return new CloudClient(url, this.token, this.projectId);
  }

  async call(method: string, path: string, version: string, body?: unknown): Promise<Reply> {
    const res = await fetch(this.url + path, {
      method,
      headers: {
        Accept: 'application/json',
        'X-Auth-Token': this.token,
        'OpenStack-API-Version': version,
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  nova(method: string, path: string, body?: unknown): Promise<Reply> {
    return this.call(method, `/compute/v2.1${path}`, `compute ${COMPUTE_VERSION}`, body);
  }

  cinder(method: string, path: string, body?: unknown): Promise<Reply> {
    return this.call(method, `/volume/v3/${this.projectId}${path}`, `volume ${VOLUME_VERSION}`, body);
  }

  async imageId(): Promise<string> {
    const res = await this.call('GET', '/image/v2/images', 'image 2.0');
    return res.body.images[0].id as string;
  }

  /** Creates volumes and waits until the backend made them available. */
  async createVolumes(names: string[], multiattach: boolean): Promise<string[]> {
    const ids = await Promise.all(
      names.map(async (name) => {
        const res = await this.cinder('POST', '/volumes', {
          volume: { name, size: 1, ...(multiattach ? { volume_type: 'multiattach' } : {}) },
        });
        if (res.status !== 202) throw new Error(`create volume: ${res.status} ${JSON.stringify(res.body)}`);
        return res.body.volume.id as string;
      }),
    );
    for (const id of ids) {
      await until(`volume ${id} available`, 30_000, async () => {
        const v = await this.cinder('GET', `/volumes/${id}`);
        return v.body.volume.status === 'available' ? true : null;
      });
    }
    return ids;
  }

  /** POST /servers for `count` image-booted servers, with `volumeId` shared by all of them. */
  async multiCreate(
    name: string,
    count: number,
    imageId: string,
    opts: { volumeId?: string; availabilityZone?: string } = {},
  ): Promise<string> {
    const res = await this.nova('POST', '/servers', {
      server: {
        name,
        flavorRef: '1',
        imageRef: imageId,
        networks: 'none',
        min_count: count,
        max_count: count,
        return_reservation_id: true,
        ...(opts.availabilityZone ? { availability_zone: opts.availabilityZone } : {}),
        ...(opts.volumeId
          ? {
              block_device_mapping_v2: [
                { source_type: 'image', destination_type: 'local', uuid: imageId, boot_index: 0 },
                {
                  source_type: 'volume',
                  destination_type: 'volume',
                  uuid: opts.volumeId,
                  boot_index: -1,
                  attach_mode: 'rw',
                },
              ],
            }
          : {}),
      },
    });
    if (res.status !== 202) throw new Error(`multi-create: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.reservation_id as string;
  }

  async serversOf(reservationId: string): Promise<Json[]> {
    return (await this.nova('GET', `/servers/detail?reservation_id=${reservationId}`)).body.servers;
  }

  async attachmentsOf(volumeId: string): Promise<Json[]> {
    return (await this.cinder('GET', `/attachments?volume_id=${volumeId}`)).body.attachments;
  }
}

/** Polls `probe` until it returns something other than null; fails after `timeoutMs`. */
async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | null>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const seen = await probe();
    if (seen !== null) return seen;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

// --- What the dead process left in its database ---------------------------------------------------

interface KillPoint {
  /** `vm_state/task_state` → servers. */
  servers: Record<string, number>;
  /** attach_status → Cinder attachments. */
  attachments: Record<string, number>;
  /** Mappings whose detach was accepted and not finished. */
  acceptedDetaches: number;
}

async function query(databaseUrl: string, sql: string): Promise<Record<string, unknown>[]> {
  if (databaseUrl.startsWith('postgres')) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return (await client.query(sql)).rows;
    } finally {
      await client.end();
    }
  }
  const client = createClient({ url: databaseUrl });
  try {
    return (await client.execute(sql)).rows as unknown as Record<string, unknown>[];
  } finally {
    client.close();
  }
}

/** Read straight from the database after the kill, before any process touches it again. */
async function killPoint(databaseUrl: string): Promise<KillPoint> {
  const servers = await query(
    databaseUrl,
    `select vm_state, task_state, count(*) as n from servers where deleted = 0 group by vm_state, task_state`,
  );
  const attachments = await query(
    databaseUrl,
    'select attach_status, count(*) as n from volume_attachments group by attach_status',
  );
  const detaches = await query(
    databaseUrl,
    'select count(*) as n from block_device_mappings where detach_requested_at is not null',
  );
  return {
    servers: Object.fromEntries(servers.map((r) => [`${r.vm_state}/${r.task_state ?? '-'}`, Number(r.n)])),
    attachments: Object.fromEntries(attachments.map((r) => [String(r.attach_status), Number(r.n)])),
    acceptedDetaches: Number(detaches[0]?.n ?? 0),
  };
}

const building = (k: KillPoint) =>
  Object.entries(k.servers)
    .filter(([state]) => state.startsWith('building/'))
    .reduce((n, [, count]) => n + count, 0);

const mapped = (view: CloudView, serverId: string, volumeId: string) =>
  view.mappings.some((m) => m.serverId === serverId && m.volumeId === volumeId);

type Outcome = 'pending' | 'accepted' | 'refused' | 'lost';

/** Fires every request at once and tracks how each ended (lost: the process died first). */
function fire(requests: (() => Promise<Reply>)[], okStatus: number) {
  const outcomes: Outcome[] = requests.map(() => 'pending');
  let firstAcceptedAt = Number.POSITIVE_INFINITY;
  const all = Promise.all(
    requests.map(async (send, i) => {
      try {
        const res = await send();
        outcomes[i] = res.status === okStatus ? 'accepted' : 'refused';
        if (res.status === okStatus) firstAcceptedAt = Math.min(firstAcceptedAt, Date.now());
      } catch {
        outcomes[i] = 'lost';
      }
    }),
  );
  const count = (o: Outcome) => outcomes.filter((x) => x === o).length;
  const answered = () => count('accepted') + count('refused');
  /**
   * All answered, or half of them and the first accepted one `sinceFirstMs` ago: a kill then lands
   * with work accepted and unfinished, maybe some finished, maybe some unanswered.
   */
  const midway = (sinceFirstMs: number) =>
    answered() === requests.length ||
    (answered() >= requests.length / 2 && Date.now() - firstAcceptedAt >= sinceFirstMs);
  return { outcomes, all, midway, count };
}

// --- kill -9 and restart, on each engine ----------------------------------------------------------

function crashSuite(engine: 'sqlite' | 'postgres') {
  describe.skipIf(engine === 'postgres' && !pgUrl())(`kill -9 and restart (${engine})`, () => {
    let databaseUrl = '';
    let cleanup: () => Promise<void> = async () => undefined;
    let cloud: AppProcess | null = null;
    let demo: CloudClient;
    let imageId = '';
    /** The shared volume the attach test attaches to 30 servers, and those servers. */
    let attachShared = '';
    let attachServers: string[] = [];

    const start = async () => {
      cloud = await spawnCloud({ databaseUrl, backendDelayMs: DELAY_MS, name: `cloud-${engine}` });
      return cloud;
    };
    const kill = async () => {
      await cloud?.kill();
      cloud = null;
    };
    const restart = async (): Promise<CloudView> => {
      const c = await start();
      demo = demo.on(c.url);
      return waitUntilConsistent(c.url, { timeoutMs: 30_000 });
    };

    beforeAll(async () => {
      if (engine === 'postgres') {
        const db: ScratchDatabase = await scratchDatabase('crash');
        databaseUrl = db.url;
        cleanup = () => db.drop();
      } else {
        const dir = mkdtempSync(join(tmpdir(), 'crash-'));
        databaseUrl = `file:${join(dir, 'cloud.db')}`;
        cleanup = async () => rmSync(dir, { recursive: true, force: true });
      }
      const c = await start();
      demo = await CloudClient.login(c.url, 'demo');
      imageId = await demo.imageId();
    });
    afterAll(async () => {
      await kill();
      await cleanup();
    });

    it('a multi-create of 20 servers on one shared volume, killed mid-build, ends ACTIVE or ERROR', async () => {
      const [shared] = await demo.createVolumes(['shared-a'], true);
      const reservation = await demo.multiCreate('mc', 20, imageId, { volumeId: shared! });
      // Kill once half of the servers have a host: the rest are still being scheduled, and the
      // hosts connect the shared volume a step later, so its attachments are still reserved.
      const named = await until('half of the servers scheduled', 30_000, async () => {
        const servers = await demo.serversOf(reservation);
        const scheduled = servers.filter((s: Json) => s['OS-EXT-STS:task_state'] !== 'scheduling');
        return scheduled.length >= servers.length / 2 ? (servers.map((s: Json) => s.id) as string[]) : null;
      });
      await kill();
      const at = await killPoint(databaseUrl);
      expect(named).toHaveLength(20);
      expect(building(at), JSON.stringify(at)).toBeGreaterThan(0);
      expect(at.attachments['reserved'] ?? 0, JSON.stringify(at)).toBeGreaterThan(0);

      const view = await restart();
      const servers = view.servers.filter((s) => named.includes(s.id));
      expect(servers).toHaveLength(20);
      for (const s of servers) {
        expect(['ACTIVE', 'ERROR']).toContain(s.status);
        // A built server holds the shared volume; one that failed let it go.
        expect(mapped(view, s.id, shared!)).toBe(s.status === 'ACTIVE');
      }
      const volume = view.volumes.find((v) => v.id === shared);
      const active = servers.filter((s) => s.status === 'ACTIVE').length;
      expect(volume?.attachments).toHaveLength(active);
      console.info(
        `[${engine}] multi-create killed at ${JSON.stringify(at)}; after restart ${active}/20 ACTIVE`,
      );
    });

    it('attaches killed mid-way: every attach answered 202 ends attached, the rest attached or gone', async () => {
      const reservation = await demo.multiCreate('att', 30, imageId);
      const servers = await until('30 ACTIVE servers', 30_000, async () => {
        const list = await demo.serversOf(reservation);
        return list.length === 30 && list.every((s: Json) => s.status === 'ACTIVE')
          ? (list.map((s: Json) => s.id) as string[])
          : null;
      });
      const [shared] = await demo.createVolumes(['shared-b'], true);
      attachShared = shared!;
      attachServers = servers;
      const plain = await demo.createVolumes(
        Array.from({ length: 10 }, (_, i) => `plain-${i}`),
        false,
      );
      const wanted = servers.flatMap((serverId, i) => [
        { serverId, volumeId: shared!, mode: i % 2 ? 'ro' : 'rw' },
        ...(plain[i] ? [{ serverId, volumeId: plain[i]!, mode: 'rw' }] : []),
      ]);
      const run = fire(
        wanted.map(
          (w) => () =>
            demo.nova('POST', `/servers/${w.serverId}/os-volume_attachments`, {
              volumeAttachment: { volumeId: w.volumeId, attach_mode: w.mode },
            }),
        ),
        202,
      );
      // Late enough for the host to have connected the first ones.
      await until('the attaches half answered', 30_000, async () =>
        run.midway(DELAY_MS + 100) ? true : null,
      );
      await kill();
      await run.all;
      const at = await killPoint(databaseUrl);
      expect(run.count('accepted')).toBeGreaterThan(0);
      // Some attaches the client was told were accepted had not been connected yet.
      expect(at.attachments['reserved'] ?? 0, JSON.stringify(at)).toBeGreaterThan(0);

      const view = await restart();
      wanted.forEach((w, i) => {
        const outcome = run.outcomes[i];
        if (outcome === 'accepted')
          expect(mapped(view, w.serverId, w.volumeId), `${outcome} ${i}`).toBe(true);
        if (outcome === 'refused')
          expect(mapped(view, w.serverId, w.volumeId), `${outcome} ${i}`).toBe(false);
      });
      const modes = view.mappings.filter((m) => m.volumeId === shared);
      for (const m of modes) {
        expect(m.attachMode).toBe(
          wanted.find((w) => w.serverId === m.serverId && w.volumeId === shared)?.mode,
        );
      }
      console.info(
        `[${engine}] ${wanted.length} attaches killed with ${run.count('accepted')} accepted, ${run.count('refused')} refused, ${run.count('lost')} lost; at kill ${JSON.stringify(at.attachments)}`,
      );
    });

    it('detaches killed mid-way: every detach answered 202 ends detached', async () => {
      const plain = await demo.createVolumes(
        Array.from({ length: 8 }, (_, i) => `detach-${i}`),
        false,
      );
      const plainIds = new Set(plain);
      const attached = await Promise.all(
        plain.map((volumeId, i) =>
          demo.nova('POST', `/servers/${attachServers[i]}/os-volume_attachments`, {
            volumeAttachment: { volumeId },
          }),
        ),
      );
      expect(attached.map((r) => r.status)).toEqual(Array(8).fill(202));
      const before = await waitUntilConsistent(demo.url, { timeoutMs: 10_000 });
      const plainMappings = before.mappings.filter((m) => plainIds.has(m.volumeId));
      expect(plainMappings).toHaveLength(8);
      // Cinder lets one detach of a volume begin at a time: of these, the first is accepted.
      const sharedMappings = before.mappings.filter((m) => m.volumeId === attachShared).slice(0, 5);
      const wanted = [...plainMappings, ...sharedMappings];
      const run = fire(
        wanted.map(
          (m) => () => demo.nova('DELETE', `/servers/${m.serverId}/os-volume_attachments/${m.volumeId}`),
        ),
        202,
      );
      await until('the detaches half answered', 30_000, async () => (run.midway(0) ? true : null));
      await kill();
      await run.all;
      const at = await killPoint(databaseUrl);
      // Accepted detaches the host had not finished yet.
      expect(at.acceptedDetaches, JSON.stringify(at)).toBeGreaterThan(0);

      const view = await restart();
      wanted.forEach((m, i) => {
        const outcome = run.outcomes[i];
        if (outcome === 'accepted')
          expect(mapped(view, m.serverId, m.volumeId), `${outcome} ${i}`).toBe(false);
        if (outcome === 'refused') expect(mapped(view, m.serverId, m.volumeId), `${outcome} ${i}`).toBe(true);
      });
      for (const [i, m] of wanted.entries()) {
        if (run.outcomes[i] !== 'accepted' || !plainIds.has(m.volumeId)) continue;
        expect(view.volumes.find((v) => v.id === m.volumeId)?.status).toBe('available');
      }
      console.info(
        `[${engine}] ${wanted.length} detaches killed with ${run.count('accepted')} accepted (${at.acceptedDetaches} unfinished at kill), ${run.count('refused')} refused, ${run.count('lost')} lost`,
      );
    });
  });
}

crashSuite('sqlite');
crashSuite('postgres');

// --- Several processes on one PostgreSQL database -------------------------------------------------

describe.skipIf(!pgUrl())('several cloud processes on one PostgreSQL database', () => {
  let db: ScratchDatabase;
  const processes: AppProcess[] = [];

  beforeAll(async () => {
    db = await scratchDatabase('multi');
  });
  afterAll(async () => {
    for (const p of processes) await p.kill();
    await db?.drop();
  });

  it('a process started next to a busy one leaves its builds alone; the survivor takes over a killed one', async () => {
    const env = { CLOUD_TAKEOVER_INTERVAL_MS: '500' };
    // A builds slowly (6 s a step, so a loaded CI machine still starts B mid-build); B, started
    // mid-build, would resume A's builds at once (no delay) if its start reconcile took them over.
    const a = await spawnCloud({ databaseUrl: db.url, backendDelayMs: 6000, env, name: 'cloud-A' });
    processes.push(a);
    const adminA = await CloudClient.login(a.url, 'admin');
    const image = await adminA.imageId();
    const [sharedA] = await adminA.createVolumes(['shared-A'], true);
    // Forced onto compute-old, which the scheduler never picks by itself (least free RAM): a build
    // resumed by another process would lose the forced host and land elsewhere.
    const reservationA = await adminA.multiCreate('a', 20, image, {
      volumeId: sharedA!,
      availabilityZone: 'nova:compute-old',
    });
    // B logs its decisions (info) so the test can see it skipped the start reconcile.
    const b = await spawnCloud({
      databaseUrl: db.url,
      backendDelayMs: 0,
      env: { ...env, LOG_LEVEL: 'info' },
      name: 'cloud-B',
    });
    processes.push(b);
    const adminB = adminA.on(b.url);
    await new Promise((r) => setTimeout(r, 300));
    const whenBStarted = await adminB.serversOf(reservationA);
    expect(whenBStarted.map((s: Json) => s.status)).toEqual(Array(20).fill('BUILD'));

    const builtA = await until("A's 20 servers built", 120_000, async () => {
      const list = await adminA.serversOf(reservationA);
      return list.every((s: Json) => s.status !== 'BUILD') ? list : null;
    });
    expect(builtA.map((s: Json) => s.status)).toEqual(Array(20).fill('ACTIVE'));
    expect(builtA.map((s: Json) => s['OS-EXT-SRV-ATTR:host'])).toEqual(Array(20).fill('compute-old'));
    expect(await adminA.attachmentsOf(sharedA!)).toHaveLength(20);
    expect(b.output()).toContain('reconcile skipped');
    expect(b.output()).not.toContain('reconcile: resuming server');
    await waitUntilConsistent(a.url, { timeoutMs: 10_000 });

    // A builds again and is killed mid-build: B, alone now, takes the builds over.
    const [sharedB] = await adminB.createVolumes(['shared-B'], true);
    const reservationB = await adminA.multiCreate('b', 10, image, { volumeId: sharedB! });
    await until("A's first build step", 20_000, async () => {
      const list = await adminA.serversOf(reservationB);
      return list.some((s: Json) => s['OS-EXT-STS:task_state'] !== 'scheduling') ? true : null;
    });
    await a.kill();
    const at = await killPoint(db.url);
    expect(building(at), JSON.stringify(at)).toBeGreaterThan(0);

    // Only B is left to finish them.
    const view = await waitUntilConsistent(b.url, { timeoutMs: 30_000 });
    const builtB = (await adminB.serversOf(reservationB)).map((s: Json) => s.status);
    expect(builtB).toEqual(Array(10).fill('ACTIVE'));
    expect(view.volumes.find((v) => v.id === sharedB)?.attachments).toHaveLength(10);
    console.info(`[postgres] A killed at ${JSON.stringify(at)}; B took its 10 builds over`);
  });
});
