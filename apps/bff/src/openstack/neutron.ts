import type { CloudClient } from './cloud-client.js';
import { queryString } from './paging.js';

/**
 * Neutron calls the BFF makes (v2.0), turned into plain objects. Only this file knows Neutron's
 * JSON. A cloud whose catalog has no network service answers empty lists here, and so does the
 * reference cloud's stub Neutron: callers treat both as "no networks".
 */

export interface Subnet {
  id: string;
  name: string;
  networkId: string;
  cidr: string;
  ipVersion: number;
  gatewayIp: string | null;
}

export interface Network {
  id: string;
  name: string;
  status: string;
  projectId: string | null;
  shared: boolean;
  external: boolean;
  subnetIds: string[];
}

export interface SecurityGroup {
  id: string;
  name: string;
  description: string;
  projectId: string | null;
  ruleCount: number;
}

interface RawNetwork {
  id: string;
  name?: string;
  status?: string;
  project_id?: string;
  tenant_id?: string;
  shared?: boolean;
  'router:external'?: boolean;
  subnets?: string[];
}

interface RawSubnet {
  id: string;
  name?: string;
  network_id: string;
  cidr?: string;
  ip_version?: number;
  gateway_ip?: string | null;
}

interface RawSecurityGroup {
  id: string;
  name?: string;
  description?: string;
  project_id?: string;
  tenant_id?: string;
  security_group_rules?: unknown[];
}

const toNetwork = (n: RawNetwork): Network => ({
  id: n.id,
  name: n.name ?? '',
  status: n.status ?? 'UNKNOWN',
  projectId: n.project_id ?? n.tenant_id ?? null,
  shared: n.shared === true,
  external: n['router:external'] === true,
  subnetIds: n.subnets ?? [],
});

const toSubnet = (s: RawSubnet): Subnet => ({
  id: s.id,
  name: s.name ?? '',
  networkId: s.network_id,
  cidr: s.cidr ?? '',
  ipVersion: s.ip_version ?? 4,
  gatewayIp: s.gateway_ip ?? null,
});

/**
 * The networks a server of the session's project may be plugged into, with their subnets: the
 * project's own, shared ones and external ones. Neutron shows a member exactly these; an admin
 * sees every project's, so the others are left out here. Two calls, at once.
 */
export async function listProjectNetworks(
  cloud: CloudClient,
): Promise<{ network: Network; subnets: Subnet[] }[]> {
  if (!cloud.hasNetwork) return [];
  const [nets, subs] = await Promise.all([
    cloud.neutron<{ networks?: RawNetwork[] }>('GET', '/v2.0/networks'),
    cloud.neutron<{ subnets?: RawSubnet[] }>('GET', '/v2.0/subnets'),
  ]);
  const project = cloud.session.project.id;
  const subnets = (subs.body?.subnets ?? []).map(toSubnet);
  return (nets.body?.networks ?? [])
    .map(toNetwork)
    .filter((n) => n.projectId === project || n.shared || n.external)
    .map((network) => ({
      network,
      subnets: subnets.filter((s) => s.networkId === network.id),
    }));
}

/** The project's security groups (Neutron makes `default` on the first look). One call. */
export async function listSecurityGroups(cloud: CloudClient): Promise<SecurityGroup[]> {
  if (!cloud.hasNetwork) return [];
  const res = await cloud.neutron<{ security_groups?: RawSecurityGroup[] }>(
    'GET',
    `/v2.0/security-groups${queryString({ project_id: cloud.session.project.id })}`,
  );
  return (res.body?.security_groups ?? []).map((g) => ({
    id: g.id,
    name: g.name ?? '',
    description: g.description ?? '',
    projectId: g.project_id ?? g.tenant_id ?? null,
    ruleCount: g.security_group_rules?.length ?? 0,
  }));
}
