import type { AuthContext } from '../../platform/http/context.js';
import { forbidden, OpenStackError } from '../../platform/http/errors.js';
import { assertProjectWriter } from '../policy.js';
import { type SnapshotDescription, userCaller, type VolumeDescription } from '../clients/volume-client.js';
import type { ComputeDeps } from '../deps.js';
import type { ProxySnapshotCreate, ProxyVolumeCreate } from '../schemas/os-volumes.schemas.js';

/**
 * Nova's deprecated os-volumes / os-snapshots proxy (`nova/api/openstack/compute/volumes.py`,
 * 2.1-2.35): each call is the user's own call to Cinder through the volume client, so the volume
 * rules stay Cinder's. Nova adds its policy (any role on the project reads; a reader-only token
 * changes nothing) and its paging (`common.limited`).
 */

export const PROXY_RULES = {
  volumesCreate: 'os_compute_api:os-volumes:create',
  volumesDelete: 'os_compute_api:os-volumes:delete',
  snapshotsCreate: 'os_compute_api:os-volumes:snapshots:create',
  snapshotsDelete: 'os_compute_api:os-volumes:snapshots:delete',
} as const;

/** `common.limited`: offset, then at most `limit` items. */
export const limited = <T>(items: T[], page: { limit: number; offset: number }): T[] =>
  items.slice(page.offset, page.offset + page.limit);

export function listProxyVolumes(deps: ComputeDeps, auth: AuthContext): Promise<VolumeDescription[]> {
  return deps.volumes.describeAll(userCaller(auth));
}

export function showProxyVolume(
  deps: ComputeDeps,
  auth: AuthContext,
  id: string,
): Promise<VolumeDescription> {
  return deps.volumes.describe(userCaller(auth), id);
}

export async function createProxyVolume(
  deps: ComputeDeps,
  auth: AuthContext,
  input: ProxyVolumeCreate,
): Promise<VolumeDescription> {
  assertProjectWriter(auth, PROXY_RULES.volumesCreate);
  const caller = userCaller(auth);
  // Nova looks the snapshot up first (its 404 is Cinder's text).
  if (input.snapshotId !== null) await deps.volumes.describeSnapshot(caller, input.snapshotId);
  try {
    return await deps.volumes.createDescribed(caller, {
      name: input.name,
      description: input.description,
      volumeType: input.volumeType,
      metadata: input.metadata,
      size: input.size,
      availabilityZone: input.availabilityZone,
      snapshotId: input.snapshotId,
      sourceVolid: null,
      backupId: null,
      groupId: null,
      consistencygroupId: null,
      imageRef: null,
      multiattach: false,
    });
  } catch (err) {
    // cinder.py create: Cinder's OverLimit is Nova's OverQuota, a 403 in this API.
    if (err instanceof OpenStackError && err.status === 413)
      throw forbidden('Quota exceeded for resources: volumes.');
    throw err;
  }
}

export async function deleteProxyVolume(deps: ComputeDeps, auth: AuthContext, id: string): Promise<void> {
  assertProjectWriter(auth, PROXY_RULES.volumesDelete);
  await deps.volumes.remove(userCaller(auth), id);
}

export function listProxySnapshots(deps: ComputeDeps, auth: AuthContext): Promise<SnapshotDescription[]> {
  return deps.volumes.describeSnapshots(userCaller(auth));
}

export function showProxySnapshot(
  deps: ComputeDeps,
  auth: AuthContext,
  id: string,
): Promise<SnapshotDescription> {
  return deps.volumes.describeSnapshot(userCaller(auth), id);
}

export async function createProxySnapshot(
  deps: ComputeDeps,
  auth: AuthContext,
  input: ProxySnapshotCreate,
): Promise<SnapshotDescription> {
  assertProjectWriter(auth, PROXY_RULES.snapshotsCreate);
  try {
    return await deps.volumes.createSnapshot(userCaller(auth), input);
  } catch (err) {
    if (err instanceof OpenStackError && err.status === 413)
      throw forbidden('Quota exceeded for resources: snapshots.');
    throw err;
  }
}

export async function deleteProxySnapshot(deps: ComputeDeps, auth: AuthContext, id: string): Promise<void> {
  assertProjectWriter(auth, PROXY_RULES.snapshotsDelete);
  await deps.volumes.removeSnapshot(userCaller(auth), id);
}
