import { badRequest } from '../../platform/http/errors.js';
import { boolFromString } from '../../platform/validation/parameter-types.js';
import type { BdmV2Item, LegacyBdmItem, ServerCreateBody } from '../schemas/servers.schemas.js';
import type { AttachMode } from '../volume-attach-rules.js';

/**
 * Block device mappings of POST /servers, as Nova's API turns them into its internal form
 * (`servers.py` `_process_bdms_for_create`, `block_device.py` `BlockDeviceDict.from_api`,
 * `_validate`, `from_legacy_mapping`) and checks them per instance (`compute/api.py`
 * `_validate_bdm`). Messages are Nova's, quoted exactly.
 */

export interface BdmSpec {
  sourceType: 'volume' | 'image' | 'snapshot' | 'blank';
  destinationType: 'local' | 'volume';
  /** The volume/image/snapshot id, null for blank. */
  sourceId: string | null;
  /** null or negative: not bootable. */
  bootIndex: number | null;
  volumeSize: number | null;
  deleteOnTermination: boolean;
  deviceName: string | null;
  deviceType: string | null;
  diskBus: string | null;
  guestFormat: string | null;
  tag: string | null;
  volumeType: string | null;
  /** 2.105; undefined when not given (volume mappings default to rw). */
  attachMode: AttachMode | undefined;
  noDevice: boolean;
}

const bdmInvalid = (details: string) => badRequest(`Block Device Mapping is Invalid: ${details}`);

export const MULTI_INSTANCE_VOLUMES = 'Cannot attach one or more volumes to multiple instances';

