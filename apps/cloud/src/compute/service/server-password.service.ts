import type { ComputeDeps } from '../deps.js';
import type { AuthContext } from '../../platform/http/context.js';
import { assertProjectWriter } from '../../platform/http/policy.js';
import { serversStore } from '../store/servers.store.js';
import { getServer } from './servers.service.js';

/**
 * `server_password.py`: a guest posts its password encrypted with the key pair through the
 * metadata service; the API shows it ('' when there is none) and clears it. No emulated guest
 * posts one, so it stays empty unless cleared from a stored value.
 */

export const SERVER_PASSWORD_RULES = {
  show: 'os_compute_api:os-server-password:show',
  clear: 'os_compute_api:os-server-password:clear',
} as const;

export async function serverPassword(
  deps: ComputeDeps,
  auth: AuthContext,
  serverId: string,
): Promise<string> {
  return (await getServer(deps, auth, serverId)).password ?? '';
}

export async function clearServerPassword(
  deps: ComputeDeps,
  auth: AuthContext,
  serverId: string,
): Promise<void> {
  await getServer(deps, auth, serverId);
  assertProjectWriter(auth, SERVER_PASSWORD_RULES.clear);
  await serversStore.update(deps.store.db, serverId, { password: null });
}
