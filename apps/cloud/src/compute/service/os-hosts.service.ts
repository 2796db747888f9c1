import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import { notFound } from '../../platform/http/errors.js';
import { getComputeHost, type HostUsage, usageByHost } from '../host/compute-hosts.js';
import type { HostUpdate } from '../schemas/os-hosts.schemas.js';
import { hostsStore } from '../store/hosts.store.js';

type Db = Kysely<Schema>;

/**
 * Nova's os-hosts (`nova/api/openstack/compute/hosts.py`, 2.1-2.42): the enabled services by
 * host, one host's resources, and the host actions the fake driver answers without changing
 * anything (its set_host_enabled, host_maintenance_mode and host_power_action only echo).
 */

export interface HostListEntry {
  hostName: string;
  /** The service's topic: the binary without `nova-`. */
  service: string;
  zone: string;
}

/** `GET /os-hosts[?zone=]`: enabled services; an empty zone filters nothing. */
export async function listHosts(db: Db, zone: string | undefined): Promise<HostListEntry[]> {
  const services = await hostsStore.listServices(db);
  return services
    .filter((s) => s.status !== 'disabled' && (!zone || s.zone === zone))
    .map((s) => ({ hostName: s.host, service: s.binary.replace(/^nova-/, ''), zone: s.zone }));
}

/** HostMappingNotFound: a host no cell knows. */
const hostNotMapped = (host: string) => notFound(`Host '${host}' is not mapped to any cell`);

/** `_assert_host_exists`: a nova-compute host, else the mapping's 404. */
async function assertComputeHost(db: Db, host: string) {
  const found = await getComputeHost(db, host);
  if (!found) throw hostNotMapped(host);
  return found;
}

export interface HostResource {
  host: string;
  project: string;
  cpu: number;
  memoryMb: number;
  diskGb: number;
}

const resourceOf = (
  host: string,
  project: string,
  u: { vcpus: number; memoryMb: number; localGb: number },
) => ({
  host,
  project,
  cpu: u.vcpus,
  memoryMb: u.memoryMb,
  diskGb: u.localGb,
});

/**
 * `GET /os-hosts/{host}`: the node's totals, what it uses now (the resource tracker's count,
 * reserved memory included), the sum of its servers' flavors (root and ephemeral disk whatever
 * backs the root) and that sum per project.
 */
export async function showHost(db: Db, host: string): Promise<HostResource[]> {
  const node = await assertComputeHost(db, host);
  const servers = await hostsStore.hostedServersWithProject(db, host);
  // usageByHost keyed by project: every server counted with its local root disk (Nova's root_gb).
  const byProject = await usageByHost(
    db,
    servers.map((s) => ({
      host: s.project_id,
      flavor_id: s.flavor_id,
      flavor: s.flavor,
      volume_backed: 0,
      servers: 1,
      busy: 0,
    })),
  );
  const total: HostUsage = { vcpus: 0, memoryMb: 0, localGb: 0, runningVms: 0, currentWorkload: 0 };
  for (const u of byProject.values()) {
    total.vcpus += u.vcpus;
    total.memoryMb += u.memoryMb;
    total.localGb += u.localGb;
  }
  return [
    resourceOf(host, '(total)', node.capacity),
    resourceOf(host, '(used_now)', node.usage),
    resourceOf(host, '(used_max)', total),
    ...[...byProject].map(([project, u]) => resourceOf(host, project, u)),
  ];
}

export interface HostUpdateResult {
  host: string;
  status?: 'enabled' | 'disabled';
  maintenanceMode?: 'on_maintenance' | 'off_maintenance';
}

/** `PUT /os-hosts/{host}`: the fake driver echoes the asked state (captures 986, and 994-995 in INDEX). */
export async function updateHost(db: Db, host: string, update: HostUpdate): Promise<HostUpdateResult> {
  const result: HostUpdateResult = { host };
  if (update.enabled !== undefined) {
    await assertComputeHost(db, host);
    result.status = update.enabled ? 'enabled' : 'disabled';
  }
  if (update.maintenance !== undefined) {
    await assertComputeHost(db, host);
    result.maintenanceMode = update.maintenance ? 'on_maintenance' : 'off_maintenance';
  }
  return result;
}

export type PowerAction = 'reboot' | 'shutdown' | 'startup';

/** `GET /os-hosts/{host}/{reboot|shutdown|startup}`: the fake driver answers with the action. */
export async function hostPowerAction(db: Db, host: string, action: PowerAction) {
  await assertComputeHost(db, host);
  return { host, powerAction: action };
}
