import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_HOSTS } from '../../apps/cloud/src/compute/hosts.js';
import { migrations } from '../../apps/cloud/src/platform/db/migrations/index.js';
import { openStore, type Store } from '../../apps/cloud/src/platform/db/store.js';
import { createLogger } from '../../apps/cloud/src/platform/logger.js';
import {
  type ApiResponse,
  CINDER,
  CloudApi,
  checkConsistency,
  createVolume,
  imageId,
  inPool,
  loginAdmin,
  multiCreate,
  NOVA,
  NOVA_ATTACHMENT_IDS,
  type OutputWatch,
  retryCount,
  serversOf,
  sleep,
  waitActive,
  waitFor,
  watchOutput,
} from './helpers/cloud-load.js';
import {
  type AppProcess,
  pgUrl,
  type ScratchDatabase,
  scratchDatabase,
  spawnCloud,
} from './helpers/processes.js';

/**
 * Two cloud processes on one PostgreSQL database, as two replicas behind a load balancer: requests
 * alternate between them, and every race below is one that only the shared database (row locks,
 * retried serialisation failures and deadlocks) can settle. Both processes start together on an
 * empty database, so migrations and the seed race too. The steps share one fleet of servers and
 * run in order; the last one checks that nothing anywhere got a 5xx or logged an error.
 */

const SERVERS = 200;
const DEVICE_VOLUMES = 20;
const RACE_SERVERS = 20;
const CROSSED_SERVERS = 40;

// Cinder's begin_detaching while another detach of the volume is under way (reference 1.8).
const DETACH_BUSY =
  /^Invalid volume: Invalid input received: Invalid volume: Unable to detach volume\. Volume status must be 'in-use' and attach_status must be 'attached' to detach\./;

