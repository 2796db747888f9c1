import { recordAction } from './instance-actions-recorder.js';
import { compactIpv6 } from '../ip-format.js';
import { randomInt } from 'node:crypto';
import type { ComputeDeps } from '../deps.js';
import type { Tx } from '../../platform/db/store.js';
import type { AuthContext } from '../../platform/http/context.js';
import { badRequest, policyForbidden } from '../../platform/http/errors.js';
import type { Microversion } from '../../platform/http/microversion.js';
import { newReservationId, newUuid } from '../../platform/ids.js';
import { nowIso } from '../../platform/time.js';
import { userCaller, type Volume } from '../clients/volume-client.js';
import type { Placement } from '../host/server-lifecycle.js';
import type { ServerCreateBody } from '../schemas/servers.schemas.js';
import { assertProjectWriter, RULES } from '../policy.js';
import { type BdmRow, bdmsStore } from '../store/bdms.store.js';
import { type FlavorRow, flavorsStore } from '../store/flavors.store.js';
import { canUseFlavor } from './flavors.service.js';
import { type FlavorSnapshot, type ServerRow, serversStore } from '../store/servers.store.js';
import {
  type BdmSpec,
  checkRootDeviceClash,
  MULTI_INSTANCE_VOLUMES,
  parseBdms,
  rootSpec,
  validateBdmSpecs,
} from './bdm-validation.js';
import { availableZones, computeHostExists } from '../host/scheduler.js';
import { POWER, VM } from '../server-states.js';
import { reserveVolumeForServers } from './volume-attachments.service.js';
import { allocateServerPorts, planNetworks, resolveSecurityGroups } from './server-networks.service.js';
import { keypairForServer } from './keypairs.service.js';
import { checkInstancesQuota, checkMetadataAndFilesQuota } from './quotas.service.js';
import { joinGroup, requestedGroup } from './server-groups.service.js';

/**
 * POST /servers (`servers.py` `create`, `compute/api.py` `create` / `_create_instance` /
 * `_provision_instances`), checks in Nova's order: schema, min/max count, availability zone and
 * host policies, block device syntax, imageRef, networks, flavor, zone availability, the image
 * or boot volume (bootable), base options, `_check_and_transform_bdm` (the multi-create rule,
 * relaxed at 2.105 for multiattach volumes), then per instance `_validate_bdm` and the Cinder
 * reserve. Every server, mapping and reservation of one request is written in one transaction;
 * the builds then run on the emulated hosts.
 */

export const FORCED_HOST_RULE = 'os_compute_api:servers:create:forced_host';
export const REQUESTED_DESTINATION_RULE = 'compute:servers:create:requested_destination';

/** `FlavorNotFound` at create: Nova hides the id behind its own wording. */
export const INVALID_FLAVOR_REF = 'Invalid flavorRef provided.';
/** An unknown zone (`_validate_and_build_base_options`' InvalidRequest). */
export const ZONE_NOT_AVAILABLE = 'The requested availability zone is not available';

export interface CreatedServers {
  servers: ServerRow[];
  reservationId: string;
  returnReservationId: boolean;
  adminPass: string;
  securityGroups: { name: string }[];
}

