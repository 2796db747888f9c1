import { type AttachMode, attachModeSchema } from '@sv/shared';
import type { CloudClient } from './cloud-client.js';
import { OpenStackFault } from './fault.js';
import { COMPUTE, versionAtLeast } from './microversions.js';
import { type CollectionPage, listAllPages, queryString } from './paging.js';

/**
 * Nova calls the BFF makes, turned into plain objects. Only this file knows Nova's JSON:
 * the rest of the BFF sees the interfaces below.
 */

export interface NovaServer {
  id: string;
  name: string;
  status: string;
  taskState: string | null;
  vmState: string | null;
  projectId: string | null;
  flavor: { id: string | null; name: string | null; vcpus: number | null; ramMb: number | null };
  imageId: string | null;
  availabilityZone: string | null;
  /** Only admins are shown the compute host. */
  host: string | null;
  /** Nova's per-project hash of the host, visible to everyone. */
  hostId: string | null;
  fault: string | null;
  createdAt: string;
  updatedAt: string | null;
  /** Admins only (2.3+). */
  reservationId: string | null;
  /** Volumes Nova lists on the server (os-extended-volumes). */
  volumeIds: string[];
  /** Nova's `addresses`, flattened: network name, address, IP version, fixed or floating. */
  addresses: { network: string; address: string; version: number; type: string | null }[];
  keyName: string | null;
  /** Security group names (Nova lists a group once per port; repeats are dropped). */
  securityGroups: string[];
}

export interface NovaAttachment {
  serverId: string;
  volumeId: string;
  device: string | null;
  /** The Cinder attachment id (2.89+). */
  attachmentId: string | null;
  /** Nova's block device mapping id (2.89+). */
  bdmId: string | null;
  /** attach_mode at 2.105; null when the cloud does not report it. */
  mode: AttachMode | null;
  deleteOnTermination: boolean | null;
}

export interface Flavor {
  id: string;
  name: string;
  vcpus: number;
  ramMb: number;
  diskGb: number;
  isPublic: boolean;
}

export interface AvailabilityZone {
  name: string;
  available: boolean;
}

export interface ComputeHost {
  host: string;
  hypervisorHostname: string | null;
  hypervisorType: string | null;
  zone: string | null;
  state: string;
  status: string;
  disabledReason: string | null;
  forcedDown: boolean | null;
  /** The nova-compute service version; only the bundled cloud reports it. */
  serviceVersion: number | null;
  /** Null when the cloud does not say (a real cloud without the extension). */
  supportsMultiattach: boolean | null;
  supportsAttachModes: boolean | null;
  schedulable: boolean;
  /** Where the facts came from: the bundled cloud's one-call extension, or os-services + os-hypervisors. */
  source: 'extension' | 'standard';
}

export interface BlockDevice {
  sourceType: 'volume' | 'image' | 'blank';
  destinationType: 'volume' | 'local';
  uuid?: string;
  bootIndex: number | null;
  volumeSize?: number;
  deleteOnTermination?: boolean;
  /** Sent only at 2.105. */
  attachMode?: AttachMode;
}

export interface CreateServersInput {
  name: string;
  flavorId: string;
  imageId?: string;
  availabilityZone?: string;
  blockDevices?: BlockDevice[];
  minCount?: number;
  maxCount?: number;
  /**
   * Network ids (a port on each), or 'none' (2.37+) to keep servers off any network. Absent: Nova's
   * `auto` from 2.37 (the project's one network), nothing below (the same choice, made by Nova).
   */
  networks?: 'none' | string[];
  /** Security group names or ids; absent: Nova's (the project's `default`). */
  securityGroups?: string[];
  keyName?: string;
  metadata?: Record<string, string>;
}

export interface CreateServersResult {
  /** The first server's id (absent when only a reservation id came back). */
  serverId: string | null;
  reservationId: string | null;
}

// --- Nova's JSON (only the keys we read) ------------------------------------------------------

interface RawServer {
  id: string;
  name: string;
  status: string;
  tenant_id?: string;
  image?: { id?: string } | '';
  flavor?: { id?: string; original_name?: string; vcpus?: number; ram?: number };
  created: string;
  updated?: string;
  hostId?: string;
  fault?: { message?: string };
  'OS-EXT-AZ:availability_zone'?: string;
  'OS-EXT-SRV-ATTR:host'?: string | null;
  'OS-EXT-SRV-ATTR:reservation_id'?: string | null;
  'OS-EXT-STS:task_state'?: string | null;
  'OS-EXT-STS:vm_state'?: string | null;
  'os-extended-volumes:volumes_attached'?: { id: string }[];
  addresses?: Record<string, { addr?: string; version?: number; 'OS-EXT-IPS:type'?: string }[]>;
  key_name?: string | null;
  security_groups?: { name?: string }[];
}

