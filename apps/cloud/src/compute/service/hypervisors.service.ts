import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import { badRequest, notFound, OpenStackError } from '../../platform/http/errors.js';
import type { Microversion } from '../../platform/http/microversion.js';
import { isUuidLike } from '../../platform/ids.js';
import { likeSearch } from '../../platform/user-regex.js';
import type { HypervisorListQuery } from '../schemas/hypervisors.schemas.js';
import { MAX_LIMIT } from '../schemas/validation.js';
import { hostsStore, type NodeRow, type ServiceRow } from '../store/hosts.store.js';
import {
  type ComputeHost,
  type NodeWithService,
  nodesWithServices,
  toComputeHost,
  usageByHost,
  usageGroupsOf,
} from '../host/compute-hosts.js';

type Db = Kysely<Schema>;

// ---------------------------------------------------------------------------------------------
// os-hypervisors (nova/api/openstack/compute/hypervisors.py)
// ---------------------------------------------------------------------------------------------

export interface Hypervisor {
  node: NodeRow;
  service: ServiceRow;
  host: ComputeHost;
  /** Only when the caller asked for them (with_servers, or the old /servers route). */
  servers: { name: string; uuid: string }[] | null;
}

export interface HypervisorPage {
  hypervisors: Hypervisor[];
  requestedLimit: number | undefined;
  /** Next links are only built for paged listings (2.33+), never with a hostname pattern. */
  links: boolean;
  /** 2.75: `servers: []` is shown even when empty once with_servers was asked for. */
  withServers: boolean;
}

async function hypervisorsOf(db: Db, pairs: NodeWithService[], withServers: boolean): Promise<Hypervisor[]> {
  const servers = await hostsStore.hostedServers(
    db,
    pairs.map((p) => p.node.host),
  );
  const usage = await usageByHost(db, usageGroupsOf(servers));
  return pairs.map(({ node, service }) => ({
    node,
    service,
    host: toComputeHost(node, service, usage.get(node.host)),
    servers: withServers
      ? servers.filter((s) => s.host === node.host).map((s) => ({ name: s.name, uuid: s.id }))
      : null,
  }));
}

const noMatch = (pattern: string) => notFound(`No hypervisor matching '${pattern}' could be found.`);

/** `GET /os-hypervisors` and `/detail`, query handling per microversion (2.33 paging, 2.53 filters). */
export async function listHypervisors(
  db: Db,
  query: HypervisorListQuery,
  version: Microversion,
): Promise<HypervisorPage> {
  const v253 = version.atLeast('2.53');
  const paged = version.atLeast('2.33');
  const { limit: limitParam, marker, pattern, withServers } = query;
  let pairs = await nodesWithServices(db);
  let links = paged;
  if (pattern !== undefined) {
    if (limitParam !== undefined || marker) {
      throw badRequest(
        'Paging over hypervisors with the hypervisor_hostname_pattern query parameter is not supported.',
      );
    }
    links = false;
    // Nova's SQL `LIKE '%pattern%'`, in linear time however many wildcards it has.
    const hostnameLike = likeSearch(pattern);
    pairs = pairs.filter((p) => hostnameLike.test(p.node.hypervisor_hostname));
    if (pairs.length === 0) throw noMatch(pattern);
  } else if (paged) {
    if (marker !== undefined) {
      const all = await hostsStore.listNodes(db);
      const m = all.find((n) => (v253 ? n.uuid === marker : String(n.id) === marker));
      if (!m) throw badRequest(`marker [${marker}] not found`);
      pairs = pairs.filter((p) => p.node.id > m.id);
    }
    pairs = pairs.slice(0, Math.min(MAX_LIMIT, limitParam ?? MAX_LIMIT));
  }
  return {
    hypervisors: await hypervisorsOf(db, pairs, withServers),
    requestedLimit: limitParam,
    links,
    withServers,
  };
}

/** Ids are uuids from 2.53 (400 otherwise), integers before (404 otherwise). */
function validateHypervisorId(id: string, version: Microversion): void {
  if (version.atLeast('2.53')) {
    if (!isUuidLike(id)) throw badRequest(`Invalid uuid ${id}`);
  } else if (!/^\s*[+-]?\d+\s*$/.test(id)) {
    throw notFound(`Hypervisor with ID '${id}' could not be found.`);
  }
}

