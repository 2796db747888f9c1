import type { Tx } from '../../platform/db/store.js';
import type { AuthContext } from '../../platform/http/context.js';
import { badRequest, conflict } from '../../platform/http/errors.js';
import type { Microversion } from '../../platform/http/microversion.js';
import { type DevicePort, networkCaller, type PortRequest } from '../clients/network-client.js';
import type { ComputeDeps } from '../deps.js';
import type { NetworkItem } from '../schemas/servers.schemas.js';
import { serverPortsStore } from '../store/server-ports.store.js';
import type { ServerRow } from '../store/servers.store.js';

/**
 * A server's networking at create (`compute/api.py` `_check_requested_networks`, Nova's
 * `network/neutron.py` `validate_networks`, `_process_security_groups`, `allocate_for_instance`)
 * and at delete (`deallocate_for_instance`). Ports are made in the create's transaction, one set
 * per server of a multi-create.
 */

/** One port each server gets: on a network (optionally at an address), or a port the user made. */
export interface PlannedPort {
  networkId?: string;
  portId?: string;
  fixedIp?: string;
  tag?: string;
}

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** `_check_requested_networks` and `validate_networks`: the ports each server will get. */
export async function planNetworks(
  deps: ComputeDeps,
  auth: AuthContext,
  version: Microversion,
  networks: NetworkItem[] | 'none' | 'auto' | undefined,
  maxCount: number,
): Promise<PlannedPort[]> {
  const caller = networkCaller(auth);
  if (networks === 'none') return [];
  if (networks === undefined || networks === 'auto' || networks.length === 0) {
    const available = await deps.network.availableNetworks(caller);
    if (available.length > 1) {
      throw conflict('Multiple possible networks found, use a Network ID to be more specific.');
    }
    if (available.length === 0) {
      if (networks === 'auto') {
        throw badRequest(`Unable to automatically allocate a network for project ${caller.projectId}`);
      }
      return [];
    }
    return [{ networkId: available[0]!.id }];
  }
  const plan: PlannedPort[] = [];
  for (const item of networks) {
    if (item.port) {
      if (maxCount > 1) {
        throw badRequest(
          'Unable to launch multiple instances with a single configured port ID. Please launch your instance one by one with different ports.',
        );
      }
      const port = await deps.network.port(caller, item.port);
      if (!port) throw badRequest(`Port ${item.port} could not be found.`);
      if (port.deviceId) throw conflict(`Port ${item.port} is still in use.`);
      plan.push({ portId: port.id, ...(item.tag ? { tag: item.tag } : {}) });
      continue;
    }
    const id = item.uuid ?? '';
    if (version.below('2.37') && !UUID.test(id)) {
      throw badRequest(`Bad networks format: network uuid is not in proper format (${id})`);
    }
    if (item.fixed_ip && maxCount > 1) {
      throw badRequest('max_count cannot be greater than 1 if an fixed_ip is specified.');
    }
    const network = await deps.network.network(caller, id);
    if (!network) throw badRequest(`Network ${id} could not be found.`);
    if (network.subnetCount === 0) {
      throw badRequest(`Network ${id} requires a subnet in order to boot instances on.`);
    }
    plan.push({
      networkId: network.id,
      ...(item.fixed_ip ? { fixedIp: item.fixed_ip } : {}),
      ...(item.tag ? { tag: item.tag } : {}),
    });
  }
  return plan;
}

/**
 * `_process_security_groups`: each name or id among the project's groups (its `default` made on
 * first use). An unknown one is Nova's 400, a name two groups share its 409.
 */
export async function resolveSecurityGroups(
  deps: ComputeDeps,
  auth: AuthContext,
  requested: readonly string[],
): Promise<string[]> {
  const groups = await deps.network.securityGroups(auth.projectId ?? '');
  const ids: string[] = [];
  for (const want of requested) {
    const byName = groups.filter((g) => g.name === want);
    if (byName.length > 1) {
      throw conflict(`Multiple security groups found matching '${want}'. Use an ID to be more specific.`);
    }
    const match = byName[0] ?? groups.find((g) => g.id === want);
    if (!match) throw badRequest(`Security group ${want} not found.`);
    if (!ids.includes(match.id)) ids.push(match.id);
  }
  return ids;
}

/** Every server's ports, in the create's transaction, with compute's record of them. */
export async function allocateServerPorts(
  deps: ComputeDeps,
  tx: Tx,
  auth: AuthContext,
  servers: readonly ServerRow[],
  plan: readonly PlannedPort[],
  securityGroupIds: readonly string[],
): Promise<void> {
  if (plan.length === 0) return;
  const requests: PortRequest[] = servers.flatMap((s) =>
    plan.map((p) => ({
      serverId: s.id,
      projectId: s.project_id,
      ...(p.networkId ? { networkId: p.networkId } : {}),
      ...(p.portId ? { portId: p.portId } : {}),
      ...(p.fixedIp ? { fixedIp: p.fixedIp } : {}),
      securityGroupIds: [...securityGroupIds],
      deviceOwner: `compute:${s.availability_zone ?? 'nova'}`,
    })),
  );
  const portIds = await deps.network.allocate(tx, networkCaller(auth), requests);
  await serverPortsStore.insertMany(
    tx,
    requests.map((r, i) => ({
      server_id: r.serverId,
      port_id: portIds[i]!,
      position: i % plan.length,
      preserve_on_delete: plan[i % plan.length]!.portId ? 1 : 0,
      tag: plan[i % plan.length]!.tag ?? null,
    })),
  );
}

export interface AddressView {
  version: number;
  addr: string;
  'OS-EXT-IPS:type'?: string;
  'OS-EXT-IPS-MAC:mac_addr'?: string;
}

/**
 * Nova's `addresses` (views/addresses.py): by network name, each port's fixed IPs; the detailed
 * form adds the type and MAC (server show/list), the plain one is `/ips`'.
 */
export function addressesOf(ports: readonly DevicePort[], detailed: boolean): Record<string, AddressView[]> {
  const out: Record<string, AddressView[]> = {};
  for (const p of ports) {
    const list = out[p.networkName] ?? [];
    for (const ip of p.fixedIps) {
      const version = ip.ipAddress.includes(':') ? 6 : 4;
      list.push(
        detailed
          ? {
              version,
              addr: ip.ipAddress,
              'OS-EXT-IPS:type': 'fixed',
              'OS-EXT-IPS-MAC:mac_addr': p.macAddress,
            }
          : { version, addr: ip.ipAddress },
      );
    }
    out[p.networkName] = list;
  }
  return out;
}
