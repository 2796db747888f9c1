import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import type { Store } from '../../platform/db/store.js';
import { badRequest, conflict, notFound, OpenStackError } from '../../platform/http/errors.js';
import type { Microversion } from '../../platform/http/microversion.js';
import { isUuidLike } from '../../platform/ids.js';
import { nowIso } from '../../platform/time.js';
import { likeSearch } from '../../platform/user-regex.js';
import { BOOLEAN_ENUM_NO_LETTERS, boolFromString } from '../../platform/validation/parameter-types.js';
import { ATTACH_MODE_MIN_SERVICE_VERSION } from '../hosts.js';
import {
  type HostedServerRow,
  type HostedUsageRow,
  hostsStore,
  type NodeRow,
  type ServiceRow,
} from '../store/hosts.store.js';
import {
  enumParam,
  type JsonSchema,
  lastParam,
  MAX_LIMIT,
  nonNegativeIntParam,
  type Query,
  rejectUnknownParams,
  singleValueParam,
  validateBody,
} from './request-schema.js';

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
async function usageByHost(db: Db, groups: HostedUsageRow[]): Promise<Map<string, HostUsage>> {
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
const usageGroupsOf = (servers: HostedServerRow[]): HostedUsageRow[] =>
  servers.map((s) => ({
    host: s.host,
    flavor_id: s.flavor_id,
    flavor: s.flavor,
    volume_backed: s.image_id ? 0 : 1,
    servers: 1,
    busy: s.task_state ? 1 : 0,
  }));

function toComputeHost(node: NodeRow, svc: ServiceRow, usage: HostUsage | undefined): ComputeHost {
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

interface NodeWithService {
  node: NodeRow;
  service: ServiceRow;
}

/** Nodes whose service still exists (Nova skips orphaned compute nodes in listings). */
async function nodesWithServices(db: Db): Promise<NodeWithService[]> {
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

// ---------------------------------------------------------------------------------------------
// os-services (nova/api/openstack/compute/services.py)
// ---------------------------------------------------------------------------------------------

const serviceString: JsonSchema = { type: 'string', minLength: 1, maxLength: 255 };
const serviceBoolean: JsonSchema = { type: ['boolean', 'string'], enum: BOOLEAN_ENUM_NO_LETTERS };

/** `schemas/services.py` `service_update_v2_53`. */
const updateSchemaV253: JsonSchema = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['enabled', 'disabled'] },
    disabled_reason: serviceString,
    forced_down: serviceBoolean,
  },
  additionalProperties: false,
};

/** `service_update` (2.0) and `service_update_v211` (+ forced_down). */
const legacyUpdateSchema = (withForce: boolean): JsonSchema => ({
  type: 'object',
  properties: {
    host: serviceString,
    binary: serviceString,
    disabled_reason: serviceString,
    ...(withForce ? { forced_down: serviceBoolean } : {}),
  },
  required: ['host', 'binary'],
  additionalProperties: false,
});
const legacyUpdateSchemas = [legacyUpdateSchema(false), legacyUpdateSchema(true)] as const;

export async function listServices(
  db: Db,
  query: Query,
  version: Microversion,
  authorize: () => void,
): Promise<ServiceRow[]> {
  if (version.atLeast('2.75')) rejectUnknownParams(query, ['host', 'binary']);
  authorize();
  const host = lastParam(query, 'host');
  const binary = lastParam(query, 'binary');
  return hostsStore.listServices(db, { ...(host ? { host } : {}), ...(binary ? { binary } : {}) });
}

/** The 2.53 body `{status, disabled_reason, forced_down}`. */
export function parseServiceUpdateV253(body: unknown): Record<string, unknown> {
  validateBody(updateSchemaV253, body);
  return body as Record<string, unknown>;
}

const notComputeError = (binary: string) =>
  badRequest(`Updating a ${binary} service is not supported. Only nova-compute services can be updated.`);

/**
 * `PUT /os-services/{service_id}` from 2.53: enable/disable (with an optional reason) and force
 * down a nova-compute service. A disabled or forced-down host leaves the scheduler's candidates.
 */
export async function updateServiceV253(
  store: Store,
  id: string,
  body: Record<string, unknown>,
  authorize: () => void,
): Promise<ServiceRow> {
  if (!isUuidLike(id)) throw badRequest(`Invalid uuid ${id}`);
  authorize();
  return store.transaction(async (tx) => {
    const svc = await hostsStore.serviceByUuid(tx, id);
    if (!svc) throw notFound(`Service ${id} could not be found.`);
    if (svc.binary !== 'nova-compute') throw notComputeError(svc.binary);
    const changes: Partial<ServiceRow> = {};
    if ('status' in body) {
      if (body['status'] === 'enabled') {
        if (body['disabled_reason'])
          throw badRequest("Specifying 'disabled_reason' with status 'enabled' is invalid.");
        changes.status = 'enabled';
        changes.disabled_reason = null;
      } else {
        changes.status = 'disabled';
        changes.disabled_reason =
          typeof body['disabled_reason'] === 'string' ? body['disabled_reason'] : null;
      }
    }
    if ('forced_down' in body) changes.forced_down = boolFromString(body['forced_down']) ? 1 : 0;
    if (Object.keys(changes).length === 0) {
      throw badRequest("No updates were requested. Fields 'status' or 'forced_down' should be specified.");
    }
    changes.updated_at = nowIso();
    await hostsStore.updateService(tx, svc.id, changes);
    return { ...svc, ...changes };
  });
}