/** `block_device.strip_dev` then the letter test Nova uses for a legacy root device. */
const stripDev = (name: string | null | undefined) => (name ?? '').replace(/^\/dev\//, '');
function isRootDeviceName(name: string | null | undefined): boolean {
  const stripped = stripDev(name);
  const letter = /^(?:x?v|s|h)d([a-z])/.exec(stripped)?.[1];
  return letter === 'a';
}

function intOrNull(v: number | string | null | undefined): number | null {
  if (v === null || v === undefined) return null;
  return typeof v === 'number' ? v : Number.parseInt(v, 10);
}

/**
 * `BlockDeviceDict.from_api` and `_validate` for one v2 item (already schema-checked).
 * `imageRefGiven`: the request has an imageRef, which makes image->local boot index 0 legal.
 */
function fromApi(item: BdmV2Item, imageRefGiven: boolean): BdmSpec {
  const noDevice = item.no_device !== undefined && item.no_device !== null && item.no_device !== false;
  const sourceType = item.source_type ?? null;
  const uuid = item.uuid ?? null;
  const destinationType = item.destination_type ?? null;
  const volumeType = item.volume_type ?? null;
  let sourceId: string | null = null;
  // Nova copies uuid into `<source_type>_id`; with no source_type that key is a bogus field.
  let bogusField = false;
  if (!noDevice) {
    if (sourceType === 'blank' && uuid) throw bdmInvalid('Invalid device UUID.');
    if (sourceType !== 'blank') {
      if (!uuid) throw bdmInvalid('Missing device UUID.');
      bogusField = sourceType === null;
      sourceId = uuid;
    }
    if (sourceType === 'image' && destinationType === 'local') {
      const bootIndex = intOrNull(item.boot_index) ?? -1;
      if (!(imageRefGiven && bootIndex === 0)) throw bdmInvalid('Mapping image to local is not supported.');
    }
    if (destinationType === 'local' && volumeType) {
      throw bdmInvalid('Specifying a volume_type with destination_type=local is not supported.');
    }
    if (sourceType === 'volume' && volumeType) {
      throw bdmInvalid('Specifying volume type to existing volume is not supported.');
    }
    // The enhancement spec: fail rather than ignore a mode on a local (swap/ephemeral) disk.
    if (destinationType === 'local' && item.attach_mode !== undefined) {
      throw bdmInvalid('Specifying an attach_mode with destination_type=local is not supported.');
    }
    if (bogusField) throw bdmInvalid('Some fields are invalid.');
    if (sourceType === null) throw bdmInvalid('Some required fields are missing');
  }
  const volumeSize = intOrNull(item.volume_size);
  return {
    sourceType: sourceType ?? 'blank',
    destinationType: destinationType ?? 'local',
    sourceId,
    bootIndex: intOrNull(item.boot_index),
    volumeSize: volumeSize === null || Number.isNaN(volumeSize) ? null : volumeSize,
    deleteOnTermination:
      item.delete_on_termination === undefined ? false : boolFromString(item.delete_on_termination),
    deviceName: item.device_name ?? null,
    deviceType: item.device_type ?? null,
    diskBus: item.disk_bus ?? null,
    guestFormat: item.guest_format ?? null,
    tag: item.tag ?? null,
    volumeType,
    attachMode: item.attach_mode,
    noDevice,
  };
}

/**
 * `from_legacy_mapping`: v1 items become volume (or snapshot) mappings; the one on the root
 * device name boots. An image request gets an image->local root unless a legacy item is root.
 */
function fromLegacy(items: readonly LegacyBdmItem[], imageRef: string | null): BdmSpec[] {
  const out: BdmSpec[] = [];
  let rootSeen = false;
  for (const item of items) {
    if (item.no_device !== undefined && item.no_device !== null && item.no_device !== false) continue;
    const volumeId = item.volume_id ?? null;
    const snapshotId = item.snapshot_id ?? null;
    const isRoot = isRootDeviceName(item.device_name);
    if (isRoot) rootSeen = true;
    out.push({
      sourceType: snapshotId ? 'snapshot' : volumeId ? 'volume' : 'blank',
      destinationType: volumeId || snapshotId ? 'volume' : 'local',
      sourceId: snapshotId ?? volumeId,
      bootIndex: isRoot ? 0 : -1,
      volumeSize: intOrNull(item.volume_size),
      deleteOnTermination:
        item.delete_on_termination === undefined ? false : boolFromString(item.delete_on_termination),
      deviceName: item.device_name ?? null,
      deviceType: null,
      diskBus: null,
      guestFormat: null,
      tag: null,
      volumeType: null,
      attachMode: undefined,
      noDevice: false,
    });
  }
  if (imageRef && !rootSeen) out.unshift(imageRootSpec(imageRef));
  return out;
}

function imageRootSpec(imageRef: string): BdmSpec {
  return {
    sourceType: 'image',
    destinationType: 'local',
    sourceId: imageRef,
    bootIndex: 0,
    volumeSize: null,
    deleteOnTermination: true,
    deviceName: null,
    deviceType: 'disk',
    diskBus: null,
    guestFormat: null,
    tag: null,
    volumeType: null,
    attachMode: undefined,
    noDevice: false,
  };
}

export interface ParsedBdms {
  specs: BdmSpec[];
  /** The request carried block device mappings of its own (for "Missing imageRef attribute"). */
  given: boolean;
}

/** `_process_bdms_for_create` + the legacy conversion Nova does when the request has none. */
export function parseBdms(server: ServerCreateBody['server']): ParsedBdms {
  const legacy = server.block_device_mapping ?? [];
  const v2 = server.block_device_mapping_v2 ?? [];
  if (legacy.length > 0 && v2.length > 0) {
    throw badRequest('Using different block_device_mapping syntaxes is not allowed in the same request.');
  }
  const imageRef = server.imageRef ? server.imageRef : null;
  if (v2.length > 0) {
    const imageRefGiven = server.imageRef !== undefined;
    return { specs: v2.map((i) => fromApi(i, imageRefGiven)), given: true };
  }
  return { specs: fromLegacy(legacy, imageRef), given: legacy.length > 0 };
}

/** `get_bdm_image_metadata`'s choice of the boot device: the mapping with boot index exactly 0. */
export const rootSpec = (specs: readonly BdmSpec[]) => specs.find((s) => !s.noDevice && s.bootIndex === 0);

/** `_check_and_transform_bdm`: an image boot cannot put a volume on the root device name. */
export function checkRootDeviceClash(specs: readonly BdmSpec[], imageBoot: boolean): void {
  if (!imageBoot) return;
  for (const s of specs) {
    if (s.destinationType === 'volume' && stripDev(s.deviceName) === 'vda') {
      throw badRequest('The volume cannot be assigned the same device name as the root device vda');
    }
  }
}

/** libvirt's known disk buses (`fields.DiskBus.ALL`). */
const DISK_BUSES = new Set(['fdc', 'ide', 'sata', 'scsi', 'usb', 'virtio', 'xen', 'lxc', 'uml']);
/** `[DEFAULT] max_local_block_devices`. */
const MAX_LOCAL_BLOCK_DEVICES = 3;

/**
 * The instance-independent part of `_validate_bdm`: boot sequence, then per mapping (in order)
 * the image/blank size rules and the disk bus, then swap, ephemeral and local-device limits.
 * Volume and snapshot lookups are done by the caller at the same point (`lookupSource`).
 */
export async function validateBdmSpecs(
  specs: readonly BdmSpec[],
  flavor: { ephemeral: number; swap: number },
  lookupSource: (spec: BdmSpec) => Promise<void>,
): Promise<void> {
  const live = specs.filter((s) => !s.noDevice);
  const bootIndexes = live
    .map((s) => s.bootIndex)
    .filter((i): i is number => i !== null && i >= 0)
    .sort((a, b) => a - b);
  if (bootIndexes.length === 0 || bootIndexes.some((v, i) => v !== i)) {
    throw bdmInvalid(
      'Boot sequence for the instance and image/block device mapping combination is not valid.',
    );
  }
  for (const s of live) {
    if (s.sourceType === 'image') {
      await lookupSource(s);
      if (s.destinationType === 'volume' && !s.volumeSize) {
        throw badRequest("Images with destination_type 'volume' need to have a non-zero size specified");
      }
    } else if (s.sourceType === 'volume' || s.sourceType === 'snapshot') {
      await lookupSource(s);
    } else if (s.destinationType === 'volume' && !s.volumeSize) {
      throw badRequest("Blank volumes (source: 'blank', dest: 'volume') need to have non-zero size");
    }
    // InvalidBDMDiskBus's message attribute has a typo, so the generic text is what users get.
    if (s.diskBus && !DISK_BUSES.has(s.diskBus)) throw badRequest('Block Device Mapping is Invalid.');
  }
  const ephemerals = live.filter(
    (s) => s.sourceType === 'blank' && s.destinationType === 'local' && s.guestFormat !== 'swap',
  );
  const ephemeralSize = ephemerals.reduce((sum, s) => sum + (s.volumeSize ?? flavor.ephemeral), 0);
  if (ephemeralSize > flavor.ephemeral) {
    throw badRequest(
      'Ephemeral disks requested are larger than the instance type allows. If no size is given in one block device mapping, flavor ephemeral size will be used.',
    );
  }
  const swaps = live.filter(
    (s) => s.sourceType === 'blank' && s.destinationType === 'local' && s.guestFormat === 'swap',
  );
  if (swaps.length > 1) throw bdmInvalid('More than one swap drive requested.');
  if (swaps[0] && (swaps[0].volumeSize ?? 0) > flavor.swap) {
    throw badRequest('Swap drive requested is larger than instance type allows.');
  }
  if (live.filter((s) => s.destinationType === 'local').length > MAX_LOCAL_BLOCK_DEVICES) {
    throw bdmInvalid('You specified more local devices than the limit allows');
  }
}
