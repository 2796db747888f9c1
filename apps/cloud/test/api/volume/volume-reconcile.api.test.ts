import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { describe, expect } from 'vitest';
import type { VolumesTable } from '../../../src/platform/db/schema.js';
import { BACKEND } from '../../../src/volume/service/backend.js';
import { startCloud, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';

let tc: TestCloud;
const it = cloudTest();
it.beforeAll(async ({ tc: cloud }) => {
  tc = cloud;
});

/** A volume row as a killed process would have left it. */
async function leftBehind(
  status: string,
  extra: Partial<VolumesTable> = {},
  typeName = '__DEFAULT__',
): Promise<string> {
  const db = tc.cloud.deps.store.db;
  const type = await db
    .selectFrom('volume_types')
    .select('id')
    .where('name', '=', typeName)
    .executeTakeFirstOrThrow();
  const id = randomUUID();
  const now = new Date().toISOString();
  await db
    .insertInto('volumes')
    .values({
      id,
      project_id: 'p1',
      user_id: 'u1',
      name: status,
      description: null,
      size: 1,
      status,
      attach_status: 'detached',
      volume_type_id: type.id,
      availability_zone: 'nova',
      bootable: 0,
      multiattach: 0,
      host: status === 'creating' ? null : BACKEND.host,
      metadata: '{}',
      readonly_flag: null,
      migration_status: null,
      snapshot_id: null,
      source_volid: null,
      encrypted: 0,
      created_at: now,
      updated_at: now,
      launched_at: null,
      ...extra,
    })
    .execute();
  return id;
}

const row = (id: string) =>
  tc.cloud.deps.store.db.selectFrom('volumes').selectAll().where('id', '=', id).executeTakeFirst();

describe('volume.reconcile', () => {
  it('finishes creates and deletes, and rolls back extends and retypes', async () => {
    const creating = await leftBehind('creating');
    const deleting = await leftBehind('deleting');
    const stuckDelete = await leftBehind('deleting');
    await tc.cloud.deps.store.db
      .insertInto('volume_attachments')
      .values({
        id: randomUUID(),
        volume_id: stuckDelete,
        instance_uuid: randomUUID(),
        attached_host: null,
        mountpoint: null,
        attach_status: 'reserved',
        attach_mode: 'null',
        connector: null,
        connection_info: null,
        attached_at: null,
        detached_at: null,
        created_at: new Date().toISOString(),
        updated_at: null,
      })
      .execute();
    const extending = await leftBehind('extending', { size: 4 });
    // A retype to multiattach flips the flag up front; the rollback restores it from the type.
    const retyping = await leftBehind('retyping', { multiattach: 1 });
    const untouched = await leftBehind('available');

    await tc.cloud.volume.reconcile();

    expect(await row(creating)).toMatchObject({ status: 'available', host: BACKEND.host });
    expect((await row(creating))?.launched_at).not.toBeNull();
    expect(await row(deleting)).toBeUndefined();
    expect(await row(stuckDelete)).toMatchObject({ status: 'error_deleting' });
    expect(await row(extending)).toMatchObject({ status: 'available', size: 4 });
    expect(await row(retyping)).toMatchObject({ status: 'available', multiattach: 0 });
    expect(await row(untouched)).toMatchObject({ status: 'available' });
  });

  it('runs at boot: a stuck volume in a file database is finished when the cloud restarts', async () => {
    if (tc.engine === 'postgres') return; // the PostgreSQL variant is covered by the test above
    const file = `/tmp/cloud-reconcile-${randomUUID()}.db`;
    const first = await startCloud({ databaseUrl: `file:${file}` });
    const db = first.cloud.deps.store.db;
    const type = await db
      .selectFrom('volume_types')
      .select('id')
      .where('name', '=', '__DEFAULT__')
      .executeTakeFirstOrThrow();
    const id = randomUUID();
    const now = new Date().toISOString();
    await db
      .insertInto('volumes')
      .values({
        id,
        project_id: 'p1',
        user_id: 'u1',
        name: 'boot',
        description: null,
        size: 1,
        status: 'creating',
        attach_status: 'detached',
        volume_type_id: type.id,
        availability_zone: 'nova',
        bootable: 0,
        multiattach: 0,
        host: null,
        metadata: '{}',
        readonly_flag: null,
        migration_status: null,
        snapshot_id: null,
        source_volid: null,
        encrypted: 0,
        created_at: now,
        updated_at: null,
        launched_at: null,
      })
      .execute();
    await first.close();
    const second = await startCloud({ databaseUrl: `file:${file}` });
    const after = await second.cloud.deps.store.db
      .selectFrom('volumes')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirst();
    await second.close();
    for (const suffix of ['', '-wal', '-shm']) await rm(`${file}${suffix}`, { force: true });
    expect(after?.status).toBe('available');
  });
});
