import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import { ATTACH_MODE_MIN_SERVICE_VERSION } from '../hosts.js';
import {
  type HostedServerRow,
  type HostedUsageRow,
  hostsStore,
  type NodeRow,
  type ServiceRow,
} from '../store/hosts.store.js';

type Db = Kysely<Schema>;

// ---------------------------------------------------------------------------------------------
// Liveness. Emulated services never stop reporting, so a service is up unless an admin forced
// it down, and its heartbeat is the last 10 s report tick (Nova's report_interval).
// ---------------------------------------------------------------------------------------------

const REPORT_INTERVAL_MS = 10_000;

export const isUp = (s: ServiceRow): boolean => s.forced_down === 0;

/** The time Nova would show as the last report: the later of the last change and the last tick. */
export function lastHeartbeat(s: ServiceRow, now = Date.now()): string {
  const tick = new Date(Math.floor(now / REPORT_INTERVAL_MS) * REPORT_INTERVAL_MS).toISOString();
  return s.updated_at > tick ? s.updated_at : tick;
}

// ---------------------------------------------------------------------------------------------
// Compute hosts as the scheduler and the extension see them.
// ---------------------------------------------------------------------------------------------

/** Nova's reserved_host_memory_mb default: counted as used on every host. */
export const RESERVED_HOST_MEMORY_MB = 512;

export interface HostUsage {
  vcpus: number;
  memoryMb: number;
  localGb: number;
  runningVms: number;
  /** Servers with a task in progress (Nova's current_workload). */
  currentWorkload: number;
}

export interface ComputeHost {
  host: string;
  hypervisorHostname: string;
  hypervisorType: string;
  zone: string;
  serviceId: number;
  serviceUuid: string;
  nodeId: number;
  nodeUuid: string;
  /** Nova's service version; below ATTACH_MODE_MIN_SERVICE_VERSION attach modes are refused. */
  serviceVersion: number;
  supportsMultiattach: boolean;
  supportsAttachModes: boolean;
  status: 'enabled' | 'disabled';
  disabledReason: string | null;
  forcedDown: boolean;
  state: 'up' | 'down';
  /** Enabled and up: what Nova's ComputeFilter lets the scheduler pick. */
  schedulable: boolean;
  capacity: { vcpus: number; memoryMb: number; localGb: number };
  usage: HostUsage;
  free: { vcpus: number; memoryMb: number; localGb: number };
}

