import { ATTACH_MODE_MIN_SERVICE_VERSION } from './hosts.js';
import type { AttachHost } from './store/bdms.store.js';
import type { ServerRow } from './store/servers.store.js';
import type { AuthContext } from '../platform/http/context.js';
import { badRequest, conflict, notFound } from '../platform/http/errors.js';

/**
 * Nova's messages and state rules for volume attach, detach and swap (reference 1.5-1.9),
 * quoted exactly: clients and Tempest match on them.
 */

export type AttachMode = 'rw' | 'ro';

export const ATTACH_STATES = [
  'active',
  'paused',
  'stopped',
  'resized',
  'soft-delete',
  'shelved',
  'shelved_offloaded',
] as const;
export const DETACH_STATES = ATTACH_STATES;
export const SWAP_STATES = ['active', 'paused', 'resized'] as const;

export const instanceNotFound = (id: string) => notFound(`Instance ${id} could not be found.`);
export const volumeNotFound = (id: string) => notFound(`Volume ${id} could not be found.`);
export const notAttached = (serverId: string, volumeId: string) =>
  notFound(`Instance ${serverId} is not attached to volume ${volumeId}`);
export const noVolumeBdm = (volumeId: string) =>
  notFound(`No volume Block Device Mapping with id ${volumeId}.`);

/** `common.raise_http_conflict_for_instance_invalid_state`. */
export const invalidState = (action: string, serverId: string, attr: string, state: string | null) =>
  conflict(`Cannot '${action}' instance ${serverId} while it is in ${attr} ${state ?? 'None'}`);

export const MULTIATTACH_OLD_MICROVERSION =
  'Multiattach volumes are only supported starting with compute API version 2.60.';
export const MULTIATTACH_TO_SHELVED =
  'Attaching multiattach volumes is not supported for shelved-offloaded instances.';
export const TAGGED_TO_SHELVED = 'Tagged volume attachment is not supported for shelved-offloaded instances.';
export const TAGGED_NOT_SUPPORTED = 'Tagged volume attachment is not supported for this instance.';
export const ROOT_DETACH = 'Cannot detach a root device volume';
export const SWAP_MULTI_RW =
  'Swapping multi-attach volumes with more than one read/write attachment is not supported.';

export const multiattachNotSupportedByDriver = (volumeId: string) =>
  badRequest(`Volume ${volumeId} has 'multiattach' set, which is not supported for this instance.`);

/**
 * The enhancement spec's 409 for a read-only attach onto a host whose nova-compute predates
 * attach modes (the spec gives the status, not the words; these follow Nova's
 * "... is not yet available." family).
 */
export const attachModeNotSupported = (serverId: string) =>
  conflict(`Read-only volume attachment is not yet available on the compute host of instance ${serverId}.`);

/** `check_instance_lock` then `check_instance_state` (task_state must be None, launched_at set). */
export function assertInstanceState(
  server: ServerRow,
  caller: AuthContext,
  action: string,
  vmStates: readonly string[],
): void {
  if (server.locked === 1 && !caller.isAdmin) throw conflict(`Instance ${server.id} is locked`);
  if (!vmStates.includes(server.vm_state)) throw invalidState(action, server.id, 'vm_state', server.vm_state);
  if (server.task_state !== null) throw invalidState(action, server.id, 'task_state', server.task_state);
  if (!server.launched_at) throw invalidState(action, server.id, 'launched_at', null);
}

/** Below 2.20, attach and detach refuse shelved servers (`_check_request_version`). */
export function assertShelvedAllowed(server: ServerRow, action: string, atLeast220: boolean): void {
  if (!atLeast220 && (server.vm_state === 'shelved' || server.vm_state === 'shelved_offloaded')) {
    throw invalidState(action, server.id, 'vm_state', server.vm_state);
  }
}

/** What `reserve_block_device_name` on the compute host refuses, plus the spec's attach-mode check. */
export function assertHostCanAttach(
  host: AttachHost,
  server: ServerRow,
  volume: { id: string; multiattach: boolean },
  attachMode: AttachMode,
  tag: string | null,
): void {
  if (attachMode === 'ro' && host.serviceVersion < ATTACH_MODE_MIN_SERVICE_VERSION) {
    throw attachModeNotSupported(server.id);
  }
  if (volume.multiattach && !host.supportsMultiattach) throw multiattachNotSupportedByDriver(volume.id);
  // Only the libvirt (and hyperv) drivers report supports_device_tagging.
  if (tag !== null && host.hypervisorType === 'ironic') throw badRequest(TAGGED_NOT_SUPPORTED);
}
