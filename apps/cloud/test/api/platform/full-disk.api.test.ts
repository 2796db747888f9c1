import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_IMAGE_ID } from '../../../src/image/seed.js';
import { http, login, type Session, startCloud, type TestCloud, usePostgres } from '../../helpers/cloud.js';

/**
 * Issue 11, finding 8: a background step that failed once on a full disk was logged and dropped,
 * so a volume (or a server) already answered 202 stayed `creating` (`BUILD`) until a restart. Now
 * the step is retried with backoff, and once space is freed the volume becomes available and the
 * server ACTIVE, in the same process. Meanwhile a request that needs space answers 503 in the
 * service's fault format.
 *
 * The disk is "full" the way SQLite sees one: `max_page_count` pins the file at its size plus a
 * little room (the create requests themselves still fit), and a temporary trigger makes every
 * write to a volume or server row need far more pages than are left, as every write does on a
 * disk that is really full. SQLite itself raises SQLITE_FULL for those statements.
 */

const ROOM_PAGES = 16;
/** 1 MiB a write: far more than ROOM_PAGES pages. */
const BALLAST_BYTES = 1 << 20;

async function run(tc: TestCloud, statement: string): Promise<Record<string, unknown>[]> {
  return (await sql.raw(statement).execute(tc.cloud.deps.store.db)).rows as Record<string, unknown>[];
}

async function fillDisk(tc: TestCloud): Promise<void> {
  await run(tc, 'create table if not exists disk_ballast (b blob)');
  for (const table of ['volumes', 'servers']) {
    await run(
      tc,
      `create temp trigger fill_${table} after update on main.${table}
       begin insert into disk_ballast values (zeroblob(${BALLAST_BYTES})); end`,
    );
  }
  const [{ page_count: pages }] = (await run(tc, 'pragma page_count')) as [{ page_count: number }];
  await run(tc, `pragma max_page_count = ${pages + ROOM_PAGES}`);
}

async function freeDisk(tc: TestCloud): Promise<void> {
  await run(tc, 'pragma max_page_count = 1073741823');
  for (const table of ['volumes', 'servers']) await run(tc, `drop trigger temp.fill_${table}`);
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const seen = await probe();
    if (seen !== undefined) return seen;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(usePostgres())('a full disk on SQLite', () => {
  let dir: string;
  let tc: TestCloud;
  let demo: Session;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cloud-full-disk-'));
    tc = await startCloud({ databaseUrl: `file:${join(dir, 'cloud.db')}` });
    demo = await login(tc, 'demo');
  });
  afterAll(async () => {
    await tc?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('work answered 202 while the disk is full finishes once space is freed, without a restart', async () => {
    const before = await http(tc, 'POST', `${demo.volumeBase}/volumes`, {
      token: demo.token,
      body: { volume: { size: 1, name: 'made-before' } },
    });
    expect(before.status).toBe(202);
    await tc.settle();

    await fillDisk(tc);
    const volume = await http(tc, 'POST', `${demo.volumeBase}/volumes`, {
      token: demo.token,
      body: { volume: { size: 1, name: 'full-disk' } },
    });
    expect(volume.status).toBe(202);
    const server = await http(tc, 'POST', '/compute/v2.1/servers', {
      token: demo.token,
      version: 'compute 2.60',
      body: { server: { name: 'full-disk', flavorRef: '1', imageRef: SEED_IMAGE_ID, networks: 'none' } },
    });
    expect(server.status).toBe(202);
    const volumeId = volume.body.volume.id as string;
    const serverId = server.body.server.id as string;

    // The backend steps keep failing on the full disk: nothing moves, nothing goes to error.
    await new Promise((r) => setTimeout(r, 500));
    const stuck = await http(tc, 'GET', `${demo.volumeBase}/volumes/${volumeId}`, { token: demo.token });
    expect(stuck.body.volume.status).toBe('creating');
    const building = await http(tc, 'GET', `/compute/v2.1/servers/${serverId}`, { token: demo.token });
    expect(building.body.server.status).toBe('BUILD');

    // A request that needs space is told to come back later, in Cinder's fault format.
    const rename = await http(tc, 'PUT', `${demo.volumeBase}/volumes/${before.body.volume.id}`, {
      token: demo.token,
      body: { volume: { name: 'renamed' } },
    });
    expect(rename.status).toBe(503);
    expect(rename.headers.get('retry-after')).toBe('5');
    expect(rename.body).toEqual({
      serviceUnavailable: {
        code: 503,
        message: 'The service is temporarily unavailable: its database is out of space. Try again later.',
      },
    });

    await freeDisk(tc);
    await waitFor('the volume to become available', async () => {
      const v = await http(tc, 'GET', `${demo.volumeBase}/volumes/${volumeId}`, { token: demo.token });
      return v.body.volume.status === 'creating' ? undefined : v.body.volume.status;
    }).then((status) => expect(status).toBe('available'));
    await waitFor('the server to leave BUILD', async () => {
      const s = await http(tc, 'GET', `/compute/v2.1/servers/${serverId}`, { token: demo.token });
      return s.body.server.status === 'BUILD' ? undefined : s.body.server.status;
    }).then((status) => expect(status).toBe('ACTIVE'));
    await tc.settle();
  });
});
