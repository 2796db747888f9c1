import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import type { Store } from '../../platform/db/store.js';
import { newUuid } from '../../platform/ids.js';
import { nowIso } from '../../platform/time.js';
import { badRequest, neutronError, notFoundOf, policyNotAuthorized } from '../errors.js';
import { ipv4Of, parseCreate, parseIpv4, parseUpdate } from '../schemas/attributes.js';
import { PORT_ATTRS } from '../schemas/resources.schemas.js';
import { type NetworkRow, networksStore, type SubnetRow } from '../store/networks.store.js';
import { type IpAllocationRow, type PortRow, portsStore } from '../store/ports.store.js';
import { portView } from '../views/network.views.js';
import { assertWriter, type Caller, ruleFor } from './caller.js';
import { assertOwner, bool, type NetworkCtx, scopeOf } from './context.js';
import { findNetwork } from './networks.service.js';
import { ensureDefaultGroup, findSecurityGroup } from './security-groups.service.js';
import { rangeOf } from './subnets.service.js';

type Db = Kysely<Schema>;

export interface FixedIpRequest {
  subnet_id?: string;
  ip_address?: string;
}

export interface NewPort {
  networkId: string;
  projectId: string;
  name?: string;
  description?: string;
  fixedIps?: FixedIpRequest[];
  /** Security group ids; the project's default group when absent. */
  securityGroups?: string[];
  deviceId?: string;
  deviceOwner?: string;
  macAddress?: string;
  adminStateUp?: boolean;
  portSecurity?: boolean;
  hostId?: string;
}

async function viewsOf(db: Db, c: Caller, rows: PortRow[]) {
  const ips = await portsStore.ipsOf(
    db,
    rows.map((p) => p.id),
  );
  return rows.map((p) =>
    portView(
      p,
      ips.filter((i) => i.port_id === p.id),
      c.isAdmin,
    ),
  );
}

export async function listPorts(ctx: NetworkCtx, c: Caller) {
  return viewsOf(ctx.store.db, c, await portsStore.visible(ctx.store.db, scopeOf(c)));
}

export async function findPort(db: Db, c: Caller, id: string): Promise<PortRow> {
  const p = await portsStore.byId(db, id);
  if (!p) throw notFoundOf.port(id);
  if (!c.isAdmin && p.project_id !== c.projectId) {
    const n = await networksStore.byId(db, p.network_id);
    if (n?.project_id !== c.projectId) throw notFoundOf.port(id);
  }
  return p;
}

export async function showPort(ctx: NetworkCtx, c: Caller, id: string) {
  return (await viewsOf(ctx.store.db, c, [await findPort(ctx.store.db, c, id)]))[0]!;
}

const newMac = () => `fa:16:3e:${[...randomBytes(3)].map((b) => b.toString(16).padStart(2, '0')).join(':')}`;

const ipInUse = (networkId: string, ip: string) =>
  neutronError(
    409,
    'IpAddressInUse',
    `Unable to complete operation for network ${networkId}. The IP address ${ip} is in use.`,
  );

function inPools(subnet: SubnetRow, ip: number): boolean {
  const pools = JSON.parse(subnet.allocation_pools) as { start: string; end: string }[];
  return pools.some((p) => ip >= (parseIpv4(p.start) ?? 0) && ip <= (parseIpv4(p.end) ?? -1));
}

/**
 * The port's fixed IPs (Neutron's IPAM): each request names a subnet, an address, or both; none
 * means one address from the network's first IPv4 subnet. Addresses are handed out lowest
 * first from the allocation pools; the subnet row is locked while it is looked for, and the
 * (subnet, address) key keeps two processes from handing out one address.
 */
