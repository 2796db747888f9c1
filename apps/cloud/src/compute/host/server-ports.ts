import type { Tx } from '../../platform/db/store.js';
import type { ComputeDeps } from '../deps.js';
import { serverPortsStore } from '../store/server-ports.store.js';

/** `deallocate_for_instance` on the host: Nova's ports deleted, the ones the user brought unbound. */
export async function releaseServerPorts(deps: ComputeDeps, tx: Tx, serverId: string): Promise<void> {
  const held = await serverPortsStore.forServers(tx, [serverId]);
  await deps.network.release(
    tx,
    serverId,
    held.filter((h) => h.preserve_on_delete === 1).map((h) => h.port_id),
  );
  await serverPortsStore.deleteForServer(tx, serverId);
}
