import type { AttachMode, Refusal } from '@sv/shared';

/**
 * Nova's and Cinder's attach rules, asked before the user tries: the same checks in the same
 * words a person can act on. Pure: the service gathers the facts, these judge one pair.
 */

/** API statuses of Nova's attachable vm_states (ACTIVE, PAUSED, STOPPED, RESIZED, SOFT_DELETED, SHELVED*). */
export const ATTACHABLE_STATUSES = new Set([
  'ACTIVE',
  'PAUSED',
  'SHUTOFF',
  'VERIFY_RESIZE',
  'SOFT_DELETED',
  'SHELVED',
  'SHELVED_OFFLOADED',
]);

/*
 * No list of the statuses Cinder reserves from: which statuses take an attachment differs between
 * Cinder releases (a shared volume in `reserved`: refused before the fix of bug 1747985), so a
 * list here would refuse what some cloud allows. Only an error status is predicted (no release
 * attaches a volume in one); for the rest the attach asks the cloud, and its refusal comes back
 * with its own message.
 */

export interface ServerFacts {
  id: string;
  name: string;
  status: string;
  taskState: string | null;
  availabilityZone: string | null;
  /** The compute host, when this user may see it (admins). */
  host: string | null;
  /** Volumes Nova lists on the server. */
  volumeIds: readonly string[];
}

export interface VolumeFacts {
  id: string;
  name: string;
  status: string;
  multiattach: boolean;
  availabilityZone: string | null;
}

/**
 * A live hold on a volume (error_* and detached records excluded, and records Nova says are not
 * its server's): what makes a plain volume unavailable to another server.
 */
export interface HoldFacts {
  serverId: string;
  mode: AttachMode;
}

export interface HostFacts {
  supportsMultiattach: boolean | null;
  supportsAttachModes: boolean | null;
}

export interface CloudFacts {
  /** Compute ≥ 2.60. */
  multiattach: boolean;
  /** Compute ≥ 2.105, else why not. */
  readOnly: { available: boolean; reason: string | null };
  computeMax: string;
  /** Nova's [cinder] cross_az_attach, when the dashboard was told it; true is Nova's default. */
  crossAzAttach: boolean;
}

export interface Verdict {
  canAttach: boolean;
  canAttachReadOnly: boolean;
  reasons: Refusal[];
  readOnlyReasons: Refusal[];
}

const label = (v: { name: string; id: string }) => (v.name ? `'${v.name}'` : v.id);

function serverStateRefusals(server: ServerFacts, volume: VolumeFacts): Refusal[] {
  const out: Refusal[] = [];
  // Nova wants an attachable vm_state and no task in progress; a task shows in the status too (REBOOT).
  if (server.taskState) {
    out.push({
      code: 'server_state',
      message: `Server ${label(server)} is busy (${server.taskState}); try again when that finishes.`,
    });
  } else if (!ATTACHABLE_STATUSES.has(server.status)) {
    out.push({
      code: 'server_state',
      message: `Server ${label(server)} is ${server.status}; volumes can be attached only while it is active, paused, shut off, resized, soft-deleted or shelved.`,
    });
  }
  if (volume.multiattach && server.status === 'SHELVED_OFFLOADED') {
    out.push({
      code: 'server_state',
      message: 'Attaching multiattach volumes is not supported for shelved-offloaded instances.',
    });
  }
  return out;
}

function volumeRefusals(server: ServerFacts, volume: VolumeFacts, holds: readonly HoldFacts[]): Refusal[] {
  // Nova's list alone says what a server holds: anyone can make a Cinder record naming any server.
  if (server.volumeIds.includes(volume.id)) {
    return [
      {
        code: 'already_attached',
        message: `Volume ${label(volume)} is already attached to server ${label(server)}.`,
      },
    ];
  }
  if (!volume.multiattach && holds.length > 0) {
    return [
      {
        code: 'volume_not_shared',
        message: `Volume ${label(volume)} is attached to another server and is not a shared (multiattach) volume.`,
      },
    ];
  }
  if (volume.status.startsWith('error')) {
    return [
      {
        code: 'volume_status',
        message: `Volume ${label(volume)} is in an error state (${volume.status}) and cannot be attached.`,
      },
    ];
  }
  return [];
}

/** Whether `server` may take `volume`, and read-only too. Unknown facts (null) refuse nothing. */
export function judge(
  server: ServerFacts,
  volume: VolumeFacts,
  holds: readonly HoldFacts[],
  cloud: CloudFacts,
  host: HostFacts | null,
): Verdict {
  const reasons: Refusal[] = [];
  if (volume.multiattach && !cloud.multiattach) {
    reasons.push({
      code: 'microversion',
      message: `Shared volumes need compute API 2.60; this cloud stops at ${cloud.computeMax}.`,
    });
  }
  reasons.push(...serverStateRefusals(server, volume));
  reasons.push(...volumeRefusals(server, volume, holds));
  if (
    !cloud.crossAzAttach &&
    server.availabilityZone &&
    volume.availabilityZone &&
    server.availabilityZone !== volume.availabilityZone
  ) {
    reasons.push({
      code: 'availability_zone',
      message: `Server ${label(server)} is in availability zone ${server.availabilityZone} and volume ${label(volume)} in ${volume.availabilityZone}; this cloud does not attach volumes across zones.`,
    });
  }
  if (volume.multiattach && server.host && host?.supportsMultiattach === false) {
    reasons.push({
      code: 'host_no_multiattach',
      message: `Server ${label(server)} runs on host ${server.host}, whose hypervisor cannot share a disk between servers.`,
    });
  }

  const readOnlyReasons: Refusal[] = [];
  if (!cloud.readOnly.available) {
    readOnlyReasons.push({
      code: 'microversion',
      message: cloud.readOnly.reason ?? 'This cloud does not offer read-only attachments.',
    });
  } else if (server.host && host?.supportsAttachModes === false) {
    readOnlyReasons.push({
      code: 'host_too_old_for_modes',
      message: `Server ${label(server)} runs on host ${server.host}, whose compute service is too old for read-only attachments.`,
    });
  }
  const canAttach = reasons.length === 0;
  return {
    canAttach,
    canAttachReadOnly: canAttach && readOnlyReasons.length === 0,
    reasons,
    readOnlyReasons,
  };
}
