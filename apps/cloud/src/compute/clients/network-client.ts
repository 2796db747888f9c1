import type { Kysely } from 'kysely';
import type { DevicePort, NetworkApi, NetworkCaller, PortRequest } from '../../network/index.js';
import type { Schema } from '../../platform/db/schema.js';
import type { AuthContext } from '../../platform/http/context.js';
import { OpenStackError } from '../../platform/http/errors.js';

export type { DevicePort, NetworkSummary, PortRequest } from '../../network/index.js';

/** The user's view of the network, as Nova's calls to Neutron carry the user's token. */
export const networkCaller = (auth: AuthContext): NetworkCaller => ({
  projectId: auth.projectId ?? '',
  isAdmin: auth.isAdmin,
});

/**
 * Nova's client of the network service (`nova/network/neutron.py`): the only way compute reads
 * or makes ports. A Neutron refusal during allocation comes back as Nova's words for it.
 */
export function createNetworkClient(api: NetworkApi) {
  return {
    availableNetworks: (caller: NetworkCaller) => api.availableNetworks(caller),
    network: (caller: NetworkCaller, id: string) => api.network(caller, id),
    port: (caller: NetworkCaller, id: string) => api.port(caller, id),
    securityGroups: (projectId: string) => api.securityGroups(projectId),
    async allocate(tx: Kysely<Schema>, caller: NetworkCaller, requests: readonly PortRequest[]) {
      try {
        return await api.allocate(tx, caller, requests);
      } catch (err) {
        const body =
          err instanceof OpenStackError ? (err.options.rawBody as { NeutronError?: { type: string } }) : null;
        const type = body?.NeutronError?.type;
        if (type === 'IpAddressInUse') {
          const ip = requests.find((r) => r.fixedIp && (err as Error).message.includes(r.fixedIp))?.fixedIp;
          throw new OpenStackError(400, `Fixed IP address ${ip ?? ''} is already in use.`.replace('  ', ' '));
        }
        if (type === 'IpAddressGenerationFailure') {
          throw new OpenStackError(
            409,
            `No more IP addresses available on network ${requests[0]?.networkId}.`,
          );
        }
        if (type) throw new OpenStackError(400, (err as Error).message);
        throw err;
      }
    },
    /** The ports of these servers, by server id, in the order each server got them. */
    async portsByServer(serverIds: readonly string[]): Promise<Map<string, DevicePort[]>> {
      const out = new Map<string, DevicePort[]>();
      for (const p of await api.portsOf(serverIds)) {
        const list = out.get(p.deviceId) ?? [];
        list.push(p);
        out.set(p.deviceId, list);
      }
      return out;
    },
    release: (tx: Kysely<Schema>, serverId: string, preserve: readonly string[]) =>
      api.release(tx, serverId, preserve),
  };
}

export type NetworkClient = ReturnType<typeof createNetworkClient>;
