import type { CloudDeps } from '../deps.js';
import { newUuid } from '../platform/ids.js';
import { nowIso } from '../platform/time.js';
import { BACKEND } from './service/backend.js';
// --- cloud-groups ---
import { CGSNAPSHOT_GROUP_TYPE } from './service/group-types.service.js';

/** The cinder services of the emulated deployment (`host` as Cinder reports it). */
export const VOLUME_SERVICES = [
  { binary: 'cinder-scheduler', host: 'cloud' },
  { binary: 'cinder-volume', host: 'cloud@lvmdriver-1' },
] as const;

/**
 * Volume types `__DEFAULT__` and `multiattach` (`multiattach="<is> True"`), as devstack makes them,
 * and the services devstack runs: the scheduler and the LVM backend's volume service.
 */
export async function seedVolume(deps: CloudDeps): Promise<void> {
  const db = deps.store.db;
  for (const s of VOLUME_SERVICES) {
    await db
      .insertInto('volume_services')
      .values({
        ...s,
        availability_zone: BACKEND.availabilityZone,
        disabled: 0,
        frozen: 0,
        created_at: nowIso(),
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  const types = [
    { name: '__DEFAULT__', description: 'Default Volume Type', specs: {} as Record<string, string> },
    { name: 'multiattach', description: null, specs: { multiattach: '<is> True' } },
  ];
  const base = Date.parse(nowIso());
  for (const [i, t] of types.entries()) {
    // Distinct creation times: type lists sort newest first (multiattach, then __DEFAULT__; capture 03).
    const createdAt = new Date(base + i).toISOString();
    await db
      .insertInto('volume_types')
      .values({
        id: newUuid(),
        name: t.name,
        description: t.description,
        is_public: 1,
        created_at: createdAt,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
    const row = await db
      .selectFrom('volume_types')
      .select('id')
      .where('name', '=', t.name)
      .executeTakeFirstOrThrow();
    for (const [key, value] of Object.entries(t.specs)) {
      await db
        .insertInto('volume_type_extra_specs')
        .values({ volume_type_id: row.id, key, value })
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }
  // --- cloud-groups: the group type Cinder's own migration makes (capture 940) ---
  await db
    .insertInto('group_types')
    .values({
      id: newUuid(),
      name: CGSNAPSHOT_GROUP_TYPE.name,
      description: CGSNAPSHOT_GROUP_TYPE.description,
      is_public: 1,
      created_at: new Date(base).toISOString(),
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const cgType = await db
    .selectFrom('group_types')
    .select('id')
    .where('name', '=', CGSNAPSHOT_GROUP_TYPE.name)
    .executeTakeFirstOrThrow();
  for (const [key, value] of Object.entries(CGSNAPSHOT_GROUP_TYPE.specs)) {
    await db
      .insertInto('group_type_specs')
      .values({ group_type_id: cgType.id, key, value })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}