async function allocateIps(
  store: Store,
  tx: Db,
  network: NetworkRow,
  portId: string,
  requests: FixedIpRequest[] | undefined,
  /** Addresses taken per subnet, kept across the ports of one batch (a multi-create). */
  cache: Map<string, Set<string>> = new Map(),
): Promise<IpAllocationRow[]> {
  const subnets = await networksStore.subnetsOf(tx, [network.id]);
  const wanted: FixedIpRequest[] =
    requests ??
    (subnets.length > 0
      ? [{ subnet_id: [...subnets].sort((a, b) => (a.created_at < b.created_at ? -1 : 1))[0]!.id }]
      : []);
  const out: IpAllocationRow[] = [];
  for (const req of wanted) {
    let subnet: SubnetRow | undefined;
    if (req.subnet_id) {
      subnet = subnets.find((s) => s.id === req.subnet_id);
      if (!subnet) {
        throw badRequest(
          `Invalid input for operation: Failed to create port on network ${network.id}, because fixed_ips included invalid subnet ${req.subnet_id}.`,
        );
      }
    } else if (req.ip_address) {
      const ip = parseIpv4(req.ip_address);
      subnet = subnets.find((s) => {
        const r = rangeOf(s.cidr);
        return ip !== null && r !== null && ip >= r.first && ip <= r.last;
      });
      if (!subnet) {
        throw badRequest(
          `Invalid input for operation: IP address ${req.ip_address} is not a valid IP for the specified subnet.`,
        );
      }
    } else {
      throw badRequest('Invalid input for operation: IP allocation requires subnet_id or ip_address.');
    }
    let taken = cache.get(subnet.id);
    if (!taken) {
      await store.forUpdate(tx.selectFrom('subnets').select('id').where('id', '=', subnet.id)).execute();
      taken = new Set((await portsStore.ipsInSubnet(tx, subnet.id)).map((a) => a.ip_address));
      cache.set(subnet.id, taken);
    }
    let address: string;
    if (req.ip_address) {
      const ip = parseIpv4(req.ip_address);
      const r = rangeOf(subnet.cidr)!;
      if (ip === null || ip <= r.first || ip >= r.last) {
        throw badRequest(
          `Invalid input for operation: IP address ${req.ip_address} is not a valid IP for the specified subnet.`,
        );
      }
      if (taken.has(req.ip_address) || req.ip_address === subnet.gateway_ip)
        throw ipInUse(network.id, req.ip_address);
      address = req.ip_address;
    } else {
      const r = rangeOf(subnet.cidr)!;
      let found: string | null = null;
      for (let ip = r.first + 1; ip < r.last; ip++) {
        const s = ipv4Of(ip);
        if (!taken.has(s) && s !== subnet.gateway_ip && inPools(subnet, ip)) {
          found = s;
          break;
        }
      }
      if (found === null) {
        throw neutronError(
          409,
          'IpAddressGenerationFailure',
          `No more IP addresses available on network ${network.id}.`,
        );
      }
      address = found;
    }
    taken.add(address);
    out.push({ subnet_id: subnet.id, ip_address: address, port_id: portId, network_id: network.id });
  }
  return out;
}

async function groupsFor(tx: Db, c: Caller, projectId: string, ids: string[] | undefined): Promise<string[]> {
  if (ids === undefined) return [(await ensureDefaultGroup(tx, projectId)).id];
  for (const id of ids) await findSecurityGroup(tx, c, id);
  return [...new Set(ids)];
}

/** Creates one port inside the caller's transaction (the API's create, and Nova's allocation). */
export async function insertPort(
  store: Store,
  tx: Db,
  c: Caller,
  p: NewPort,
  cache?: Map<string, Set<string>>,
): Promise<PortRow> {
  const network = await findNetwork(tx, c, p.networkId);
  if (!c.isAdmin && network.project_id !== c.projectId && network.shared !== 1) {
    throw notFoundOf.network(p.networkId);
  }
  const id = newUuid();
  const mac = p.macAddress ?? newMac();
  if (await portsStore.macInUse(tx, mac)) {
    throw neutronError(
      409,
      'MacAddressInUse',
      `Unable to complete operation for network ${network.id}. The mac address ${mac} is in use.`,
    );
  }
  const portSecurity = p.portSecurity ?? network.port_security_enabled === 1;
  const groups = portSecurity ? await groupsFor(tx, c, p.projectId, p.securityGroups) : [];
  const now = nowIso();
  const row: PortRow = {
    id,
    network_id: network.id,
    project_id: p.projectId,
    name: p.name ?? '',
    description: p.description ?? '',
    mac_address: mac,
    admin_state_up: p.adminStateUp === false ? 0 : 1,
    status: p.hostId ? 'ACTIVE' : 'DOWN',
    device_id: p.deviceId ?? '',
    device_owner: p.deviceOwner ?? '',
    security_groups: JSON.stringify(groups),
    port_security_enabled: portSecurity ? 1 : 0,
    binding_host_id: p.hostId ?? '',
    revision_number: 1,
    created_at: now,
    updated_at: now,
  };
  await portsStore.insert(tx, row);
  await portsStore.insertIps(tx, await allocateIps(store, tx, network, id, p.fixedIps, cache));
  return row;
}