/** Nova's `utils.generate_password` default: 12 characters, no look-alikes. */
export function generatePassword(): string {
  const alphabet = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  let out = '';
  for (let i = 0; i < 12; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** `utils.sanitize_hostname`. */
export function sanitizeHostname(name: string): string {
  let h = [...name].filter((c) => (c.codePointAt(0) ?? 0) <= 0xff).join('');
  h = h.slice(0, 63);
  h = h.replace(/[ _.]/g, '-');
  h = h.replace(/[^\w.-]+/gu, '');
  h = h.toLowerCase();
  h = h.replace(/^[.-]+|[.-]+$/g, '');
  return h;
}

export function flavorSnapshot(f: FlavorRow): FlavorSnapshot {
  let extraSpecs: Record<string, string> = {};
  try {
    extraSpecs = JSON.parse(f.extra_specs) as Record<string, string>;
  } catch {
    extraSpecs = {};
  }
  return {
    id: f.id,
    name: f.name,
    vcpus: f.vcpus,
    ram: f.ram,
    disk: f.disk,
    ephemeral: f.ephemeral,
    swap: f.swap,
    extra_specs: extraSpecs,
  };
}

/** `parse_availability_zone`: `zone`, `zone:host`, `zone:host:node` or `zone::node`. */
export function parseAvailabilityZone(az: string | null): {
  zone: string | null;
  host: string | null;
  node: string | null;
} {
  if (!az?.includes(':')) return { zone: az || null, host: null, node: null };
  const parts = az.split(':');
  if (parts.length === 2) return { zone: parts[0] || null, host: parts[1] || null, node: null };
  if (parts.length === 3) return { zone: parts[0] || null, host: parts[1] || null, node: parts[2] || null };
  throw badRequest('Invalid input received: Unable to parse availability_zone');
}

const intOf = (v: unknown, fallback: number) =>
  v === undefined || v === null ? fallback : Number.parseInt(String(v), 10);

const invalidBdmVolume = (id: string) =>
  badRequest(`Block Device Mapping is Invalid: failed to get volume ${id}.`);

export async function createServers(
  deps: ComputeDeps,
  auth: AuthContext,
  version: Microversion,
  body: ServerCreateBody,
): Promise<{ created: CreatedServers; placement: Placement }> {
  // Nova checks `servers:create` once the body is valid, before it looks at anything in it.
  assertProjectWriter(auth, RULES.serverCreate);
  const s = body.server;
  const name = s.name;
  const description = version.atLeast('2.19') ? (s.description ?? null) : name;
  const requestedHostname = version.atLeast('2.90') ? (s.hostname ?? null) : null;
  const securityGroups = s.security_groups
    ? [...new Set(s.security_groups.flatMap((g) => (g.name ? [g.name] : [])))]
    : ['default'];

  const minCount = intOf(s.min_count, 1);
  const maxCount = intOf(s.max_count, minCount);
  if (minCount > maxCount) throw badRequest('min_count must be <= max_count');

  const az = parseAvailabilityZone(s.availability_zone ?? null);
  if ((az.host || az.node) && !auth.isAdmin) throw policyForbidden(FORCED_HOST_RULE);
  const requestedHost = version.atLeast('2.74') ? (s.host ?? null) : null;
  const requestedNode = version.atLeast('2.74') ? (s.hypervisor_hostname ?? null) : null;
  if (requestedHost || requestedNode) {
    if (!auth.isAdmin) throw policyForbidden(REQUESTED_DESTINATION_RULE);
    if (az.host || az.node) {
      throw badRequest(
        'One mechanism with host and/or hypervisor_hostname and another mechanism with zone:host:node are mutually exclusive.',
      );
    }
  }

  const { specs, given: bdmsGiven } = parseBdms(s);
  const imageRef = s.imageRef ? s.imageRef : null;
  if (!imageRef && !bdmsGiven) throw badRequest('Missing imageRef attribute');

  const flavorRow = await flavorsStore.byId(deps.store.db, String(s.flavorRef));
  if (!flavorRow || flavorRow.disabled === 1) throw badRequest(INVALID_FLAVOR_REF);
  // cloud-rescue: a private flavor not shared with the project is one it cannot see.
  if (!(await canUseFlavor(deps.store.db, flavorRow, auth))) {
    throw badRequest(`Flavor ${flavorRow.id} could not be found.`);
  }
  const flavor = flavorSnapshot(flavorRow);

  if (requestedHostname && maxCount > 1) {
    throw badRequest('Unable to allocate a single hostname to multiple instances');
  }
  if (az.zone && !az.host && !az.node && !(await availableZones(deps.store.db)).has(az.zone)) {
    throw badRequest(ZONE_NOT_AVAILABLE);
  }
  if (requestedHost || requestedNode) await checkRequestedDestination(deps, requestedHost, requestedNode);
  // `_get_requested_instance_group`: the `group` scheduler hint names an existing server group.
  const hints = body['os:scheduler_hints'] ?? body['OS-SCH-HNT:scheduler_hints'];
  const group = await requestedGroup(
    deps.store.db,
    hints?.group === undefined ? undefined : String(hints.group),
  );

  const caller = userCaller(auth);
  // Image, or the boot volume (`get_bdm_image_metadata`): lookup then bootable.
  if (imageRef) {
    const image = await deps.images.get(imageRef);
    if (!image) throw badRequest('Can not find requested image');
    if (image.status !== 'active') throw badRequest(`Image ${imageRef} is not active.`);
  } else {
    if (s.trusted_image_certificates && s.trusted_image_certificates.length > 0) {
      throw badRequest('Image certificate validation is not supported when booting from volume');
    }
    const boot = rootSpec(specs);
    if (boot?.sourceType === 'image' && boot.sourceId) {
      if (!(await deps.images.get(boot.sourceId))) {
        throw badRequest(`Block Device Mapping is Invalid: failed to get image ${boot.sourceId}.`);
      }
    } else if (boot?.sourceType === 'snapshot' && boot.sourceId) {
      throw badRequest(`Block Device Mapping is Invalid: failed to get snapshot ${boot.sourceId}.`);
    } else if (boot?.sourceType === 'volume' && boot.sourceId) {
      const volume = await deps.volumes.get(caller, boot.sourceId);
      if (!volume) throw invalidBdmVolume(boot.sourceId);
      if (!volume.bootable) throw badRequest(`Block Device ${boot.sourceId} is not bootable.`);
    }
  }

  // `_checks_for_create_and_rebuild`: metadata items and personality files within quota.
  await checkMetadataAndFilesQuota(
    deps.store.db,
    auth.projectId ?? '',
    Object.keys(s.metadata ?? {}).length,
    (version.below('2.57') ? (s.personality ?? []) : []).map((f) => ({
      path: f.path ?? '',
      contentBytes: Buffer.from(f.contents ?? '', 'base64').length,
    })),
  );
  // Base options: the caller's own key pair by name.
  const keyName =
    s.key_name === undefined ? null : (await keypairForServer(deps.store.db, auth, s.key_name)).name;
  // Security groups, then networks (through the network service, as Nova asks Neutron).
  const securityGroupIds = await resolveSecurityGroups(deps, auth, securityGroups);
  const portPlan = await planNetworks(deps, auth, version, s.networks, maxCount);

  checkRootDeviceClash(specs, imageRef !== null);
  const volumeSpecs = specs.filter((x) => !x.noDevice && x.sourceType === 'volume' && x.sourceId);
  if ((minCount > 1 || maxCount > 1) && volumeSpecs.length > 0) {
    // Nova blocks any existing volume here (bug 1747985); 2.105 lets a multiattach one through.
    if (version.below('2.105')) throw badRequest(MULTI_INSTANCE_VOLUMES);
    for (const spec of volumeSpecs) {
      const volume = await deps.volumes.get(caller, spec.sourceId!);
      if (!volume) throw invalidBdmVolume(spec.sourceId!);
      if (!volume.multiattach) throw badRequest(MULTI_INSTANCE_VOLUMES);
    }
  }

  // `_get_volumes_for_bdms`, then the instance-independent `_validate_bdm` checks.
  const volumes = new Map<string, Volume>();
  const seen = new Set<string>();
  for (const spec of volumeSpecs) {
    // One server cannot map a volume twice (Nova's reserve of the second copy fails).
    if (seen.has(spec.sourceId!))
      throw badRequest(`Invalid volume: volume ${spec.sourceId} already attached`);
    seen.add(spec.sourceId!);
  }
  await validateBdmSpecs(specs, flavor, async (spec) => {
    if (!spec.sourceId) return;
    if (spec.sourceType === 'image') {
      if (!(await deps.images.get(spec.sourceId))) {
        throw badRequest(`Block Device Mapping is Invalid: failed to get image ${spec.sourceId}.`);
      }
    } else if (spec.sourceType === 'snapshot') {
      throw badRequest(`Block Device Mapping is Invalid: failed to get snapshot ${spec.sourceId}.`);
    } else {
      const volume = await deps.volumes.get(caller, spec.sourceId);
      if (!volume) throw invalidBdmVolume(spec.sourceId);
      volumes.set(volume.id, volume);
    }
  });
  if (specs.some((x) => x.volumeType)) await checkVolumeTypes(deps, auth, specs);

  const reservationId = newReservationId();
  const adminPass = s.adminPass ?? generatePassword();
  const now = nowIso();
  const servers = await deps.store.transaction(async (tx) => {
    // `check_num_instances_quota` (C2): as many of min..max as the quota allows, else Nova's 403.
    const count = await checkInstancesQuota(tx, auth, flavor, minCount, maxCount);
    const rows: ServerRow[] = [];
    for (let index = 0; index < count; index++) {
      const id = newUuid();
      const displayName = count > 1 ? `${name}-${index + 1}` : name;
      const defaultName = `Server-${id}`;
      const hostname =
        requestedHostname ??
        (count > 1 && sanitizeHostname(name) === ''
          ? defaultName
          : sanitizeHostname(displayName) || defaultName);
      const row: ServerRow = {
        id,
        project_id: auth.projectId ?? '',
        user_id: auth.userId,
        name: displayName,
        hostname,
        description,
        vm_state: VM.building,
        task_state: 'scheduling',
        power_state: POWER.nostate,
        host: null,
        node: null,
        availability_zone: az.zone,
        requested_availability_zone: az.zone,
        flavor_id: flavor.id,
        flavor: JSON.stringify(flavor),
        old_flavor: null,
        image_id: imageRef,
        reservation_id: reservationId,
        launch_index: index,
        key_name: keyName,
        metadata: JSON.stringify(s.metadata ?? {}),
        tags: JSON.stringify(version.atLeast('2.52') && s.tags ? s.tags : []),
        security_groups: JSON.stringify(securityGroups),
        config_drive: s.config_drive !== undefined && boolFromValue(s.config_drive) ? 'True' : '',
        locked: 0,
        locked_reason: null,
        fault: null,
        created_at: now,
        updated_at: now,
        launched_at: null,
        terminated_at: null,
        deleted: 0,
        access_ip_v4: s.accessIPv4 ?? null,
        access_ip_v6: s.accessIPv6 === undefined ? null : compactIpv6(s.accessIPv6),
        auto_disk_config: s['OS-DCF:diskConfig'] === 'AUTO' ? 1 : 0,
        locked_by: null,
        password: null,
        // cloud-rebuild: kept for the admin view and rebuild (Nova's instance.user_data, trusted_certs).
        user_data: s.user_data ?? null,
        trusted_certs:
          version.atLeast('2.63') && s.trusted_image_certificates
            ? JSON.stringify(s.trusted_image_certificates)
            : null,
      };
      rows.push(row);
    }
    await serversStore.insertMany(tx, rows);
    if (group)
      await joinGroup(
        tx,
        group,
        auth.projectId ?? '',
        auth.userId,
        rows.map((r) => r.id),
      );
    for (const row of rows) {
      await recordAction(tx, {
        serverId: row.id,
        action: 'create',
        auth,
        event: 'compute__do_build_and_run_instance',
        fresh: true,
      });
    }
    await insertMappings(deps, tx, auth, version, rows, specs);
    await allocateServerPorts(deps, tx, auth, rows, portPlan, securityGroupIds);
    return rows;
  });
  return {
    created: {
      servers,
      reservationId,
      // Nova tests the raw value: the string "false" is truthy too.
      returnReservationId: Boolean(s.return_reservation_id),
      adminPass,
      securityGroups: securityGroups.map((g) => ({ name: g })),
    },
    placement: { forcedHost: az.host, forcedNode: az.node, requestedHost, requestedNode },
  };
}

function boolFromValue(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  return ['1', 't', 'true', 'on', 'y', 'yes'].includes(String(v).trim().toLowerCase());
}

/** 2.74 `_validate_host_or_node`. */
async function checkRequestedDestination(
  deps: ComputeDeps,
  host: string | null,
  node: string | null,
): Promise<void> {
  if (!(await computeHostExists(deps.store.db, host, node))) {
    throw badRequest(`Compute host ${host ?? node} could not be found.`);
  }
}

/** `_validate_volume_type_by_name_or_id`, against the types the user's Cinder token sees. */
async function checkVolumeTypes(
  deps: ComputeDeps,
  auth: AuthContext,
  specs: readonly BdmSpec[],
): Promise<void> {
  for (const s of specs) {
    if (!s.volumeType) continue;
    if (!(await deps.volumes.typeExists(userCaller(auth), s.volumeType))) {
      throw badRequest(`Volume type ${s.volumeType} could not be found.`);
    }
  }
}

/**
 * The servers' mappings: existing volumes are reserved in Cinder now, once for every server (a
 * multi-create's volumes are all multiattach); image and blank volumes are created on the host
 * during the build, so they are recorded without a volume yet; local disks are recorded as they
 * are. A statement or so per mapping, whatever the number of servers.
 */
async function insertMappings(
  deps: ComputeDeps,
  tx: Tx,
  auth: AuthContext,
  version: Microversion,
  servers: readonly ServerRow[],
  specs: readonly BdmSpec[],
): Promise<void> {
  for (const spec of specs) {
    if (spec.noDevice) continue;
    if (spec.sourceType === 'volume' && spec.sourceId) {
      await reserveVolumeForServers(deps, tx, auth, servers, {
        ...reserveArgs(spec, spec.sourceId, version),
        duringCreate: true,
      });
      continue;
    }
    await bdmsStore.insertMany(
      tx,
      servers.map((s) => localBdm(s, spec)),
    );
  }
}

function reserveArgs(spec: BdmSpec, volumeId: string, version: Microversion) {
  return {
    volumeId,
    bootIndex: spec.bootIndex,
    sourceType: spec.sourceType,
    destinationType: spec.destinationType,
    deviceName: spec.deviceName,
    tag: spec.tag,
    deleteOnTermination: spec.deleteOnTermination,
    attachMode: spec.attachMode,
    volumeType: spec.volumeType,
    diskBus: spec.diskBus,
    deviceType: spec.deviceType,
    guestFormat: spec.guestFormat,
    version,
  };
}

/** An image, blank or local mapping: recorded now, its volume (if any) created by the build. */
function localBdm(server: ServerRow, spec: BdmSpec): BdmRow {
  return {
    uuid: newUuid(),
    server_id: server.id,
    source_type: spec.sourceType,
    destination_type: spec.destinationType,
    volume_id: null,
    image_id: spec.sourceType === 'image' ? spec.sourceId : null,
    attachment_id: null,
    boot_index: spec.bootIndex,
    device_name: spec.deviceName
      ? spec.deviceName.startsWith('/dev/')
        ? spec.deviceName
        : `/dev/${spec.deviceName}`
      : null,
    device_type: spec.deviceType ?? 'disk',
    disk_bus: spec.diskBus,
    guest_format: spec.guestFormat,
    volume_size: spec.volumeSize,
    volume_type: spec.volumeType,
    delete_on_termination: spec.deleteOnTermination ? 1 : 0,
    tag: spec.tag,
    attach_mode: spec.destinationType === 'volume' ? (spec.attachMode ?? 'rw') : null,
    connection_info: null,
    created_at: nowIso(),
    updated_at: null,
  };
}
