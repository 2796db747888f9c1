import { compactIpv6 } from '../ip-format.js';
import type { ComputeDeps } from '../deps.js';
import type { AuthContext } from '../../platform/http/context.js';
import type { Microversion } from '../../platform/http/microversion.js';
import { nowIso } from '../../platform/time.js';
import { assertProjectWriter } from '../policy.js';
import type { ServerUpdateBody } from '../schemas/server-update.schemas.js';
import { type ServerRow, serversStore } from '../store/servers.store.js';
import { instanceNotFound } from './servers.service.js';

export const SERVER_UPDATE_RULE = 'os_compute_api:servers:update';

/**
 * PUT /servers/{id} (`servers.py` update): the lookup (404 for a server the caller cannot see),
 * the `servers:update` policy, then the fields given. A lock does not stop an update (Nova's
 * `update_instance` has no lock check) and no instance action is recorded.
 */
export async function updateServer(
  deps: ComputeDeps,
  auth: AuthContext,
  version: Microversion,
  id: string,
  body: ServerUpdateBody,
): Promise<ServerRow> {
  return deps.store.transaction(async (tx) => {
    const s = await serversStore.lockById(deps.store, tx, id);
    if (!s || !(auth.isAdmin || s.project_id === auth.projectId)) throw instanceNotFound(id);
    assertProjectWriter(auth, SERVER_UPDATE_RULE);
    const u = body.server;
    const changes: Partial<ServerRow> = {};
    if (u.name !== undefined) changes.name = u.name;
    if (u.description !== undefined && version.atLeast('2.19')) changes.description = u.description;
    if (u.accessIPv4 !== undefined) changes.access_ip_v4 = u.accessIPv4;
    if (u.accessIPv6 !== undefined) changes.access_ip_v6 = compactIpv6(u.accessIPv6);
    if (u['OS-DCF:diskConfig'] !== undefined)
      changes.auto_disk_config = u['OS-DCF:diskConfig'] === 'AUTO' ? 1 : 0;
    if (u.hostname !== undefined && version.atLeast('2.90')) changes.hostname = u.hostname;
    const updated = { ...s, ...changes, updated_at: nowIso() };
    await serversStore.update(tx, id, { ...changes, updated_at: updated.updated_at });
    return updated;
  });
}