async function findHypervisorPair(db: Db, id: string, version: Microversion): Promise<NodeWithService> {
  const pairs = await nodesWithServices(db);
  const found = version.atLeast('2.53')
    ? pairs.find((p) => p.node.uuid === id)
    : pairs.find((p) => p.node.id === Number.parseInt(id, 10));
  if (!found) throw notFound(`Hypervisor with ID '${id}' could not be found.`);
  return found;
}

export async function showHypervisor(
  db: Db,
  id: string,
  withServers: boolean,
  version: Microversion,
): Promise<{ hypervisor: Hypervisor; withServers: boolean }> {
  validateHypervisorId(id, version);
  const pair = await findHypervisorPair(db, id, version);
  const [hypervisor] = await hypervisorsOf(db, [pair], withServers);
  return { hypervisor: hypervisor!, withServers };
}

export const PROCESS_STARTED_AT = Date.now();

/** libvirt's answer is the host's `uptime` output; ironic does not implement it (null / 501). */
export function hostUptime(h: ComputeHost, now = Date.now()): string | null {
  if (h.hypervisorType === 'ironic') return null;
  const clock = new Date(now).toISOString().slice(11, 19);
  const minutes = Math.floor((now - PROCESS_STARTED_AT) / 60_000);
  const days = Math.floor(minutes / 1440);
  const hh = Math.floor((minutes % 1440) / 60);
  const mm = minutes % 60;
  const since =
    days > 0
      ? `${days} day${days === 1 ? '' : 's'}, ${String(hh).padStart(2)}:${String(mm).padStart(2, '0')}`
      : hh > 0
        ? `${String(hh).padStart(2)}:${String(mm).padStart(2, '0')}`
        : `${mm} min`;
  return ` ${clock} up ${since},  0 users,  load average: 0.00, 0.00, 0.00`;
}

/** `GET /os-hypervisors/{id}/uptime` (below 2.88). */
export async function hypervisorUptime(
  db: Db,
  id: string,
  version: Microversion,
): Promise<{ hypervisor: Hypervisor; uptime: string }> {
  validateHypervisorId(id, version);
  const pair = await findHypervisorPair(db, id, version);
  const [hypervisor] = await hypervisorsOf(db, [pair], false);
  const uptime = hostUptime(hypervisor!.host);
  if (uptime === null) throw new OpenStackError(501, 'The requested functionality is not supported.');
  return { hypervisor: hypervisor!, uptime };
}

/** The pre-2.53 `/{pattern}/search` and `/{pattern}/servers` routes. */
export async function searchHypervisors(
  db: Db,
  pattern: string,
  withServers: boolean,
): Promise<Hypervisor[]> {
  const hostnameLike = likeSearch(pattern);
  const pairs = (await nodesWithServices(db)).filter((p) => hostnameLike.test(p.node.hypervisor_hostname));
  if (pairs.length === 0) throw noMatch(pattern);
  return hypervisorsOf(db, pairs, withServers);
}

/** `GET /os-hypervisors/statistics` (below 2.88): sums over every hypervisor. */
export async function hypervisorStatistics(db: Db) {
  const hosts = await hypervisorsOf(db, await nodesWithServices(db), false);
  const sum = (f: (h: ComputeHost) => number) => hosts.reduce((a, h) => a + f(h.host), 0);
  return {
    count: hosts.length,
    vcpus_used: sum((h) => h.usage.vcpus),
    local_gb_used: sum((h) => h.usage.localGb),
    memory_mb: sum((h) => h.capacity.memoryMb),
    current_workload: sum((h) => h.usage.currentWorkload),
    vcpus: sum((h) => h.capacity.vcpus),
    running_vms: sum((h) => h.usage.runningVms),
    free_disk_gb: sum((h) => h.free.localGb),
    disk_available_least: sum((h) => h.free.localGb),
    local_gb: sum((h) => h.capacity.localGb),
    free_ram_mb: sum((h) => h.free.memoryMb),
    memory_mb_used: sum((h) => h.usage.memoryMb),
  };
}
