import { cinderTime } from '../../platform/time.js';
import type { SnapshotDescription, VolumeDescription } from '../clients/volume-client.js';

/**
 * Nova's proxy views (`_translate_volume_summary_view`, `_translate_snapshot_summary_view`):
 * camelCase keys; an unattached volume shows one empty attachment (capture 970), an attached one
 * an entry per server whose `id` is the volume's (capture 979).
 */
export function proxyVolumeView(v: VolumeDescription) {
  // Nova keys the attachments by server (an OrderedDict): one entry per server.
  const byServer = new Map<string | null, string | null>();
  for (const a of v.attachments) byServer.set(a.instanceUuid, a.mountpoint);
  const attachments =
    byServer.size === 0
      ? [{}]
      : [...byServer].map(([serverId, device]) => ({
          id: v.id,
          volumeId: v.id,
          serverId,
          ...(device ? { device } : {}),
        }));
  return {
    id: v.id,
    status: v.status,
    size: v.size,
    availabilityZone: v.availabilityZone,
    createdAt: cinderTime(v.createdAt),
    attachments,
    displayName: v.name,
    displayDescription: v.description,
    volumeType: v.typeName,
    snapshotId: v.snapshotId,
    metadata: v.metadata,
  };
}

export function proxySnapshotView(s: SnapshotDescription) {
  return {
    id: s.id,
    volumeId: s.volumeId,
    status: s.status,
    size: s.size,
    createdAt: cinderTime(s.createdAt),
    displayName: s.name,
    displayDescription: s.description,
  };
}
