import { parseJsonColumn } from '../../platform/db/json-column.js';
import { novaTime } from '../../platform/time.js';
import type { NetworkRow, SubnetRow } from '../store/networks.store.js';
import type { IpAllocationRow, PortRow } from '../store/ports.store.js';
import type { SecurityGroupRow, SecurityGroupRuleRow } from '../store/security-groups.store.js';

/**
 * Neutron's resource dicts as ML2 returns them (neutron-lib api-ref), with the extensions this
 * cloud lists (`/v2.0/extensions`): project-id, standard attributes (description, revisions,
 * timestamps), external-net, net-mtu, port-security, binding, security-group. Times are
 * `2026-11-26T00:14:38Z`.
 */

const std = (r: {
  description: string;
  created_at: string;
  updated_at: string;
  revision_number: number;
}) => ({
  description: r.description,
  tags: [] as string[],
  created_at: novaTime(r.created_at),
  updated_at: novaTime(r.updated_at),
  revision_number: r.revision_number,
});

export function networkView(n: NetworkRow, subnetIds: readonly string[], isAdmin: boolean) {
  return {
    id: n.id,
    name: n.name,
    tenant_id: n.project_id,
    admin_state_up: n.admin_state_up === 1,
    mtu: n.mtu,
    status: 'ACTIVE',
    subnets: [...subnetIds].sort(),
    shared: n.shared === 1,
    availability_zone_hints: [] as string[],
    availability_zones: ['nova'],
    ipv4_address_scope: null,
    ipv6_address_scope: null,
    'router:external': n.external === 1,
    port_security_enabled: n.port_security_enabled === 1,
    l2_adjacency: true,
    ...(isAdmin
      ? {
          'provider:network_type': 'geneve',
          'provider:physical_network': null,
          'provider:segmentation_id': segmentOf(n.id),
        }
      : {}),
    ...std(n),
    project_id: n.project_id,
  };
}

/** A stable segmentation id for a network (the tunnel id ML2 would have picked). */
function segmentOf(id: string): number {
  let h = 0;
  for (const c of id) h = (h * 31 + c.charCodeAt(0)) % 65000;
  return h + 1;
}

export function subnetView(s: SubnetRow) {
  return {
    id: s.id,
    name: s.name,
    tenant_id: s.project_id,
    network_id: s.network_id,
    ip_version: s.ip_version,
    subnetpool_id: null,
    enable_dhcp: s.enable_dhcp === 1,
    ipv6_ra_mode: null,
    ipv6_address_mode: null,
    gateway_ip: s.gateway_ip,
    cidr: s.cidr,
    allocation_pools: parseJsonColumn<{ start: string; end: string }[]>(s.allocation_pools, []),
    host_routes: parseJsonColumn<{ destination: string; nexthop: string }[]>(s.host_routes, []),
    dns_nameservers: parseJsonColumn<string[]>(s.dns_nameservers, []),
    service_types: [] as string[],
    ...std(s),
    project_id: s.project_id,
  };
}

export function portView(p: PortRow, ips: readonly IpAllocationRow[], isAdmin: boolean) {
  return {
    id: p.id,
    name: p.name,
    network_id: p.network_id,
    tenant_id: p.project_id,
    mac_address: p.mac_address,
    admin_state_up: p.admin_state_up === 1,
    status: p.status,
    device_id: p.device_id,
    device_owner: p.device_owner,
    fixed_ips: ips.map((i) => ({ subnet_id: i.subnet_id, ip_address: i.ip_address })),
    allowed_address_pairs: [] as unknown[],
    extra_dhcp_opts: [] as unknown[],
    security_groups: parseJsonColumn<string[]>(p.security_groups, []),
    port_security_enabled: p.port_security_enabled === 1,
    'binding:vnic_type': 'normal',
    ...(isAdmin
      ? {
          'binding:host_id': p.binding_host_id,
          'binding:profile': {},
          'binding:vif_type': p.binding_host_id ? 'ovs' : 'unbound',
          'binding:vif_details': p.binding_host_id ? { port_filter: true } : {},
        }
      : {}),
    ...std(p),
    project_id: p.project_id,
  };
}

export function securityGroupRuleView(r: SecurityGroupRuleRow, defaultGroup: boolean) {
  return {
    id: r.id,
    tenant_id: r.project_id,
    security_group_id: r.security_group_id,
    ethertype: r.ethertype,
    direction: r.direction,
    protocol: r.protocol,
    port_range_min: r.port_range_min,
    port_range_max: r.port_range_max,
    remote_ip_prefix: r.remote_ip_prefix,
    remote_address_group_id: null,
    normalized_cidr: r.remote_ip_prefix,
    remote_group_id: r.remote_group_id,
    belongs_to_default_sg: defaultGroup,
    ...std(r),
    project_id: r.project_id,
  };
}

export function securityGroupView(g: SecurityGroupRow, rules: readonly SecurityGroupRuleRow[]) {
  return {
    id: g.id,
    name: g.name,
    tenant_id: g.project_id,
    security_group_rules: rules.map((r) => securityGroupRuleView(r, g.default_of !== null)),
    stateful: g.stateful === 1,
    shared: false,
    ...std(g),
    project_id: g.project_id,
  };
}
