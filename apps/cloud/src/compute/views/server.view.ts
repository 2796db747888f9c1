import { novaHostId } from '../host-id.js';
import type { Microversion } from '../../platform/http/microversion.js';
import { novaTime } from '../../platform/time.js';
import { statusFromState } from '../server-states.js';
import type { ServerViewBdm } from '../store/bdms.store.js';
import type { Image } from '../clients/image-client.js';
import type { ServerExtras } from '../service/servers.service.js';
import { addressesOf } from '../service/server-networks.service.js';
import type { FlavorSnapshot, ServerRow } from '../store/servers.store.js';
import { parseJsonColumn } from '../../platform/db/json-column.js';

/**
 * Nova's server views (`api/openstack/compute/views/servers.py`) per microversion, with no key
 * from a later one: Tempest's schemas set additionalProperties false. Gates, from Nova's view
 * builder and Tempest's versioned schemas: 2.3 extended attributes + delete_on_termination,
 * 2.9 locked, 2.16 host_status (admin), 2.19 description, 2.26 tags, 2.47 embedded flavor,
 * 2.63 trusted_image_certificates, 2.71 server_groups (show only), 2.73 locked_reason,
 * 2.90 hostname for everyone, 2.96 pinned_availability_zone, 2.98 image properties,
 * 2.100 scheduler_hints. 2.101-2.105 change nothing here.
 */

export interface ServerViewContext {
  /** `<scheme>://<host>/compute`. */
  computeBase: string;
  version: Microversion;
  isAdmin: boolean;
  /** flavor extra specs policy (2.47+). */
  showExtraSpecs: boolean;
}

/** What one server's detailed view needs besides its row; lists load these in batches. */
/** Nova's `status_from_state`, with DELETED for a deleted row. */
export function serverStatus(server: Pick<ServerRow, 'vm_state' | 'task_state' | 'deleted'>): string {
  if (server.deleted === 1) return 'DELETED';
  return statusFromState(server.vm_state, server.task_state);
}

const PROGRESS_STATUSES = new Set(['ACTIVE', 'BUILD', 'REBUILD', 'RESIZE', 'VERIFY_RESIZE', 'MIGRATING']);
const FAULT_STATUSES = new Set(['ERROR', 'DELETED']);

export const serverLinks = (computeBase: string, id: string) => [
  { rel: 'self', href: `${computeBase}/v2.1/servers/${id}` },
  { rel: 'bookmark', href: `${computeBase}/servers/${id}` },
];

/** `hostId`: sha224 of project id + host, so users can tell co-located servers apart. */
export const hostId = novaHostId;

/** Nova prints DB datetimes with microseconds, which its DB does not keep (captures 09, 117). */
export function usageTime(iso: string | null): string | null {
  return iso ? `${iso.slice(0, 19)}.000000` : null;
}

/** `instance_name_template` 'instance-%08x' over the DB id; ours comes from the uuid. */
export const instanceName = (server: Pick<ServerRow, 'id'>) => `instance-${server.id.slice(0, 8)}`;

function flavorView(ctx: ServerViewContext, server: ServerRow): Record<string, unknown> {
  const flavor = parseJsonColumn<FlavorSnapshot | null>(server.flavor, null);
  if (!flavor) return {};
  if (ctx.version.atLeast('2.47')) {
    return {
      vcpus: flavor.vcpus,
      ram: flavor.ram,
      disk: flavor.disk,
      ephemeral: flavor.ephemeral,
      swap: flavor.swap,
      original_name: flavor.name,
      ...(ctx.showExtraSpecs ? { extra_specs: flavor.extra_specs } : {}),
    };
  }
  return { id: flavor.id, links: [{ rel: 'bookmark', href: `${ctx.computeBase}/flavors/${flavor.id}` }] };
}

function imageView(ctx: ServerViewContext, server: ServerRow, image: Image | undefined): unknown {
  if (!server.image_id) return '';
  const view: Record<string, unknown> = {
    id: server.image_id,
    links: [{ rel: 'bookmark', href: `${ctx.computeBase}/images/${server.image_id}` }],
  };
  if (ctx.version.atLeast('2.98')) view.properties = imageProperties(server.image_id, image);
  return view;
}

/** 2.98: the image metadata Nova copied into the instance's system metadata, values as strings. */
function imageProperties(imageId: string, image: Image | undefined): Record<string, string> {
  if (!image) return { base_image_ref: imageId };
  const props: Record<string, string> = {
    base_image_ref: imageId,
    container_format: image.containerFormat,
    disk_format: image.diskFormat,
    min_disk: String(image.minDisk),
    min_ram: String(image.minRam),
  };
  for (const [k, v] of Object.entries(image.properties)) {
    props[k] = typeof v === 'string' ? v : JSON.stringify(v);
  }
  return props;
}