interface RawAttachment {
  id?: string;
  volumeId: string;
  serverId: string;
  device?: string | null;
  attachment_id?: string | null;
  bdm_uuid?: string | null;
  attach_mode?: string;
  delete_on_termination?: boolean;
}

/** The microversion for reading servers and attachments: as new as we understand, capped by the cloud. */
export const readVersion = (cloud: CloudClient) => cloud.computeVersion(COMPUTE.enhancements);

/** Whether the cloud takes and reports attach modes (the enhancement microversion). */
export const supportsAttachModes = (cloud: CloudClient) => cloud.computeHas(COMPUTE.enhancements);

const orNull = <T>(v: T | undefined | null | ''): T | null => (v === undefined || v === '' ? null : v);

function toServer(s: RawServer): NovaServer {
  const image = s.image && typeof s.image === 'object' ? s.image : null;
  return {
    id: s.id,
    name: s.name,
    status: s.status,
    taskState: orNull(s['OS-EXT-STS:task_state']),
    vmState: orNull(s['OS-EXT-STS:vm_state']),
    projectId: orNull(s.tenant_id),
    flavor: {
      id: orNull(s.flavor?.id),
      name: orNull(s.flavor?.original_name),
      vcpus: s.flavor?.vcpus ?? null,
      ramMb: s.flavor?.ram ?? null,
    },
    imageId: orNull(image?.id),
    availabilityZone: orNull(s['OS-EXT-AZ:availability_zone']),
    host: orNull(s['OS-EXT-SRV-ATTR:host']),
    hostId: orNull(s.hostId),
    fault: orNull(s.fault?.message),
    createdAt: s.created,
    updatedAt: orNull(s.updated),
    reservationId: orNull(s['OS-EXT-SRV-ATTR:reservation_id']),
    volumeIds: (s['os-extended-volumes:volumes_attached'] ?? []).map((v) => v.id),
    addresses: Object.entries(s.addresses ?? {}).flatMap(([network, list]) =>
      (Array.isArray(list) ? list : []).flatMap((a) =>
        a?.addr
          ? [{ network, address: a.addr, version: a.version ?? 4, type: a['OS-EXT-IPS:type'] ?? null }]
          : [],
      ),
    ),
    keyName: orNull(s.key_name),
    securityGroups: [...new Set((s.security_groups ?? []).flatMap((g) => (g?.name ? [g.name] : [])))],
  };
}

const toMode = (m: string | undefined): AttachMode | null => attachModeSchema.safeParse(m).data ?? null;

function toAttachment(a: RawAttachment): NovaAttachment {
  return {
    serverId: a.serverId,
    volumeId: a.volumeId,
    device: orNull(a.device),
    attachmentId: orNull(a.attachment_id),
    bdmId: orNull(a.bdm_uuid),
    mode: toMode(a.attach_mode),
    deleteOnTermination: a.delete_on_termination ?? null,
  };
}

// --- Servers ------------------------------------------------------------------------------------

/**
 * Servers with details. `allProjects` needs an admin token (Nova's all_tenants);
 * pages are followed so large clouds are listed whole.
 */
export async function listServers(
  cloud: CloudClient,
  opts: {
    allProjects?: boolean;
    reservationId?: string;
    projectId?: string;
    host?: string;
    /** Nova's `name` filter: a regular expression. */
    name?: string;
  } = {},
): Promise<NovaServer[]> {
  const servers = await listAllPages<RawServer>('servers', async (paging) => {
    const filters = {
      all_tenants: opts.allProjects ? '1' : undefined,
      reservation_id: opts.reservationId,
      name: opts.name,
      project_id: opts.projectId,
      host: opts.host,
    };
    const res = await cloud.nova<CollectionPage<RawServer>>(
      'GET',
      `/servers/detail${queryString({ ...filters, ...paging })}`,
      { microversion: readVersion(cloud) },
    );
    return res.body;
  });
  return servers.map(toServer);
}