export async function createPort(ctx: NetworkCtx, c: Caller, body: unknown) {
  const { values, projectId } = parseCreate(PORT_ATTRS, 'port', body, c);
  assertWriter(c, ruleFor('create', 'port'));
  if (values['binding:host_id'] !== undefined && !c.isAdmin) {
    throw policyNotAuthorized(ruleFor('create', 'port', ['binding:host_id']));
  }
  return ctx.store.transaction(async (tx) => {
    const row = await insertPort(ctx.store, tx, c, {
      networkId: values.network_id as string,
      projectId,
      name: values.name as string | undefined,
      description: values.description as string | undefined,
      fixedIps: values.fixed_ips as FixedIpRequest[] | undefined,
      securityGroups: values.security_groups as string[] | undefined,
      deviceId: values.device_id as string | undefined,
      deviceOwner: values.device_owner as string | undefined,
      macAddress: values.mac_address as string | undefined,
      adminStateUp: values.admin_state_up === undefined ? undefined : bool(values.admin_state_up, true) === 1,
      portSecurity:
        values.port_security_enabled === undefined
          ? undefined
          : bool(values.port_security_enabled, true) === 1,
      hostId: values['binding:host_id'] as string | undefined,
    });
    return (await viewsOf(tx, c, [row]))[0]!;
  });
}

export async function updatePort(ctx: NetworkCtx, c: Caller, id: string, body: unknown) {
  const values = parseUpdate(PORT_ATTRS, 'port', body);
  return ctx.store.transaction(async (tx) => {
    const p = await findPort(tx, c, id);
    assertWriter(c, ruleFor('update', 'port'));
    assertOwner(c, p.project_id, 'update', 'port');
    if (values['binding:host_id'] !== undefined && !c.isAdmin) {
      throw policyNotAuthorized(ruleFor('update', 'port', ['binding:host_id']));
    }
    const patch: Partial<PortRow> = { updated_at: nowIso(), revision_number: p.revision_number + 1 };
    if (values.name !== undefined) patch.name = values.name as string;
    if (values.description !== undefined) patch.description = values.description as string;
    if (values.admin_state_up !== undefined) patch.admin_state_up = bool(values.admin_state_up, true);
    if (values.device_id !== undefined) patch.device_id = values.device_id as string;
    if (values.device_owner !== undefined) patch.device_owner = values.device_owner as string;
    if (values['binding:host_id'] !== undefined) {
      patch.binding_host_id = values['binding:host_id'] as string;
      patch.status = patch.binding_host_id ? 'ACTIVE' : 'DOWN';
    }
    if (values.port_security_enabled !== undefined) {
      patch.port_security_enabled = bool(values.port_security_enabled, true);
    }
    if (values.security_groups !== undefined) {
      patch.security_groups = JSON.stringify(
        await groupsFor(tx, c, p.project_id, values.security_groups as string[]),
      );
    }
    if (values.fixed_ips !== undefined) {
      const network = (await networksStore.byId(tx, p.network_id))!;
      await portsStore.deleteIpsOf(tx, id);
      await portsStore.insertIps(
        tx,
        await allocateIps(ctx.store, tx, network, id, values.fixed_ips as FixedIpRequest[]),
      );
    }
    await portsStore.update(tx, id, patch);
    return (await viewsOf(tx, c, [{ ...p, ...patch }]))[0]!;
  });
}

export async function deletePort(ctx: NetworkCtx, c: Caller, id: string): Promise<void> {
  await ctx.store.transaction(async (tx) => {
    const p = await findPort(tx, c, id);
    assertWriter(c, ruleFor('delete', 'port'));
    assertOwner(c, p.project_id, 'delete', 'port');
    await portsStore.delete(tx, id);
  });
}