function rootDeviceName(server: ServerRow, bdms: readonly ServerViewBdm[]): string | null {
  const root = bdms.find((b) => b.boot_index === 0);
  if (root?.device_name) return root.device_name;
  return server.launched_at ? '/dev/vda' : null;
}

interface Fault {
  code: number;
  message: string;
  details?: string;
  created: string;
}

function faultView(ctx: ServerViewContext, server: ServerRow): Record<string, unknown> | null {
  const fault = parseJsonColumn<Fault | null>(server.fault, null);
  if (!fault) return null;
  const view: Record<string, unknown> = {
    code: fault.code,
    created: novaTime(fault.created),
    message: fault.message,
  };
  // Tracebacks of 500s are for admins only.
  if (fault.details && (ctx.isAdmin || fault.code !== 500)) view.details = fault.details;
  return view;
}

/** The detailed view (`show`); `detail` lists use it without server_groups. */
export function serverDetailView(
  ctx: ServerViewContext,
  server: ServerRow,
  extras: ServerExtras,
  opts: { forList: boolean; reduced?: boolean },
): Record<string, unknown> {
  // PUT (and rebuild) below 2.75 answer the basic attributes only (`show` with every extension off).
  if (opts.reduced && ctx.version.below('2.75')) return reducedView(ctx, server);
  const v = ctx.version;
  const status = serverStatus(server);
  const out: Record<string, unknown> = {
    id: server.id,
    name: server.name,
    status,
    tenant_id: server.project_id,
    user_id: server.user_id,
    metadata: parseJsonColumn<Record<string, string>>(server.metadata, {}),
    hostId: hostId(server.project_id, server.host),
    image: imageView(ctx, server, extras.image),
    flavor: flavorView(ctx, server),
    created: novaTime(server.created_at),
    updated: novaTime(server.updated_at),
    addresses: addressesOf(extras.ports, true),
    accessIPv4: server.access_ip_v4 ?? '',
    accessIPv6: server.access_ip_v6 ?? '',
    links: serverLinks(ctx.computeBase, server.id),
    'OS-DCF:diskConfig': diskConfig(server),
  };
  if (FAULT_STATUSES.has(status)) {
    const fault = faultView(ctx, server);
    if (fault) out.fault = fault;
  }
  if (PROGRESS_STATUSES.has(status)) out.progress = 0;
  out['OS-EXT-AZ:availability_zone'] = server.availability_zone ?? '';
  out.config_drive = server.config_drive;
  out.key_name = server.key_name;
  out['OS-SRV-USG:launched_at'] = usageTime(server.launched_at);
  out['OS-SRV-USG:terminated_at'] = usageTime(server.terminated_at);
  if (ctx.isAdmin) {
    out['OS-EXT-SRV-ATTR:host'] = server.host;
    out['OS-EXT-SRV-ATTR:instance_name'] = instanceName(server);
    out['OS-EXT-SRV-ATTR:hypervisor_hostname'] = server.node;
    if (v.atLeast('2.3')) {
      out['OS-EXT-SRV-ATTR:reservation_id'] = server.reservation_id;
      out['OS-EXT-SRV-ATTR:launch_index'] = server.launch_index;
      out['OS-EXT-SRV-ATTR:hostname'] = server.hostname;
      out['OS-EXT-SRV-ATTR:kernel_id'] = '';
      out['OS-EXT-SRV-ATTR:ramdisk_id'] = '';
      out['OS-EXT-SRV-ATTR:root_device_name'] = rootDeviceName(server, extras.bdms);
      out['OS-EXT-SRV-ATTR:user_data'] = server.user_data ?? null;
    }
  }
  out['OS-EXT-STS:task_state'] = server.task_state;
  out['OS-EXT-STS:vm_state'] = server.vm_state;
  out['OS-EXT-STS:power_state'] = server.power_state;
  out['os-extended-volumes:volumes_attached'] = extras.bdms
    .filter((b) => b.volume_id !== null)
    .map((b) =>
      v.atLeast('2.3')
        ? { id: b.volume_id, delete_on_termination: b.delete_on_termination === 1 }
        : { id: b.volume_id },
    );
  if (ctx.isAdmin && v.atLeast('2.16')) out.host_status = extras.hostStatus;
  if (v.atLeast('2.9')) out.locked = server.locked === 1;
  if (v.atLeast('2.73')) out.locked_reason = server.locked_reason;
  if (v.atLeast('2.19')) out.description = server.description;
  if (v.atLeast('2.26')) out.tags = parseJsonColumn<string[]>(server.tags, []);
  if (v.atLeast('2.63')) out.trusted_image_certificates = trustedCerts(server);
  if (!ctx.isAdmin && v.atLeast('2.90')) out['OS-EXT-SRV-ATTR:hostname'] = server.hostname;
  if (!opts.forList && v.atLeast('2.71')) out.server_groups = extras.serverGroups ?? [];
  if (v.atLeast('2.96')) out.pinned_availability_zone = server.requested_availability_zone;
  if (v.atLeast('2.100')) out.scheduler_hints = {};
  // Nova adds the groups of the server's ports, when it has any (`_add_security_grps`).
  const groups = [...new Set(extras.ports.flatMap((p) => p.securityGroups.map((g) => g.name)))];
  if (groups.length > 0) out.security_groups = groups.map((name) => ({ name }));
  return out;
}

