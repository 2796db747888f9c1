import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import type { TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';

let tc: TestCloud;
const it = cloudTest();
it.beforeAll(async ({ tc: cloud }) => {
  tc = cloud;
});

const db = () => tc.cloud.deps.store.db;

/** A group row as a killed process would have left it. */
async function groupLeftBehind(status: string): Promise<string> {
  const type = await db().selectFrom('group_types').select('id').executeTakeFirstOrThrow();
  const id = randomUUID();
  await db()
    .insertInto('volume_groups')
    .values({
      id,
      project_id: 'p1',
      user_id: 'u1',
      name: status,
      description: null,
      status,
      availability_zone: 'nova',
      group_type_id: type.id,
      group_snapshot_id: null,
      source_group_id: null,
      created_at: new Date().toISOString(),
      updated_at: null,
    })
    .execute();
  return id;
}

async function groupSnapshotLeftBehind(groupId: string, status: string): Promise<string> {
  const type = await db().selectFrom('group_types').select('id').executeTakeFirstOrThrow();
  const id = randomUUID();
  await db()
    .insertInto('group_snapshots')
    .values({
      id,
      project_id: 'p1',
      user_id: 'u1',
      group_id: groupId,
      group_type_id: type.id,
      name: status,
      description: null,
      status,
      created_at: new Date().toISOString(),
      updated_at: null,
    })
    .execute();
  return id;
}

const group = (id: string) =>
  db().selectFrom('volume_groups').selectAll().where('id', '=', id).executeTakeFirst();
const groupSnapshot = (id: string) =>
  db().selectFrom('group_snapshots').selectAll().where('id', '=', id).executeTakeFirst();

describe('volume.reconcile of groups', () => {
  it('settles creating and updating groups and group snapshots, and finishes their deletes', async () => {
    const creating = await groupLeftBehind('creating');
    const updating = await groupLeftBehind('updating');
    const deleting = await groupLeftBehind('deleting');
    const untouched = await groupLeftBehind('error');
    const snapCreating = await groupSnapshotLeftBehind(untouched, 'creating');
    const snapDeleting = await groupSnapshotLeftBehind(untouched, 'deleting');

    await tc.cloud.volume.reconcile();

    expect(await group(creating)).toMatchObject({ status: 'available' });
    expect(await group(updating)).toMatchObject({ status: 'available' });
    expect(await group(deleting)).toBeUndefined();
    expect(await group(untouched)).toMatchObject({ status: 'error' });
    expect(await groupSnapshot(snapCreating)).toMatchObject({ status: 'available' });
    expect(await groupSnapshot(snapDeleting)).toBeUndefined();
  });
});
