import type { CloudDeps } from '../deps.js';
import { newUuid } from '../platform/ids.js';
import { nowIso } from '../platform/time.js';

/** Volume types `__DEFAULT__` and `multiattach` (`multiattach="<is> True"`), as devstack makes them. */
export async function seedVolume(deps: CloudDeps): Promise<void> {
  const db = deps.store.db;
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
}
