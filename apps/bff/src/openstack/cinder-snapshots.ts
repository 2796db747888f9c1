import { cinderIso } from './cinder.js';
import type { CloudClient } from './cloud-client.js';
import { VOLUME } from './microversions.js';
import { type CollectionPage, listAllPages, queryString } from './paging.js';

/**
 * Cinder's snapshots (/snapshots) and volumes made from one. Only this file and cinder.ts know
 * Cinder's JSON. The BFF asks at its usual read version (3.50): below 3.66 an in-use volume is
 * snapshotted only with `force`, which the caller passes when the user chose it.
 */

export interface CinderSnapshot {
  id: string;
  name: string;
  description: string | null;
  status: string;
  sizeGb: number;
  volumeId: string;
  /** Shown by detail lists and show (the extended attribute); null when the cloud omits it. */
  projectId: string | null;
  createdAt: string;
}

interface RawSnapshot {
  id: string;
  name: string | null;
  description: string | null;
  status: string;
  size: number;
  volume_id: string;
  created_at: string;
  'os-extended-snapshot-attributes:project_id'?: string;
}

const version = (cloud: CloudClient) => cloud.volumeVersion(VOLUME.base);

function toSnapshot(s: RawSnapshot): CinderSnapshot {
  return {
    id: s.id,
    name: s.name ?? '',
    description: s.description ?? null,
    status: s.status,
    sizeGb: s.size,
    volumeId: s.volume_id,
    projectId: s['os-extended-snapshot-attributes:project_id'] ?? null,
    createdAt: cinderIso(s.created_at) ?? s.created_at,
  };
}

/** Snapshots with details: the project's, one volume's (`volumeId`), or every project's (admins). */
export async function listSnapshots(
  cloud: CloudClient,
  opts: { volumeId?: string; allProjects?: boolean } = {},
): Promise<CinderSnapshot[]> {
  const snapshots = await listAllPages<RawSnapshot>('snapshots', async (paging) => {
    const filters = { volume_id: opts.volumeId, all_tenants: opts.allProjects ? '1' : undefined };
    const res = await cloud.cinder<CollectionPage<RawSnapshot>>(
      'GET',
      `/snapshots/detail${queryString({ ...filters, ...paging })}`,
      { microversion: version(cloud) },
    );
    return res.body;
  });
  return snapshots.map(toSnapshot);
}

export async function getSnapshot(cloud: CloudClient, snapshotId: string): Promise<CinderSnapshot> {
  const res = await cloud.cinder<{ snapshot: RawSnapshot }>(
    'GET',
    `/snapshots/${encodeURIComponent(snapshotId)}`,
    { microversion: version(cloud) },
  );
  return toSnapshot(res.body.snapshot);
}

/** POST /snapshots: Cinder answers 202 with the snapshot `creating`. */
export async function createSnapshot(
  cloud: CloudClient,
  input: { volumeId: string; name: string; description?: string; force: boolean },
): Promise<CinderSnapshot> {
  const snapshot: Record<string, unknown> = { volume_id: input.volumeId, name: input.name };
  if (input.description !== undefined) snapshot.description = input.description;
  // From 3.66 `force: false` is refused; leave it out unless the user asked for it.
  if (input.force) snapshot.force = true;
  const res = await cloud.cinder<{ snapshot: RawSnapshot }>('POST', '/snapshots', {
    body: { snapshot },
    microversion: version(cloud),
  });
  return toSnapshot(res.body.snapshot);
}

export async function deleteSnapshot(cloud: CloudClient, snapshotId: string): Promise<void> {
  await cloud.cinder('DELETE', `/snapshots/${encodeURIComponent(snapshotId)}`, {
    microversion: version(cloud),
  });
}

/** POST /volumes with `snapshot_id`: the new volume's id (Cinder answers with it `creating`). */
export async function createVolumeFromSnapshot(
  cloud: CloudClient,
  input: { snapshotId: string; name: string; sizeGb: number; type?: string },
): Promise<{ id: string }> {
  const volume: Record<string, unknown> = {
    name: input.name,
    size: input.sizeGb,
    snapshot_id: input.snapshotId,
  };
  if (input.type !== undefined) volume.volume_type = input.type;
  const res = await cloud.cinder<{ volume: { id: string } }>('POST', '/volumes', {
    body: { volume },
    microversion: version(cloud),
  });
  return { id: res.body.volume.id };
}
