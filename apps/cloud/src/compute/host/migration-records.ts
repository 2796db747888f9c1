import { finishOpenEvents } from '../service/instance-actions-recorder.js';
import type { Tx } from '../../platform/db/store.js';
import { newUuid } from '../../platform/ids.js';
import { nowIso } from '../../platform/time.js';
import { SEED_HOSTS } from '../hosts.js';
import { flavorsStore } from '../store/flavors.store.js';
import { type MigrationRow, migrationsStore } from '../store/migrations.store.js';
import type { Placed } from './scheduler.js';
import type { ResizeSource, ServerRow } from '../store/servers.store.js';

/**
 * The migration record (cloud-rescue) that the conductor writes when a resize or cold migrate
 * starts and the hosts move on, as Nova's `Migration` object does; os-migrations lists them.
 */

const internalFlavorId = async (tx: Tx, id: string) => (await flavorsStore.byId(tx, id))?.internal_id ?? null;

/** `MigrationTask`: a pre-migrating record from the server's source (once per resize). */
export async function openMigration(tx: Tx, s: ServerRow, rs: ResizeSource): Promise<void> {
  if (await migrationsStore.latestOpen(tx, s.id)) return;
  const requester = await migrationsStore.requesterOf(tx, s.id);
  const now = nowIso();
  const row: MigrationRow = {
    id: await migrationsStore.nextId(tx),
    uuid: newUuid(),
    server_id: s.id,
    migration_type: rs.flavor.id === rs.newFlavor.id ? 'migration' : 'resize',
    status: 'pre-migrating',
    source_compute: rs.host,
    source_node: rs.node,
    dest_compute: null,
    dest_node: null,
    dest_host: null,
    old_instance_type_id: await internalFlavorId(tx, rs.flavor.id),
    new_instance_type_id: await internalFlavorId(tx, rs.newFlavor.id),
    user_id: requester?.user_id ?? null,
    project_id: requester?.project_id ?? null,
    created_at: now,
    updated_at: null,
  };
  await migrationsStore.insert(tx, row);
}

/** The server's open migration moves to `status` (and, once scheduled, its destination). */
export async function advanceMigration(
  tx: Tx,
  serverId: string,
  status: string,
  dest?: Placed,
): Promise<void> {
  const open = await migrationsStore.latestOpen(tx, serverId);
  if (!open) return;
  await migrationsStore.update(tx, open.id, {
    status,
    updated_at: nowIso(),
    ...(dest
      ? {
          dest_compute: dest.host,
          dest_node: dest.node,
          dest_host: SEED_HOSTS.find((h) => h.host === dest.host)?.hostIp ?? null,
        }
      : {}),
  });
}

/**
 * No host for a cold migrate (captures 901-907): the server stays ACTIVE, but the migration is
 * `error` and the action's events end in Error with NoValidHost's traceback.
 */
export async function failMigration(tx: Tx, s: ServerRow, traceback: string): Promise<void> {
  await advanceMigration(tx, s.id, 'error');
  const fault = JSON.stringify({ details: traceback });
  await finishOpenEvents(tx, [{ id: s.id, host: s.host, vm_state: 'error', fault }]);
}