/** Below 2.53: `PUT /os-services/{enable|disable|disable-log-reason|force-down}` with host+binary. */
export function parseServiceUpdateLegacy(body: unknown, version: Microversion): Record<string, unknown> {
  validateBody(legacyUpdateSchemas[version.atLeast('2.11') ? 1 : 0], body);
  return body as Record<string, unknown>;
}

export interface LegacyUpdateResult {
  host: string;
  binary: string;
  status?: 'enabled' | 'disabled';
  disabled_reason?: string;
  forced_down?: boolean;
}

export async function updateServiceLegacy(
  store: Store,
  action: string,
  body: Record<string, unknown>,
  version: Microversion,
): Promise<LegacyUpdateResult> {
  const actions = [
    'enable',
    'disable',
    'disable-log-reason',
    ...(version.atLeast('2.11') ? ['force-down'] : []),
  ];
  if (!actions.includes(action)) throw notFound('Unknown action');
  const host = String(body['host']);
  const binary = String(body['binary']);
  const changes: Partial<ServiceRow> = {};
  const result: LegacyUpdateResult = { host, binary };
  if (action === 'enable') {
    changes.status = 'enabled';
    changes.disabled_reason = null;
    result.status = 'enabled';
  } else if (action === 'disable' || action === 'disable-log-reason') {
    let reason: string | null = null;
    if (action === 'disable-log-reason') {
      if (!('disabled_reason' in body)) throw badRequest('Missing disabled reason field');
      reason = String(body['disabled_reason']);
    }
    changes.status = 'disabled';
    changes.disabled_reason = reason;
    result.status = 'disabled';
    if (reason) result.disabled_reason = reason;
  } else {
    if (!('forced_down' in body)) throw badRequest('Missing forced_down field');
    const down = boolFromString(body['forced_down']);
    changes.forced_down = down ? 1 : 0;
    result.forced_down = down;
  }
  if (binary !== 'nova-compute') throw notComputeError(binary);
  await store.transaction(async (tx) => {
    const svc = await hostsStore.serviceByHostBinary(tx, host, binary);
    if (!svc) throw notFound(`Host '${host}' is not mapped to any cell`);
    await hostsStore.updateService(tx, svc.id, { ...changes, updated_at: nowIso() });
  });
  return result;
}

/** `DELETE /os-services/{id}`: refused while the host still runs servers. */
export async function deleteService(store: Store, id: string, version: Microversion): Promise<void> {
  const byUuid = version.atLeast('2.53');
  if (byUuid && !isUuidLike(id)) throw badRequest(`Invalid uuid ${id}`);
  if (!byUuid && !/^\s*[+-]?\d+\s*$/.test(id))
    throw badRequest('Invalid input received: id must be an integer');
  await store.transaction(async (tx) => {
    const svc = byUuid
      ? await hostsStore.serviceByUuid(tx, id)
      : await hostsStore.serviceById(tx, Number.parseInt(id, 10));
    if (!svc) throw notFound(`Service ${id} not found.`);
    if (svc.binary === 'nova-compute' && (await hostsStore.countServersOnHost(tx, svc.host)) > 0) {
      throw conflict(
        'Unable to delete compute service that is hosting instances. Migrate or delete the instances first.',
      );
    }
    await hostsStore.deleteService(tx, svc.id);
  });
}

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

const HYPERVISOR_LIST_PARAMS_253 = ['limit', 'marker', 'hypervisor_hostname_pattern', 'with_servers'];

/** `GET /os-hypervisors` and `/detail`, query handling per microversion (2.33 paging, 2.53 filters). */
export async function listHypervisors(
  db: Db,
  query: Query,
  version: Microversion,
  authorize: () => void,
): Promise<HypervisorPage> {
  const v253 = version.atLeast('2.53');
  const paged = version.atLeast('2.33');
  let limitParam: number | undefined;
  let marker: string | undefined;
  let pattern: string | undefined;
  let withServers = false;
  if (v253) {
    rejectUnknownParams(query, HYPERVISOR_LIST_PARAMS_253);
    limitParam = nonNegativeIntParam(query, 'limit', true);
    marker = singleValueParam(query, 'marker');
    pattern = singleValueParam(query, 'hypervisor_hostname_pattern');
    const ws = enumParam(query, 'with_servers', BOOLEAN_ENUM_NO_LETTERS, true);
    withServers = ws !== undefined && boolFromString(ws);
  } else if (paged) {
    limitParam = nonNegativeIntParam(query, 'limit');
    marker = lastParam(query, 'marker');
  }
  authorize();

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
  query: Query,
  version: Microversion,
  authorize: () => void,
): Promise<{ hypervisor: Hypervisor; withServers: boolean }> {
  let withServers = false;
  if (version.atLeast('2.53')) {
    rejectUnknownParams(query, ['with_servers']);
    const ws = enumParam(query, 'with_servers', BOOLEAN_ENUM_NO_LETTERS, true);
    withServers = ws !== undefined && boolFromString(ws);
  }
  authorize();
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
  authorize: () => void,
): Promise<{ hypervisor: Hypervisor; uptime: string }> {
  authorize();
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