describe.skipIf(!pgUrl())('two cloud processes on one PostgreSQL', () => {
  let database: ScratchDatabase;
  let clouds: AppProcess[] = [];
  let watches: OutputWatch[] = [];
  let api: CloudApi;
  let image: string;
  let servers: string[] = [];
  let shared: string;

  const volumeBody = (volumeId: string) => ({ volumeAttachment: { volumeId } });
  const attachPath = (serverId: string, volumeId?: string) =>
    `/compute/v2.1/servers/${serverId}/os-volume_attachments${volumeId ? `/${volumeId}` : ''}`;

  /** Cinder's attachment records of a volume, through the given process. */
  const records = async (volumeId: string, via = 0) =>
    (
      await api.expect(200, via, 'GET', `${api.volumeBase}/attachments?volume_id=${volumeId}`, {
        version: CINDER,
      })
    ).body.attachments as { id: string; status: string; instance: string }[];

  /** Waits until the volume's records are `count`, all attached (the hosts have finished). */
  const settledAttachments = (volumeId: string, count: number) =>
    waitFor(`${count} attached records on ${volumeId}`, async () => {
      const recs = await records(volumeId, 1);
      return recs.length === count && recs.every((r) => r.status === 'attached') ? recs : undefined;
    });

  beforeAll(async () => {
    database = await scratchDatabase('multi');
    // PostgreSQL finds a deadlock after deadlock_timeout (1 s by default): the store test below
    // makes one on purpose, and a lock-order regression would make many; neither need wait 1 s.
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    await admin.query(
      `alter database "${new URL(database.url).pathname.slice(1)}" set deadlock_timeout = '100ms'`,
    );
    await admin.end();
    // Together, on the empty database: both migrate and seed at once. Debug logs show the
    // store's transaction retries.
    const env = { LOG_LEVEL: 'debug' };
    const started = await Promise.allSettled([
      spawnCloud({ databaseUrl: database.url, name: 'cloud-a', env }),
      spawnCloud({ databaseUrl: database.url, name: 'cloud-b', env }),
    ]);
    clouds = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    watches = clouds.map(watchOutput);
    api = new CloudApi(
      clouds.map((c) => c.url),
      { maxSockets: 48 },
    );
    await loginAdmin(api);
    image = await imageId(api);
  });

  afterAll(async () => {
    api?.close();
    await Promise.all(clouds.map((c) => c.stop()));
    await database?.drop();
  });

  it('both processes come up on one empty database and the seed exists once', async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const count = async (query: string) => Number((await client.query(query)).rows[0].n);
      // Each migration applied once, whichever process got there first.
      const applied = Object.keys(migrations).length;
      expect(await count('select count(distinct name) as n from kysely_migration')).toBe(applied);
      expect(await count('select count(*) as n from kysely_migration')).toBe(applied);
      // Every seeded thing exactly once, by the name it is known by.
      const seeded = async (table: string, key: string) =>
        (await client.query(`select ${key} as k, count(*)::int as n from ${table} group by ${key}`)).rows as {
          k: string;
          n: number;
        }[];
      const once = (rows: { k: string; n: number }[], names: readonly string[]) => {
        expect(rows.filter((r) => r.n !== 1)).toEqual([]);
        expect(rows.map((r) => r.k)).toEqual(expect.arrayContaining([...names]));
      };
      once(await seeded('domains', 'name'), ['Default']);
      once(await seeded('projects', 'name'), ['admin', 'demo', 'service']);
      once(await seeded('users', 'name'), ['admin', 'demo']);
      once(await seeded('roles', 'name'), ['admin', 'member', 'reader', 'service']);
      once(await seeded('role_assignments', "user_id || '/' || project_id || '/' || role_id"), []);
      once(await seeded('volume_types', 'name'), ['__DEFAULT__', 'multiattach']);
      once(await seeded('volume_type_extra_specs', "volume_type_id || '/' || key"), []);
      once(await seeded('compute_services', `"binary" || '@' || host`), [
        'nova-scheduler@controller',
        'nova-conductor@controller',
        ...SEED_HOSTS.map((h) => `nova-compute@${h.host}`),
      ]);
      once(
        await seeded('compute_nodes', 'host'),
        SEED_HOSTS.map((h) => h.host),
      );
      once(await seeded('flavors', 'name'), [
        'm1.tiny',
        'm1.small',
        'm1.medium',
        'm1.large',
        'm1.xlarge',
        'm1.nano',
        'm1.micro',
      ]);
      once(await seeded('images', 'name'), ['cirros-0.6.2-x86_64-disk']);
    } finally {
      await client.end();
    }
    // A token from one process is good on the other.
    const other = await api.call(1, 'GET', '/compute/v2.1/flavors', { version: NOVA });
    expect(other.status).toBe(200);
  });

  it(`a: ${SERVERS} concurrent attaches of one multiattach volume, split over both, all succeed`, async () => {
    // Forced hosts (admin) skip the capacity filters: 200 nano servers fit on two hosts.
    const [resA, resB] = await Promise.all([
      multiCreate(api, 0, { name: 'fleet-a', count: SERVERS / 2, image, availabilityZone: 'nova:compute-1' }),
      multiCreate(api, 1, { name: 'fleet-b', count: SERVERS / 2, image, availabilityZone: 'nova:compute-2' }),
    ]);
    servers = [
      ...(await waitActive(api, resA, SERVERS / 2, 120_000)),
      ...(await waitActive(api, resB, SERVERS / 2, 120_000)),
    ];
    expect(new Set(servers).size).toBe(SERVERS);
    shared = await createVolume(api, 0, 'shared', true);

    const answers = await Promise.all(
      servers.map((id, i) =>
        api.call(api.via(i), 'POST', attachPath(id), { body: volumeBody(shared), version: NOVA }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(servers.map(() => 200));
    for (const [i, a] of answers.entries()) {
      expect(a.body.volumeAttachment).toMatchObject({ serverId: servers[i], volumeId: shared });
      // The root disk is vda: the first volume of every server is vdb.
      expect(a.body.volumeAttachment.device).toBe('/dev/vdb');
    }

    const recs = await settledAttachments(shared, SERVERS);
    expect(new Set(recs.map((r) => r.instance))).toEqual(new Set(servers));
    for (const via of [0, 1]) {
      const v = await api.expect(200, via, 'GET', `${api.volumeBase}/volumes/${shared}`);
      expect(v.body.volume.status).toBe('in-use');
      expect(v.body.volume.attachments).toHaveLength(SERVERS);
    }
    expect(await checkConsistency(api, [shared], servers)).toEqual([]);
  });

  let deviceVolumes: string[] = [];

  it('b: many volumes attached to one server at once, through both processes, get distinct devices', async () => {
    const target = servers[0]!;
    deviceVolumes = await Promise.all(
      Array.from({ length: DEVICE_VOLUMES }, (_, i) => createVolume(api, i, `disk-${i}`, false)),
    );
    // Half below 2.101 (device chosen in the request), half from 2.101 (chosen on the host).
    const answers = await Promise.all(
      deviceVolumes.map((volumeId, i) =>
        api.call(api.via(i), 'POST', attachPath(target), {
          body: volumeBody(volumeId),
          version: i % 4 < 2 ? NOVA : 'compute 2.101',
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(deviceVolumes.map((_, i) => (i % 4 < 2 ? 200 : 202)));
    await Promise.all(deviceVolumes.map((v) => settledAttachments(v, 1)));

    for (const via of [0, 1]) {
      const list = await api.expect(200, via, 'GET', attachPath(target), { version: NOVA_ATTACHMENT_IDS });
      const devices = (list.body.volumeAttachments as { device: string }[]).map((m) => m.device);
      expect(devices).toHaveLength(DEVICE_VOLUMES + 1);
      expect(devices.every(Boolean)).toBe(true);
      expect(new Set(devices).size).toBe(devices.length);
    }
    expect(await checkConsistency(api, deviceVolumes, [target])).toEqual([]);
  });

  let plain: string;
  let plainHolder: string;

  it(`c: ${SERVERS} concurrent attaches of one plain volume: exactly one wins, the rest get Nova's 400`, async () => {
    plain = await createVolume(api, 1, 'plain', false);
    const answers = await Promise.all(
      servers.map((id, i) =>
        api.call(api.via(i + 1), 'POST', attachPath(id), { body: volumeBody(plain), version: NOVA }),
      ),
    );
    const winners = answers.flatMap((a, i) => (a.status === 200 ? [servers[i]!] : []));
    expect(winners).toHaveLength(1);
    plainHolder = winners[0]!;
    // Capture 50: the refusal names the server that holds it.
    const refusal = `Invalid volume: volume ${plain} is already attached to instances: ${plainHolder}`;
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(a.status).toBe(400);
      expect(a.body).toEqual({ badRequest: { code: 400, message: refusal } });
    }
    const recs = await settledAttachments(plain, 1);
    expect(recs[0]!.instance).toBe(plainHolder);
    expect(await checkConsistency(api, [plain], servers)).toEqual([]);
  });

  it('d: duplicate concurrent detaches of one attachment: one accepted, the rest a faithful 4xx', async () => {
    for (const [serverId, volumeId] of [
      [plainHolder, plain],
      [servers[1]!, shared],
    ] as const) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          api.call(api.via(i), 'DELETE', attachPath(serverId, volumeId), { version: NOVA }),
        ),
      );
      expect(answers.filter((a) => a.status === 202)).toHaveLength(1);
      for (const a of answers.filter((x) => x.status !== 202)) {
        // Still detaching: Cinder's begin_detaching refuses; already gone: capture 214.
        if (a.status === 400) expect(a.body.badRequest.message).toMatch(DETACH_BUSY);
        else {
          expect(a.status).toBe(404);
          expect(a.body.itemNotFound.message).toBe(
            `Instance ${serverId} is not attached to volume ${volumeId}`,
          );
        }
      }
    }
    await settledAttachments(plain, 0);
    await settledAttachments(shared, SERVERS - 1);
    expect(await checkConsistency(api, [plain], [plainHolder])).toEqual([]);
  });

  it('d: concurrent detaches of many volumes from one server, split over both, are all accepted', async () => {
    const target = servers[0]!;
    const answers = await Promise.all(
      deviceVolumes.map((volumeId, i) =>
        api.call(api.via(i), 'DELETE', attachPath(target, volumeId), { version: NOVA }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(deviceVolumes.map(() => 202));
    await Promise.all(deviceVolumes.map((v) => settledAttachments(v, 0)));
    expect(await checkConsistency(api, deviceVolumes, [target])).toEqual([]);
  });

  it(`d: concurrent detaches of all ${SERVERS - 1} remaining attachments of the multiattach volume`, async () => {
    // Cinder's begin_detaching moves the whole volume to `detaching`, so of two concurrent
    // detaches of one volume only one can pass (reference 1.8); the others get that 400 and
    // try again, as a client must. Every detach ends accepted, and nothing else is ever answered.
    const holders = servers.filter((id) => id !== servers[1]);
    const detach = (id: string, via: number) =>
      api.call(via, 'DELETE', attachPath(id, shared), { version: NOVA });
    const isBusy = (a: ApiResponse) => a.status === 400 && DETACH_BUSY.test(a.body?.badRequest?.message);

    // All at once, split over both processes.
    const first = await Promise.all(holders.map((id, i) => detach(id, api.via(i))));
    const unexpected = first.filter((a) => a.status !== 202 && !isBusy(a));
    expect(unexpected.map((a) => `${a.status} ${a.text}`)).toEqual([]);
    const accepted = first.filter((a) => a.status === 202).length;
    expect(accepted).toBeGreaterThan(0);
    const refusedAtOnce = holders.filter((_, i) => first[i]!.status !== 202);

    // The refused ones again, eight clients at a time, each until accepted.
    let refusedAgain = 0;
    await inPool(refusedAtOnce, 8, async (id, i) => {
      for (let attempt = 1; ; attempt++) {
        const a = await detach(id, api.via(i + attempt));
        if (a.status === 202) return;
        expect(isBusy(a), `${a.status} ${a.text}`).toBe(true);
        refusedAgain++;
        expect(attempt, 'a detach kept being refused').toBeLessThan(200);
        await sleep(5 + Math.random() * 20);
      }
    });
    console.info(
      `multiattach detaches: ${accepted} of ${holders.length} accepted at once, ${refusedAtOnce.length} refused then retried (${refusedAgain} more refusals)`,
    );
    await settledAttachments(shared, 0);
    for (const via of [0, 1]) {
      const v = await api.expect(200, via, 'GET', `${api.volumeBase}/volumes/${shared}`);
      expect(v.body.volume.status).toBe('available');
      expect(v.body.volume.attachments).toEqual([]);
    }
    expect(await checkConsistency(api, [shared, plain], servers)).toEqual([]);
  });

  it('e: a multi-create sharing a volume races with deletes of the same servers on the other process', async () => {
    const volume = await createVolume(api, 0, 'race', true);
    const deletes: Promise<number>[] = [];
    const deleted = new Set<string>();

    // Two multi-creates, one per process; the other process polls the list and deletes each
    // server the moment it appears, while its build is running on the creating process.
    const rounds = [0, 1].map(async (via) => {
      const other = 1 - via;
      const name = `race-${via}`;
      const create = multiCreate(api, via, {
        name,
        count: RACE_SERVERS,
        image,
        availabilityZone: via === 0 ? 'nova:compute-3' : 'nova:compute-old',
        sharedVolumeId: volume,
      });
      const listed = await waitFor(
        `${name} listed`,
        async () => {
          const res = await api.expect(200, other, 'GET', `/compute/v2.1/servers?name=^${name}-`, {
            version: NOVA,
          });
          const found = res.body.servers as { id: string }[];
          return found.length > 0 ? found : undefined;
        },
        30_000,
        2,
      );
      // One transaction inserts them all: listed at all means listed entirely.
      expect(listed).toHaveLength(RACE_SERVERS);
      for (const s of listed) {
        deleted.add(s.id);
        deletes.push(
          api.call(other, 'DELETE', `/compute/v2.1/servers/${s.id}`, { version: NOVA }).then((r) => r.status),
        );
      }
      return create;
    });
    const reservations = await Promise.all(rounds);
    expect(await Promise.all(deletes)).toEqual([...deleted].map(() => 204));
    expect(deleted.size).toBe(2 * RACE_SERVERS);

    // Every server goes (none stuck building or deleting), the volume is let go entirely.
    for (const reservation of reservations) {
      await waitFor(`servers of ${reservation} gone`, async () =>
        (await serversOf(api, 1, reservation)).length === 0 ? true : undefined,
      );
    }
    await settledAttachments(volume, 0);
    for (const via of [0, 1]) {
      const v = await api.expect(200, via, 'GET', `${api.volumeBase}/volumes/${volume}`);
      expect(v.body.volume.status).toBe('available');
      expect(v.body.volume.attachments).toEqual([]);
    }
    for (const id of deleted) {
      const gone = await api.call(0, 'GET', attachPath(id), { version: NOVA });
      expect(gone.status).toBe(404);
    }
    expect(await checkConsistency(api, [volume], [])).toEqual([]);
  });

  it('f: servers holding two shared volumes in opposite orders, deleted at once on both, never deadlock', async () => {
    // Even servers hold V1 then V2, odd ones V2 then V1. A server's delete releases its volumes
    // in attach order; it must lock them in one order first, or concurrent deletes on the two
    // processes deadlock in PostgreSQL, and under this much contention retries alone do not
    // get every delete through (some servers were left in ERROR before the fix).
    const crossed = servers.slice(0, CROSSED_SERVERS);
    const [v1, v2] = await Promise.all([
      createVolume(api, 0, 'cross-1', true),
      createVolume(api, 1, 'cross-2', true),
    ]);
    for (const round of [0, 1]) {
      const answers = await Promise.all(
        crossed.map((id, i) =>
          api.call(api.via(i), 'POST', attachPath(id), {
            body: volumeBody((i + round) % 2 === 0 ? v1! : v2!),
            version: NOVA,
          }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(crossed.map(() => 200));
      await Promise.all([
        settledAttachments(v1!, CROSSED_SERVERS / 2 + round * (CROSSED_SERVERS / 2)),
        settledAttachments(v2!, CROSSED_SERVERS / 2 + round * (CROSSED_SERVERS / 2)),
      ]);
    }
    const before = retryCount(watches);
    const deletes = await Promise.all(
      crossed.map((id, i) =>
        api.call(api.via(i), 'DELETE', `/compute/v2.1/servers/${id}`, { version: NOVA }),
      ),
    );
    expect(deletes.map((d) => d.status)).toEqual(crossed.map(() => 204));
    await waitFor('crossed servers gone', async () => {
      const gone = await Promise.all(
        crossed.map(
          async (id, i) => (await api.call(api.via(i), 'GET', `/compute/v2.1/servers/${id}`)).status,
        ),
      );
      return gone.every((status) => status === 404) ? true : undefined;
    });
    await Promise.all([settledAttachments(v1!, 0), settledAttachments(v2!, 0)]);
    servers = servers.slice(CROSSED_SERVERS);
    expect(await checkConsistency(api, [v1!, v2!], servers)).toEqual([]);
    expect(retryCount(watches) - before, 'deadlocks among the deletes').toBe(0);
  });

  it('f: a deadlock and a serialisation failure between two connection pools are retried, not surfaced', async () => {
    // The store's own retry, as two processes would meet it: two pools on the database, each
    // transaction waiting for the other at a barrier so the conflict is certain on the first try.
    const stores = await Promise.all([0, 1].map(() => openStore(database.url, createLogger('silent'))));
    try {
      const [a, b] = stores as [Store, Store];
      await sql`create table retry_probe (id int primary key, n int not null)`.execute(a.db);
      await sql`insert into retry_probe values (1, 0), (2, 0)`.execute(a.db);

      const barrier = () => {
        let arrived = 0;
        let open!: () => void;
        const opened = new Promise<void>((r) => {
          open = r;
        });
        return () => {
          if (++arrived === 2) open();
          return opened;
        };
      };

      // Deadlock (40P01): each locks its row, then the other's.
      const bothLocked = barrier();
      const attempts = [0, 0];
      const crosswise = (store: Store, i: number, first: number, second: number) =>
        store.transaction(async (tx) => {
          attempts[i]!++;
          await sql`update retry_probe set n = n + 1 where id = ${first}`.execute(tx);
          await bothLocked();
          await sql`update retry_probe set n = n + 1 where id = ${second}`.execute(tx);
        });
      await Promise.all([crosswise(a, 0, 1, 2), crosswise(b, 1, 2, 1)]);
      expect(attempts[0]! + attempts[1]!).toBeGreaterThanOrEqual(3);
      const rows = await sql<{ n: number }>`select n from retry_probe order by id`.execute(a.db);
      expect(rows.rows.map((r) => r.n)).toEqual([2, 2]);

      // Serialisation failure (40001): write skew under SERIALIZABLE, each reads what the other writes.
      const bothRead = barrier();
      const tries = [0, 0];
      const skew = (store: Store, i: number, read: number, write: number) =>
        store.transaction(async (tx) => {
          tries[i]!++;
          await sql`set transaction isolation level serializable`.execute(tx);
          const seen = await sql<{ n: number }>`select n from retry_probe where id = ${read}`.execute(tx);
          await bothRead();
          await sql`update retry_probe set n = ${seen.rows[0]!.n + 10} where id = ${write}`.execute(tx);
        });
      await Promise.all([skew(a, 0, 1, 2), skew(b, 1, 2, 1)]);
      expect(tries[0]! + tries[1]!).toBeGreaterThanOrEqual(3);
    } finally {
      await sql`drop table if exists retry_probe`.execute(stores[0]!.db);
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it('no request got a 5xx and neither process logged an error or exited', async () => {
    expect(api.faults).toEqual([]);
    for (const [i, w] of watches.entries()) expect(w.errors, clouds[i]!.name).toEqual([]);
    for (const c of clouds) expect(c.child.exitCode, c.name).toBeNull();
    console.info(
      `transaction retries: ${watches.map((w, i) => `${clouds[i]!.name} ${JSON.stringify(Object.fromEntries(w.retries))}`).join(', ')}`,
    );
  });
});
