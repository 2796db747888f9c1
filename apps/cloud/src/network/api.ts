import type { Kysely } from 'kysely';
import type { Schema } from '../platform/db/schema.js';
import type { Store } from '../platform/db/store.js';
import { networksStore } from './store/networks.store.js';
import { portsStore } from './store/ports.store.js';
import { securityGroupsStore } from './store/security-groups.store.js';
import type { Caller } from './service/caller.js';
import { findNetwork } from './service/networks.service.js';
import { findPort, insertPort } from './service/ports.service.js';
import { ensureDefaultGroup } from './service/security-groups.service.js';

type Db = Kysely<Schema>;

/** Whose view of the network a call takes: a user's project (Nova calls Neutron with the user's token). */
export type NetworkCaller = Pick<Caller, 'projectId' | 'isAdmin'>;

export interface NetworkSummary {
  id: string;
  name: string;
  projectId: string;
  shared: boolean;
  external: boolean;
  subnetCount: number;
}

export interface PortSummary {
  id: string;
  networkId: string;
  projectId: string;
  deviceId: string;
  deviceOwner: string;
}

/** A port as Nova's network info cache holds it. */
export interface DevicePort {
  id: string;
  deviceId: string;
  networkId: string;
  networkName: string;
  macAddress: string;
  status: string;
  fixedIps: { subnetId: string; ipAddress: string }[];
  securityGroups: { id: string; name: string }[];
  createdAt: string;
}

/** One port Nova wants for a server: a new one on a network, or one the user made. */
export interface PortRequest {
  serverId: string;
  projectId: string;
  networkId?: string;
  portId?: string;
  fixedIp?: string;
  securityGroupIds: string[];
  deviceOwner: string;
}

/** What Nova may ask of Neutron, in process (`nova/network/neutron.py`'s calls). */
export interface NetworkApi {
  /** `_get_available_networks` with no ids: the project's own networks, then shared ones (never external). */
  availableNetworks(caller: NetworkCaller): Promise<NetworkSummary[]>;
  network(caller: NetworkCaller, id: string): Promise<NetworkSummary | undefined>;
  port(caller: NetworkCaller, id: string): Promise<PortSummary | undefined>;
  /** The project's security groups (its default one made on first use), as `list_security_groups`. */
  securityGroups(projectId: string): Promise<{ id: string; name: string }[]>;
  /** Creates or binds the ports, in the caller's transaction; returns their ids in order. */
  allocate(tx: Db, caller: NetworkCaller, requests: readonly PortRequest[]): Promise<string[]>;
  /** The ports bound to these servers. */
  portsOf(serverIds: readonly string[]): Promise<DevicePort[]>;
  /** On server delete: deletes the ports Nova made, unbinds the ones the user gave. */
  release(tx: Db, serverId: string, preserve: readonly string[]): Promise<void>;
}

const asCaller = (c: NetworkCaller): Caller => ({ ...c, roles: [] });

export function createNetworkApi(store: Store): NetworkApi {
  const summary = (
    n: { id: string; name: string; project_id: string; shared: number; external: number },
    subnetCount: number,
  ): NetworkSummary => ({
    id: n.id,
    name: n.name,
    projectId: n.project_id,
    shared: n.shared === 1,
    external: n.external === 1,
    subnetCount,
  });
  return {
    async availableNetworks(caller) {
      const all = await networksStore.visible(store.db, caller.projectId);
      const own = all.filter((n) => n.project_id === caller.projectId && n.shared === 0 && n.external === 0);
      const shared = all.filter((n) => n.shared === 1 && !own.includes(n));
      const nets = [...own, ...shared];
      const subnets = await networksStore.subnetsOf(
        store.db,
        nets.map((n) => n.id),
      );
      return nets.map((n) => summary(n, subnets.filter((s) => s.network_id === n.id).length));
    },
    async network(caller, id) {
      try {
        const n = await findNetwork(store.db, asCaller(caller), id);
        return summary(n, (await networksStore.subnetsOf(store.db, [id])).length);
      } catch {
        return undefined;
      }
    },
    async port(caller, id) {
      try {
        const p = await findPort(store.db, asCaller(caller), id);
        return {
          id: p.id,
          networkId: p.network_id,
          projectId: p.project_id,
          deviceId: p.device_id,
          deviceOwner: p.device_owner,
        };
      } catch {
        return undefined;
      }
    },
    async securityGroups(projectId) {
      await store.transaction((tx) => ensureDefaultGroup(tx, projectId));
      return (await securityGroupsStore.visible(store.db, projectId)).map((g) => ({
        id: g.id,
        name: g.name,
      }));
    },
    async allocate(tx, caller, requests) {
      const ids: string[] = [];
      const taken = new Map<string, Set<string>>();
      for (const r of requests) {
        if (r.portId) {
          await portsStore.update(tx, r.portId, {
            device_id: r.serverId,
            device_owner: r.deviceOwner,
            status: 'ACTIVE',
            updated_at: new Date().toISOString(),
          });
          ids.push(r.portId);
          continue;
        }
        const port = await insertPort(
          store,
          tx,
          asCaller(caller),
          {
            networkId: r.networkId!,
            projectId: r.projectId,
            ...(r.fixedIp ? { fixedIps: [{ ip_address: r.fixedIp }] } : {}),
            securityGroups: r.securityGroupIds,
            deviceId: r.serverId,
            deviceOwner: r.deviceOwner,
            hostId: '',
          },
          taken,
        );
        await portsStore.update(tx, port.id, { status: 'ACTIVE' });
        ids.push(port.id);
      }
      return ids;
    },
    async portsOf(serverIds) {
      const ports: DevicePort[] = [];
      for (let i = 0; i < serverIds.length; i += 500) {
        const rows = await portsStore.byDevices(store.db, serverIds.slice(i, i + 500));
        if (rows.length === 0) continue;
        const ips = await portsStore.ipsOf(
          store.db,
          rows.map((p) => p.id),
        );
        const nets = new Map(
          (await networksStore.byIds(store.db, [...new Set(rows.map((p) => p.network_id))])).map((n) => [
            n.id,
            n.name,
          ]),
        );
        const groupIds = [...new Set(rows.flatMap((p) => JSON.parse(p.security_groups) as string[]))];
        const groups = new Map<string, string>();
        for (const id of groupIds) {
          const g = await securityGroupsStore.byId(store.db, id);
          if (g) groups.set(id, g.name);
        }
        for (const p of rows) {
          ports.push({
            id: p.id,
            deviceId: p.device_id,
            networkId: p.network_id,
            networkName: nets.get(p.network_id) ?? '',
            macAddress: p.mac_address,
            status: p.status,
            fixedIps: ips
              .filter((a) => a.port_id === p.id)
              .map((a) => ({ subnetId: a.subnet_id, ipAddress: a.ip_address })),
            securityGroups: (JSON.parse(p.security_groups) as string[]).map((id) => ({
              id,
              name: groups.get(id) ?? id,
            })),
            createdAt: p.created_at,
          });
        }
      }
      return ports;
    },
    async release(tx, serverId, preserve) {
      for (const p of await portsStore.byDevices(tx, [serverId])) {
        if (preserve.includes(p.id)) {
          await portsStore.update(tx, p.id, {
            device_id: '',
            device_owner: '',
            status: 'DOWN',
            binding_host_id: '',
            updated_at: new Date().toISOString(),
          });
        } else {
          await portsStore.delete(tx, p.id);
        }
      }
    },
  };
}