/** One server; Nova's 404 (with its message) when it does not exist or is another project's. */
export async function getServer(cloud: CloudClient, serverId: string): Promise<NovaServer> {
  const res = await cloud.nova<{ server?: RawServer }>('GET', `/servers/${encodeURIComponent(serverId)}`, {
    microversion: readVersion(cloud),
  });
  // `detail` names Nova's detailed list, which answers without a `server`.
  if (!res.body.server) {
    throw new OpenStackFault(
      'compute',
      404,
      `Instance ${serverId} could not be found.`,
      'itemNotFound',
      null,
    );
  }
  return toServer(res.body.server);
}

/** Like getServer, but null when Nova says 404. */
export async function findServer(cloud: CloudClient, serverId: string): Promise<NovaServer | null> {
  const res = await cloud.nova<{ server?: RawServer }>('GET', `/servers/${encodeURIComponent(serverId)}`, {
    microversion: readVersion(cloud),
    allow: [404],
  });
  return res.status === 404 || !res.body.server ? null : toServer(res.body.server);
}

export async function deleteServer(cloud: CloudClient, serverId: string): Promise<void> {
  await cloud.nova('DELETE', `/servers/${encodeURIComponent(serverId)}`);
}

/**
 * POST /servers. Block devices' attach modes are only sent at 2.105 (below it Nova refuses the key),
 * and min/max count on a shared volume is only legal there too; the caller decides which to ask for.
 */
export async function createServers(
  cloud: CloudClient,
  input: CreateServersInput,
): Promise<CreateServersResult> {
  const version = cloud.computeVersion(COMPUTE.enhancements);
  const modes = versionAtLeast(version, COMPUTE.enhancements);
  const multi = (input.maxCount ?? 1) > 1 || (input.minCount ?? 1) > 1;
  const server: Record<string, unknown> = {
    name: input.name,
    flavorRef: input.flavorId,
    imageRef: input.imageId ?? '',
  };
  if (Array.isArray(input.networks)) server.networks = input.networks.map((uuid) => ({ uuid }));
  else if (input.networks === 'none') server.networks = 'none';
  else if (versionAtLeast(version, COMPUTE.networkChoice)) server.networks = 'auto';
  if (input.securityGroups?.length) server.security_groups = input.securityGroups.map((name) => ({ name }));
  if (input.keyName) server.key_name = input.keyName;
  if (input.availabilityZone) server.availability_zone = input.availabilityZone;
  if (input.metadata) server.metadata = input.metadata;
  if (input.minCount !== undefined) server.min_count = input.minCount;
  if (input.maxCount !== undefined) server.max_count = input.maxCount;
  if (multi) server.return_reservation_id = true;
  if (input.blockDevices?.length) {
    server.block_device_mapping_v2 = input.blockDevices.map((b) => ({
      source_type: b.sourceType,
      destination_type: b.destinationType,
      ...(b.uuid !== undefined ? { uuid: b.uuid } : {}),
      boot_index: b.bootIndex,
      ...(b.volumeSize !== undefined ? { volume_size: b.volumeSize } : {}),
      delete_on_termination: b.deleteOnTermination ?? false,
      ...(modes && b.attachMode && b.destinationType === 'volume' ? { attach_mode: b.attachMode } : {}),
    }));
  }
  const res = await cloud.nova<{ server?: { id: string }; reservation_id?: string }>('POST', '/servers', {
    body: { server },
    microversion: version,
  });
  return { serverId: res.body.server?.id ?? null, reservationId: res.body.reservation_id ?? null };
}

// --- Volume attachments -------------------------------------------------------------------------

/** The server's volume attachments: attachment ids from 2.89, attach_mode at 2.105. */
export async function listServerAttachments(cloud: CloudClient, serverId: string): Promise<NovaAttachment[]> {
  const res = await cloud.nova<{ volumeAttachments: RawAttachment[] }>(
    'GET',
    `/servers/${encodeURIComponent(serverId)}/os-volume_attachments`,
    { microversion: readVersion(cloud) },
  );
  return (res.body.volumeAttachments ?? []).map(toAttachment);
}

export interface AttachResult {
  /** 2.101+: Nova accepted the request and attaches in the background (no body). */
  accepted: boolean;
  device: string | null;
  /** Cinder's attachment id, when Nova's answer names it (2.89 to 2.100). */
  attachmentId: string | null;
}

/**
 * Attaches a volume. `mode` is sent only when the cloud has 2.105 (callers refuse 'ro' without it);
 * at 2.60+ so shared volumes are allowed.
 */
