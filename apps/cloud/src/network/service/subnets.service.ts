import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import { newUuid } from '../../platform/ids.js';
import { nowIso } from '../../platform/time.js';
import { badRequest, neutronError, notFoundOf, policyNotAuthorized } from '../errors.js';
import { ipv4Of, parseCidr, parseCreate, parseIpv4, parseUpdate } from '../schemas/attributes.js';
import { SUBNET_ATTRS } from '../schemas/resources.schemas.js';
import { networksStore, type SubnetRow } from '../store/networks.store.js';
import { portsStore } from '../store/ports.store.js';
import { subnetView } from '../views/network.views.js';
import { assertWriter, type Caller, ruleFor } from './caller.js';
import { assertOwner, bool, type NetworkCtx, scopeOf } from './context.js';
import { findNetwork } from './networks.service.js';

type Db = Kysely<Schema>;

/** A subnet's range as numbers (IPv4): network address and broadcast address. */
export function rangeOf(cidr: string): { first: number; last: number } | null {
  const c = parseCidr(cidr);
  if (!c) return null;
  const size = 2 ** (32 - c.prefix);
  return { first: c.base, last: c.base + size - 1 };
}

export async function listSubnets(ctx: NetworkCtx, c: Caller) {
  const nets = await networksStore.visible(ctx.store.db, scopeOf(c));
  const subnets = await networksStore.subnetsOf(
    ctx.store.db,
    nets.map((n) => n.id),
  );
  return subnets.map(subnetView);
}

export async function findSubnet(db: Db, c: Caller, id: string): Promise<SubnetRow> {
  const s = await networksStore.subnetById(db, id);
  if (!s) throw notFoundOf.subnet(id);
  const n = await networksStore.byId(db, s.network_id);
  if (!c.isAdmin && s.project_id !== c.projectId && !(n && (n.shared === 1 || n.external === 1))) {
    throw notFoundOf.subnet(id);
  }
  return s;
}

export async function showSubnet(ctx: NetworkCtx, c: Caller, id: string) {
  return subnetView(await findSubnet(ctx.store.db, c, id));
}

export async function createSubnet(ctx: NetworkCtx, c: Caller, body: unknown) {
  const { values, projectId } = parseCreate(SUBNET_ATTRS, 'subnet', body, c);
  assertWriter(c, ruleFor('create', 'subnet'));
  return ctx.store.transaction(async (tx) => {
    const network = await findNetwork(tx, c, values.network_id as string);
    if (!c.isAdmin && network.project_id !== c.projectId)
      throw policyNotAuthorized(ruleFor('create', 'subnet'));
    if (Number(values.ip_version) !== 4) {
      throw badRequest('Invalid input for operation: only IPv4 subnets are supported by this cloud.');
    }
    if (values.cidr === undefined || values.cidr === null) {
      throw badRequest('Bad subnets request: a subnetpool must be specified in the absence of a cidr.');
    }
    const cidr = values.cidr as string;
    const range = rangeOf(cidr)!;
    for (const other of await networksStore.subnetsOf(tx, [network.id])) {
      const r = rangeOf(other.cidr);
      if (r && r.first <= range.last && range.first <= r.last) {
        throw badRequest(
          `Invalid input for operation: Requested subnet with cidr: ${cidr} for network: ${network.id} overlaps with another subnet.`,
        );
      }
    }
    const gateway =
      values.gateway_ip === undefined ? ipv4Of(range.first + 1) : (values.gateway_ip as string | null);
    if (gateway !== null) {
      const g = parseIpv4(gateway);
      if (g === null || g < range.first || g > range.last) {
        throw badRequest(`Invalid input for operation: Gateway is not valid on subnet.`);
      }
    }
    const pools =
      (values.allocation_pools as { start: string; end: string }[] | undefined) ??
      defaultPools(range, gateway === null ? null : parseIpv4(gateway));
    const now = nowIso();
    const row: SubnetRow = {
      id: newUuid(),
      network_id: network.id,
      project_id: projectId,
      name: (values.name as string | undefined) ?? '',
      description: (values.description as string | undefined) ?? '',
      ip_version: 4,
      cidr,
      gateway_ip: gateway,
      enable_dhcp: bool(values.enable_dhcp, true),
      allocation_pools: JSON.stringify(pools),
      dns_nameservers: JSON.stringify(values.dns_nameservers ?? []),
      host_routes: JSON.stringify(values.host_routes ?? []),
      revision_number: 0,
      created_at: now,
      updated_at: now,
    };
    await networksStore.insertSubnet(tx, row);
    await networksStore.update(tx, network.id, {
      revision_number: network.revision_number + 1,
      updated_at: now,
    });
    return subnetView(row);
  });
}

/** Every address of the range but the network, broadcast and gateway addresses, as Neutron's pools. */
function defaultPools(range: { first: number; last: number }, gateway: number | null) {
  const lo = range.first + 1;
  const hi = range.last - 1;
  if (hi < lo) return [];
  if (gateway === null || gateway < lo || gateway > hi) return [{ start: ipv4Of(lo), end: ipv4Of(hi) }];
  const pools: { start: string; end: string }[] = [];
  if (gateway > lo) pools.push({ start: ipv4Of(lo), end: ipv4Of(gateway - 1) });
  if (gateway < hi) pools.push({ start: ipv4Of(gateway + 1), end: ipv4Of(hi) });
  return pools;
}

export async function updateSubnet(ctx: NetworkCtx, c: Caller, id: string, body: unknown) {
  const values = parseUpdate(SUBNET_ATTRS, 'subnet', body);
  return ctx.store.transaction(async (tx) => {
    const s = await findSubnet(tx, c, id);
    assertWriter(c, ruleFor('update', 'subnet'));
    assertOwner(c, s.project_id, 'update', 'subnet');
    const patch: Partial<SubnetRow> = { updated_at: nowIso(), revision_number: s.revision_number + 1 };
    if (values.name !== undefined) patch.name = values.name as string;
    if (values.description !== undefined) patch.description = values.description as string;
    if (values.enable_dhcp !== undefined) patch.enable_dhcp = bool(values.enable_dhcp, true);
    if (values.gateway_ip !== undefined) patch.gateway_ip = values.gateway_ip as string | null;
    if (values.dns_nameservers !== undefined) patch.dns_nameservers = JSON.stringify(values.dns_nameservers);
    if (values.host_routes !== undefined) patch.host_routes = JSON.stringify(values.host_routes);
    if (values.allocation_pools !== undefined)
      patch.allocation_pools = JSON.stringify(values.allocation_pools);
    await networksStore.updateSubnet(tx, id, patch);
    return subnetView({ ...s, ...patch });
  });
}

export async function deleteSubnet(ctx: NetworkCtx, c: Caller, id: string): Promise<void> {
  await ctx.store.transaction(async (tx) => {
    const s = await findSubnet(tx, c, id);
    assertWriter(c, ruleFor('delete', 'subnet'));
    assertOwner(c, s.project_id, 'delete', 'subnet');
    if ((await portsStore.ipsInSubnet(tx, id)).length > 0) {
      throw neutronError(
        409,
        'SubnetInUse',
        `Unable to complete operation on subnet ${id}: One or more ports have an IP allocation from this subnet.`,
      );
    }
    await networksStore.deleteSubnet(tx, id);
  });
}
