import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import type { FlavorSnapshot } from '../store/servers.store.js';
import { type ComputeHost, listComputeHosts } from './compute-hosts.js';

/**
 * The emulated nova-scheduler over the hosts the discovery service reports (the same usage the
 * hypervisor views show): filters (enabled and up, availability zone, capacity, and two
 * capability filters real Nova lacks: shareable disks for a multiattach volume, a service new
 * enough for attach modes for a read-only mapping), then the RAM weigher. A forced host
 * (`zone:host`) skips the filters, as Nova's forced hosts do; a requested host (2.74) only
 * narrows them.
 */

type Db = Kysely<Schema>;

export interface ScheduleRequest {
  flavor: FlavorSnapshot;
  /** Volume-backed servers claim no local root disk. */
  volumeBacked: boolean;
  availabilityZone: string | null;
  forcedHost: string | null;
  forcedNode: string | null;
  requestedHost: string | null;
  requestedNode: string | null;
  /** A multiattach volume among its mappings: the host's driver must share disks. */
  needsMultiattach: boolean;
  /** A read-only mapping: the host's nova-compute must know attach modes. */
  needsAttachMode: boolean;
  /** Hosts not to use (a resize never stays on its host: allow_resize_to_same_host is off). */
  ignoreHosts: readonly string[];
  // --- cloud15: server groups ---
  /** The server's group: its policy and where its members run (a batch shares one, see claimHost). */
  group?: GroupPolicy | null;
}

export interface GroupPolicy {
  policy: string;
  /** 2.64 anti-affinity rule; 1 otherwise. */
  maxServerPerHost: number;
  /** One entry per placed member: the host it runs on. */
  memberHosts: string[];
}

const membersOn = (g: GroupPolicy, host: string) => g.memberHosts.filter((h) => h === host).length;

/** ServerGroupAffinityFilter / ServerGroupAntiAffinityFilter (the soft policies only weigh). */
function groupAllows(g: GroupPolicy | null | undefined, host: string): boolean {
  if (!g) return true;
  if (g.policy === 'affinity') return g.memberHosts.length === 0 || g.memberHosts.includes(host);
  if (g.policy === 'anti-affinity') return membersOn(g, host) < g.maxServerPerHost;
  return true;
}

/** ServerGroupSoft(Anti)AffinityWeigher: more (or fewer) members on the host ranks it first. */
function groupWeight(g: GroupPolicy | null | undefined, host: string): number {
  if (!g) return 0;
  if (g.policy === 'soft-affinity') return membersOn(g, host);
  if (g.policy === 'soft-anti-affinity') return -membersOn(g, host);
  return 0;
}

export interface Placed {
  host: string;
  node: string;
  zone: string;
}

function claimOf(flavor: FlavorSnapshot, volumeBacked: boolean) {
  return {
    vcpus: flavor.vcpus,
    memoryMb: flavor.ram,
    localGb: (volumeBacked ? 0 : flavor.disk) + flavor.ephemeral + Math.ceil(flavor.swap / 1024),
  };
}

const placed = (h: ComputeHost): Placed => ({ host: h.host, node: h.hypervisorHostname, zone: h.zone });

/**
 * Picks a host for one server, or null (NoValidHost). Call inside the transaction that records
 * the choice, after `serversStore.lockScheduler`, so two builds never take the same last slot.
 */
export async function selectHost(db: Db, req: ScheduleRequest): Promise<Placed | null> {
  return pickHost(await listComputeHosts(db), req);
}

/**
 * `selectHost` over hosts already read: a batch (all servers of one request, as Nova's single
 * select_destinations call) reads them once and subtracts each claim with `claimHost`.
 */
export function pickHost(hosts: readonly ComputeHost[], req: ScheduleRequest): Placed | null {
  if (req.forcedHost || req.forcedNode) {
    const match = hosts.find(
      (h) =>
        (!req.forcedHost || h.host === req.forcedHost) &&
        (!req.forcedNode || h.hypervisorHostname === req.forcedNode),
    );
    return match ? placed(match) : null;
  }
  const claim = claimOf(req.flavor, req.volumeBacked);
  const passing = hosts.filter(
    (h) =>
      h.schedulable &&
      !req.ignoreHosts.includes(h.host) &&
      (!req.requestedHost || h.host === req.requestedHost) &&
      (!req.requestedNode || h.hypervisorHostname === req.requestedNode) &&
      (!req.availabilityZone || h.zone === req.availabilityZone) &&
      (!req.needsMultiattach || h.supportsMultiattach) &&
      (!req.needsAttachMode || h.supportsAttachModes) &&
      h.free.vcpus >= claim.vcpus &&
      h.free.memoryMb >= claim.memoryMb &&
      h.free.localGb >= claim.localGb &&
      groupAllows(req.group, h.host),
  );
  // The group weigher outranks the RAMWeigher (Nova's default multipliers make it so); then the
  // most free memory wins; ties go to the host name, so runs are repeatable.
  passing.sort(
    (a, b) =>
      groupWeight(req.group, b.host) - groupWeight(req.group, a.host) ||
      b.free.memoryMb - a.free.memoryMb ||
      (a.host < b.host ? -1 : 1),
  );
  const best = passing[0];
  return best ? placed(best) : null;
}

/** What a server placed on `placed` takes from that host, for the next pick of the same batch. */
export function claimHost(hosts: readonly ComputeHost[], at: Placed, req: ScheduleRequest): void {
  const h = hosts.find((x) => x.host === at.host && x.hypervisorHostname === at.node);
  if (!h) return;
  const claim = claimOf(req.flavor, req.volumeBacked);
  h.free.vcpus -= claim.vcpus;
  h.free.memoryMb -= claim.memoryMb;
  h.free.localGb -= claim.localGb;
  // The next server of the same group sees this one.
  req.group?.memberHosts.push(at.host);
}

/** Zones with at least one enabled compute service (`get_availability_zones(..., True)`). */
export async function availableZones(db: Db): Promise<Set<string>> {
  return new Set((await listComputeHosts(db)).filter((h) => h.status === 'enabled').map((h) => h.zone));
}

/** 2.74 `_validate_host_or_node`: the host (and node) must exist. */
export async function computeHostExists(db: Db, host: string | null, node: string | null): Promise<boolean> {
  return (await listComputeHosts(db)).some(
    (h) => (!host || h.host === host) && (!node || h.hypervisorHostname === node),
  );
}

/** `NoValidHost`'s message when the scheduler returns nothing. */
export const NO_VALID_HOST = 'No valid host was found. There are not enough hosts available.';