export async function attachVolume(
  cloud: CloudClient,
  serverId: string,
  volumeId: string,
  mode: AttachMode = 'rw',
): Promise<AttachResult> {
  const version = cloud.computeVersion(COMPUTE.enhancements);
  const attachment: Record<string, unknown> = { volumeId };
  if (versionAtLeast(version, COMPUTE.enhancements)) attachment.attach_mode = mode;
  const res = await cloud.nova<{ volumeAttachment?: RawAttachment } | undefined>(
    'POST',
    `/servers/${encodeURIComponent(serverId)}/os-volume_attachments`,
    { body: { volumeAttachment: attachment }, microversion: version },
  );
  const answered = res.body?.volumeAttachment;
  return {
    accepted: res.status === 202,
    device: orNull(answered?.device),
    attachmentId: orNull(answered?.attachment_id),
  };
}

/** Detaches (Nova answers 202 and detaches in the background). */
export async function detachVolume(cloud: CloudClient, serverId: string, volumeId: string): Promise<void> {
  await cloud.nova(
    'DELETE',
    `/servers/${encodeURIComponent(serverId)}/os-volume_attachments/${encodeURIComponent(volumeId)}`,
    { microversion: readVersion(cloud) },
  );
}

// --- Flavors and zones --------------------------------------------------------------------------

export async function listFlavors(cloud: CloudClient): Promise<Flavor[]> {
  const res = await cloud.nova<{
    flavors: {
      id: string;
      name: string;
      vcpus: number;
      ram: number;
      disk: number;
      'os-flavor-access:is_public'?: boolean;
    }[];
  }>('GET', '/flavors/detail');
  return (res.body.flavors ?? []).map((f) => ({
    id: f.id,
    name: f.name,
    vcpus: f.vcpus,
    ramMb: f.ram,
    diskGb: f.disk,
    isPublic: f['os-flavor-access:is_public'] ?? true,
  }));
}

/** Compute availability zones (what a member may see: names and whether they are up). */
export async function listZones(cloud: CloudClient): Promise<AvailabilityZone[]> {
  const res = await cloud.nova<{
    availabilityZoneInfo: { zoneName: string; zoneState?: { available?: boolean } }[];
  }>('GET', '/os-availability-zone');
  return (res.body.availabilityZoneInfo ?? []).map((z) => ({
    name: z.zoneName,
    available: z.zoneState?.available ?? false,
  }));
}

// --- Compute hosts (admin) ----------------------------------------------------------------------

interface RawEmulatorHost {
  host: string;
  hypervisor_hostname?: string;
  hypervisor_type?: string;
  zone?: string;
  state: string;
  status: string;
  forced_down?: boolean;
  disabled_reason?: string | null;
  schedulable?: boolean;
  service_version?: number;
  supports_multiattach?: boolean;
  supports_attach_modes?: boolean;
}

interface RawService {
  binary: string;
  host: string;
  zone?: string;
  status: string;
  state: string;
  disabled_reason?: string | null;
  forced_down?: boolean;
}

interface RawHypervisor {
  hypervisor_hostname: string;
  hypervisor_type?: string;
  service?: { host?: string };
}

/** Which virt drivers can share a disk between servers (Nova's supports_multiattach capability). */
function driverSharesDisks(type: string | null): boolean | null {
  if (!type) return null;
  const t = type.toLowerCase();
  if (t === 'qemu' || t === 'kvm') return true;
  if (t === 'ironic') return false;
  return null;
}

/**
 * Every nova-compute host (admin only). The bundled cloud's os-emulator-hosts answers in one call;
 * elsewhere os-services and os-hypervisors are joined, and what they cannot tell stays null.
 */