interface FlavorSize {
  vcpus: number;
  ram: number;
  disk: number;
  ephemeral: number;
  swap: number;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The flavor a server was built with, from its embedded copy (Nova's or flavor-table names). */
function embeddedFlavor(text: string): Partial<FlavorSize> {
  try {
    const f = JSON.parse(text) as Record<string, unknown>;
    const out: Partial<FlavorSize> = {};
    const vcpus = num(f['vcpus']);
    const ram = num(f['ram']) ?? num(f['memory_mb']);
    const disk = num(f['disk']) ?? num(f['root_gb']);
    const eph = num(f['ephemeral']) ?? num(f['ephemeral_gb']) ?? num(f['OS-FLV-EXT-DATA:ephemeral']);
    const swap = num(f['swap']);
    if (vcpus !== undefined) out.vcpus = vcpus;
    if (ram !== undefined) out.ram = ram;
    if (disk !== undefined) out.disk = disk;
    if (eph !== undefined) out.ephemeral = eph;
    if (swap !== undefined) out.swap = swap;
    return out;
  } catch {
    return {};
  }
}

/**
 * Per-host usage as Nova's resource tracker counts it: vCPUs and RAM of every live server plus
 * the reserved RAM; local disk only for servers booted from an image (a volume-backed root
 * lives on the volume service), plus ephemeral and swap.
 */
export async function usageByHost(db: Db, groups: HostedUsageRow[]): Promise<Map<string, HostUsage>> {
  const sizes = groups.map((g) => embeddedFlavor(g.flavor));
  const missing = [
    ...new Set(
      groups
        .filter((_, i) => sizes[i]!.vcpus === undefined || sizes[i]!.ram === undefined)
        .map((g) => g.flavor_id),
    ),
  ];
  const fallback = new Map((await hostsStore.flavorsByIds(db, missing)).map((f) => [f.id, f]));
  const out = new Map<string, HostUsage>();
  groups.forEach((g, i) => {
    const row = fallback.get(g.flavor_id);
    const size = { vcpus: 0, ram: 0, disk: 0, ephemeral: 0, swap: 0, ...row, ...sizes[i] };
    const u = out.get(g.host) ?? { vcpus: 0, memoryMb: 0, localGb: 0, runningVms: 0, currentWorkload: 0 };
    u.vcpus += g.servers * size.vcpus;
    u.memoryMb += g.servers * size.ram;
    // Swap rounds up to whole GB per server, as the scheduler claims it.
    u.localGb +=
      g.servers * ((g.volume_backed ? 0 : size.disk) + size.ephemeral + Math.ceil(size.swap / 1024));
    u.runningVms += g.servers;
    u.currentWorkload += g.busy;
    out.set(g.host, u);
  });
  return out;
}

/** One usage group per server, for callers that read the servers themselves. */
export const usageGroupsOf = (servers: HostedServerRow[]): HostedUsageRow[] =>
  servers.map((s) => ({
    host: s.host,
    flavor_id: s.flavor_id,
    flavor: s.flavor,
    volume_backed: s.image_id ? 0 : 1,
    servers: 1,
    busy: s.task_state ? 1 : 0,
  }));

export function toComputeHost(node: NodeRow, svc: ServiceRow, usage: HostUsage | undefined): ComputeHost {
  const u = usage ?? { vcpus: 0, memoryMb: 0, localGb: 0, runningVms: 0, currentWorkload: 0 };
  const used = {
    vcpus: u.vcpus,
    memoryMb: u.memoryMb + RESERVED_HOST_MEMORY_MB,
    localGb: u.localGb,
    runningVms: u.runningVms,
    currentWorkload: u.currentWorkload,
  };
  const enabled = svc.status !== 'disabled';
  return {
    host: node.host,
    hypervisorHostname: node.hypervisor_hostname,
    hypervisorType: node.hypervisor_type,
    zone: svc.zone,
    serviceId: svc.id,
    serviceUuid: svc.uuid,
    nodeId: node.id,
    nodeUuid: node.uuid,
    serviceVersion: svc.version,
    supportsMultiattach: node.supports_multiattach === 1,
    supportsAttachModes: svc.version >= ATTACH_MODE_MIN_SERVICE_VERSION,
    status: enabled ? 'enabled' : 'disabled',
    disabledReason: svc.disabled_reason,
    forcedDown: svc.forced_down === 1,
    state: isUp(svc) ? 'up' : 'down',
    schedulable: enabled && isUp(svc),
    capacity: { vcpus: node.vcpus, memoryMb: node.memory_mb, localGb: node.local_gb },
    usage: used,
    free: {
      vcpus: node.vcpus - used.vcpus,
      memoryMb: node.memory_mb - used.memoryMb,
      localGb: node.local_gb - used.localGb,
    },
  };
}

export interface NodeWithService {
  node: NodeRow;
  service: ServiceRow;
}

/** Nodes whose service still exists (Nova skips orphaned compute nodes in listings). */
export async function nodesWithServices(db: Db): Promise<NodeWithService[]> {
  const [nodes, services] = await Promise.all([hostsStore.listNodes(db), hostsStore.listServices(db)]);
  const byId = new Map(services.map((s) => [s.id, s]));
  return nodes.flatMap((node) => {
    const service = byId.get(node.service_id);
    return service ? [{ node, service }] : [];
  });
}

/** Every nova-compute host with its capabilities, state and usage, in node order. */
export async function listComputeHosts(db: Db): Promise<ComputeHost[]> {
  const pairs = await nodesWithServices(db);
  const usage = await usageByHost(db, await hostsStore.hostedUsage(db));
  return pairs.map(({ node, service }) => toComputeHost(node, service, usage.get(node.host)));
}

/**
 * The hosts the scheduler may place a server on: the service is enabled and not forced down.
 * Callers filter further (zone, capacity, multiattach, attach modes) and pick one.
 */
export async function listSchedulableHosts(db: Db): Promise<ComputeHost[]> {
  return (await listComputeHosts(db)).filter((h) => h.schedulable);
}

/** One compute host by name (e.g. a server's host at attach time), or undefined. */
export async function getComputeHost(db: Db, host: string): Promise<ComputeHost | undefined> {
  return (await listComputeHosts(db)).find((h) => h.host === host);
}

/**
 * Placement traits of a host: the driver capability traits (COMPUTE_VOLUME_MULTI_ATTACH when it
 * can share disks), COMPUTE_STATUS_DISABLED for a disabled service (as Nova sets since Stein),
 * and CUSTOM_VOLUME_ATTACH_MODE for hosts new enough for the 2.105 attach modes.
 */
export function hostTraits(h: ComputeHost): string[] {
  const traits =
    h.hypervisorType === 'ironic'
      ? []
      : [
          'COMPUTE_DEVICE_TAGGING',
          'COMPUTE_NET_ATTACH_DETACH',
          'COMPUTE_VOLUME_ATTACH_WITH_TAG',
          'COMPUTE_VOLUME_EXTEND',
        ];
  if (h.supportsMultiattach) traits.push('COMPUTE_VOLUME_MULTI_ATTACH');
  if (h.status === 'disabled') traits.push('COMPUTE_STATUS_DISABLED');
  if (h.supportsAttachModes) traits.push('CUSTOM_VOLUME_ATTACH_MODE');
  return traits.sort();
}

// ---------------------------------------------------------------------------------------------
// os-availability-zone (nova/api/openstack/compute/availability_zone.py)
// ---------------------------------------------------------------------------------------------

export const INTERNAL_ZONE = 'internal';

export interface ZoneHostService {
  binary: string;
  available: boolean;
  active: boolean;
  updatedAt: string;
}

export interface Zone {
  name: string;
  available: boolean;
  /** Detail only: host -> its enabled services (null for unavailable zones). */
  hosts: Map<string, ZoneHostService[]> | null;
}

/** Zones with an enabled service are available; zones with only disabled ones are not. */
function splitZones(services: ServiceRow[]): { available: string[]; unavailable: string[] } {
  const available: string[] = [];
  for (const s of services)
    if (s.status !== 'disabled' && !available.includes(s.zone)) available.push(s.zone);
  const unavailable: string[] = [];
  for (const s of services) {
    if (s.status === 'disabled' && !available.includes(s.zone) && !unavailable.includes(s.zone))
      unavailable.push(s.zone);
  }
  return { available, unavailable };
}

/** `GET /os-availability-zone`: the internal zone is hidden, hosts are not shown. */
export async function listZones(db: Db): Promise<Zone[]> {
  const { available, unavailable } = splitZones(await hostsStore.listServices(db));
  return [
    ...available.filter((z) => z !== INTERNAL_ZONE).map((name) => ({ name, available: true, hosts: null })),
    ...unavailable
      .filter((z) => z !== INTERNAL_ZONE)
      .map((name) => ({ name, available: false, hosts: null })),
  ];
}

/** `GET /os-availability-zone/detail` (admin): every zone, with the enabled services per host. */
export async function listZonesDetail(db: Db): Promise<Zone[]> {
  const services = await hostsStore.listServices(db);
  const { available, unavailable } = splitZones(services);
  const now = Date.now();
  return [
    ...available.map((name) => {
      const hosts = new Map<string, ZoneHostService[]>();
      for (const s of services) {
        if (s.zone !== name || s.status === 'disabled') continue;
        const list = hosts.get(s.host) ?? [];
        list.push({ binary: s.binary, available: isUp(s), active: true, updatedAt: lastHeartbeat(s, now) });
        hosts.set(s.host, list);
      }
      return { name, available: true, hosts };
    }),
    ...unavailable.map((name) => ({ name, available: false, hosts: null })),
  ];
}