/** 2.63: the certificate ids given at create or rebuild (capture 862), else null. */
const trustedCerts = (server: Pick<ServerRow, 'trusted_certs'>) =>
  parseJsonColumn<string[] | null>(server.trusted_certs ?? null, null);

/** `OS-DCF:diskConfig`: AUTO or MANUAL as asked at create (or by rebuild, resize, update). */
export const diskConfig = (server: Pick<ServerRow, 'auto_disk_config'>) =>
  server.auto_disk_config === 1 ? 'AUTO' : 'MANUAL';

/** What PUT /servers/{id} answered before 2.75: no AZ, host, usage, state or volume attributes. */
function reducedView(ctx: ServerViewContext, server: ServerRow): Record<string, unknown> {
  const v = ctx.version;
  const status = serverStatus(server);
  const out: Record<string, unknown> = {
    id: server.id,
    name: server.name,
    status,
    tenant_id: server.project_id,
    user_id: server.user_id,
    metadata: parseJsonColumn<Record<string, string>>(server.metadata, {}),
    hostId: hostId(server.project_id, server.host),
    image: imageView(ctx, server, undefined),
    flavor: flavorView(ctx, server),
    created: novaTime(server.created_at),
    updated: novaTime(server.updated_at),
    addresses: {},
    accessIPv4: server.access_ip_v4 ?? '',
    accessIPv6: server.access_ip_v6 ?? '',
    links: serverLinks(ctx.computeBase, server.id),
    'OS-DCF:diskConfig': diskConfig(server),
  };
  if (FAULT_STATUSES.has(status)) {
    const fault = faultView(ctx, server);
    if (fault) out.fault = fault;
  }
  if (PROGRESS_STATUSES.has(status)) out.progress = 0;
  if (v.atLeast('2.9')) out.locked = server.locked === 1;
  if (v.atLeast('2.19')) out.description = server.description;
  if (v.atLeast('2.26')) out.tags = parseJsonColumn<string[]>(server.tags, []);
  if (v.atLeast('2.63')) out.trusted_image_certificates = trustedCerts(server);
  if (v.atLeast('2.73')) out.locked_reason = server.locked_reason;
  return out;
}

/** GET /servers items. */
export function serverBasicView(computeBase: string, server: Pick<ServerRow, 'id' | 'name'>) {
  return { id: server.id, name: server.name, links: serverLinks(computeBase, server.id) };
}

/** POST /servers answer for the first server (`ViewBuilder.create` + adminPass). */
export function serverCreateView(
  computeBase: string,
  server: Pick<ServerRow, 'id' | 'auto_disk_config'>,
  securityGroups: { name: string }[],
  adminPass: string,
) {
  return {
    server: {
      id: server.id,
      links: serverLinks(computeBase, server.id),
      'OS-DCF:diskConfig': diskConfig(server),
      security_groups: securityGroups,
      adminPass,
    },
  };
}

/**
 * `_get_collection_links`: a next link when the page is as long as the effective limit
 * (the client's, capped at max_limit 1000), with the query sorted and the marker replaced.
 */
export function serversCollectionLinks(
  computeBase: string,
  collection: 'servers' | 'servers/detail',
  query: Record<string, unknown>,
  effectiveLimit: number,
  page: readonly Pick<ServerRow, 'id'>[],
) {
  const last = page.at(-1);
  if (!last || page.length !== effectiveLimit) return [];
  const params = new Map<string, string>();
  for (const [k, val] of Object.entries(query)) params.set(k, String(Array.isArray(val) ? val.at(-1) : val));
  params.set('marker', last.id);
  const quote = (s: string) => encodeURIComponent(s).replaceAll('%20', '+');
  const qs = [...params.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, val]) => `${quote(k)}=${quote(val)}`)
    .join('&');
  return [{ rel: 'next', href: `${computeBase}/v2.1/${collection}?${qs}` }];
}