export async function listComputeHosts(cloud: CloudClient): Promise<ComputeHost[]> {
  // The hosts extension comes with the topology extension, which the sign-in probed: a cloud
  // without it (any real Nova) is not asked for it, so its hosts cost one round trip, not two.
  const ext = cloud.session.capabilities.topologyExtension
    ? await cloud.nova<{ emulator_hosts?: RawEmulatorHost[] }>('GET', '/os-emulator-hosts', {
        allow: [404],
      })
    : null;
  if (ext && ext.status !== 404 && ext.body?.emulator_hosts) {
    return ext.body.emulator_hosts.map((h) => ({
      host: h.host,
      hypervisorHostname: orNull(h.hypervisor_hostname),
      hypervisorType: orNull(h.hypervisor_type),
      zone: orNull(h.zone),
      state: h.state,
      status: h.status,
      disabledReason: orNull(h.disabled_reason),
      forcedDown: h.forced_down ?? null,
      serviceVersion: h.service_version ?? null,
      supportsMultiattach: h.supports_multiattach ?? null,
      supportsAttachModes: h.supports_attach_modes ?? null,
      schedulable: h.schedulable ?? (h.status === 'enabled' && h.state === 'up'),
      source: 'extension',
    }));
  }
  const version = cloud.computeVersion(COMPUTE.hostUuids);
  const [services, hypervisors] = await Promise.all([
    cloud.nova<{ services: RawService[] }>('GET', '/os-services?binary=nova-compute', {
      microversion: version,
    }),
    cloud.nova<{ hypervisors: RawHypervisor[] }>('GET', '/os-hypervisors/detail', { microversion: version }),
  ]);
  // Without 2.105 no host takes attach modes; with it, a real cloud does not say which host is new enough.
  const modes = supportsAttachModes(cloud) ? null : false;
  return (services.body.services ?? [])
    .filter((s) => s.binary === 'nova-compute')
    .map((s) => {
      const hv = (hypervisors.body.hypervisors ?? []).find((h) => h.service?.host === s.host);
      const type = orNull(hv?.hypervisor_type);
      return {
        host: s.host,
        hypervisorHostname: hv?.hypervisor_hostname ?? null,
        hypervisorType: type,
        zone: orNull(s.zone),
        state: s.state,
        status: s.status,
        disabledReason: orNull(s.disabled_reason),
        forcedDown: s.forced_down ?? null,
        serviceVersion: null,
        supportsMultiattach: driverSharesDisks(type),
        supportsAttachModes: modes,
        schedulable: s.status === 'enabled' && s.state === 'up',
        source: 'standard' as const,
      };
    });
}

// --- L: one page of servers ---

/** Filters and order Nova applies to a server list page. */
export interface ServerPageQuery {
  /** A regular expression on the name (Nova matches it anywhere, ignoring case on MySQL). */
  nameRegex?: string;
  /** Nova's server status (ACTIVE, ERROR, …). */
  status?: string;
  /** A regular expression on the zone (admins always; members from 2.83). */
  zoneRegex?: string;
  allProjects?: boolean;
  projectId?: string;
  sortKey: 'display_name' | 'vm_state' | 'created_at';
  sortDir: 'asc' | 'desc';
}

/** Members may filter on the zone from 2.83 (`_get_server_search_options`); admins always. */
export const canFilterServersByZone = (cloud: CloudClient): boolean =>
  cloud.session.isAdmin || versionAtLeast(readVersion(cloud), '2.83');

function serverFilters(q: ServerPageQuery): Record<string, string | undefined> {
  return {
    all_tenants: q.allProjects || q.projectId ? '1' : undefined,
    project_id: q.projectId,
    name: q.nameRegex,
    status: q.status,
    availability_zone: q.zoneRegex,
    sort_key: q.sortKey,
    sort_dir: q.sortDir,
  };
}

/** A fetcher of one detailed page of servers, for `onePage`/`markerAfter`. */
export function serverPager(
  cloud: CloudClient,
  q: ServerPageQuery,
): (paging: { limit: string; marker?: string }) => Promise<CollectionPage<NovaServer>> {
  return async (paging) => {
    const res = await cloud.nova<CollectionPage<RawServer>>(
      'GET',
      `/servers/detail${queryString({ ...serverFilters(q), ...paging })}`,
      { microversion: readVersion(cloud) },
    );
    return { servers: ((res.body.servers ?? []) as RawServer[]).map(toServer) };
  };
}

/** The same pages from Nova's plain list (ids and names): enough to find where a later page starts. */
export function serverIdPager(
  cloud: CloudClient,
  q: ServerPageQuery,
): (paging: { limit: string; marker?: string }) => Promise<CollectionPage<{ id: string }>> {
  return async (paging) => {
    const res = await cloud.nova<CollectionPage<{ id: string }>>(
      'GET',
      `/servers${queryString({ ...serverFilters(q), ...paging })}`,
      { microversion: readVersion(cloud) },
    );
    return { servers: ((res.body.servers ?? []) as { id: string }[]).map((s) => ({ id: s.id })) };
  };
}
