import type { CloudDeps } from '../deps.js';
import { stableUuid } from '../platform/ids.js';
import { nowIso } from '../platform/time.js';

export const SEED_IMAGE_ID = stableUuid('image/cirros');

/** The one image devstack uploads. Idempotent, multi-process safe. */
export async function seedImages(deps: CloudDeps): Promise<void> {
  const db = deps.store.db;
  const now = nowIso();
  await db
    .insertInto('images')
    .values({
      id: SEED_IMAGE_ID,
      name: 'cirros-0.6.2-x86_64-disk',
      status: 'active',
      visibility: 'public',
      owner: null,
      size: 21_430_272,
      disk_format: 'qcow2',
      container_format: 'bare',
      min_disk: 0,
      min_ram: 0,
      checksum: 'c8fc807773e5354afe61636071771906',
      properties: JSON.stringify({ hw_rng_model: 'virtio' }),
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
}
