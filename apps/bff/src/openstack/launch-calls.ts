import type { AttachMode } from '@sv/shared';
import type { CloudClient } from './cloud-client.js';
import { COMPUTE, versionAtLeast } from './microversions.js';
import { OpenStackFault } from './fault.js';
import type { BlockDevice } from './nova.js';

/** How many creates, and how many attaches, a launch keeps in flight at once. */
export const CREATE_CONCURRENCY = 4;
export const ATTACH_CONCURRENCY = 4;

/**
 * What a launch needs beyond nova.ts and cinder.ts: the block device mappings of its creates,
 * recognising Cinder's "volume busy" refusal, and the requests it sends, in words, for the plan.
 */

export interface VolumeMapping {
  volumeId: string;
  mode: AttachMode;
}

/** Boot volume at boot index 0 (or the image spelled out there), data volumes after it. */
export function launchBlockDevices(
  boot: VolumeMapping | null,
  imageId: string | null,
  data: VolumeMapping[],
): BlockDevice[] {
  const out: BlockDevice[] = [];
  const volume = (m: VolumeMapping, bootIndex: number | null): BlockDevice => ({
    sourceType: 'volume',
    destinationType: 'volume',
    uuid: m.volumeId,
    bootIndex,
    deleteOnTermination: false,
    attachMode: m.mode,
  });
  if (boot) out.push(volume(boot, 0));
  else if (imageId && data.length > 0) {
    // With other mappings present, the image goes in as boot index 0 (as openstackclient sends it).
    out.push({ sourceType: 'image', destinationType: 'local', uuid: imageId, bootIndex: 0 });
  }
  for (const d of data) out.push(volume(d, -1));
  return out;
}

/**
 * Cinder refusing because the volume is between states (`reserved`, `attaching`): another
 * attachment is in flight. Clouds without the fix for bug 1747985 answer this for a shared
 * volume until the previous attach completes, so it is worth waiting and trying again.
 */
export function isVolumeBusy(err: unknown): boolean {
  return (
    err instanceof OpenStackFault &&
    (err.status === 400 || err.status === 409) &&
    /status must be[\s\S]*\b(reserved|attaching)\b/i.test(err.message)
  );
}

const volumeWords = (boot: VolumeMapping | null, imageId: string | null, data: VolumeMapping[]) =>
  [
    boot ? `boot volume ${boot.volumeId} (${boot.mode})` : `image ${imageId ?? ''}`,
    ...data.map((d) => `data volume ${d.volumeId} (${d.mode})`),
  ].join(', ');

/** The one multi-create request and how its servers are followed. */
export function describeMultiCreate(
  count: number,
  boot: VolumeMapping | null,
  imageId: string | null,
  data: VolumeMapping[],
): string[] {
  return [
    `POST /servers at compute ${COMPUTE.enhancements} (min_count=max_count=${count}, return_reservation_id): ${volumeWords(boot, imageId, data)}`,
    `GET /servers/detail?reservation_id=… once, then GET /servers/detail?name=… and one GET /volumes/{id} per volume a round, until all ${count} servers are ACTIVE or ERROR with their volumes attached`,
  ];
}

/** The single creates (a few at a time), the wait, and each data volume's attaches (a few at a time). */
export function describeSerial(
  cloud: CloudClient,
  count: number,
  boot: VolumeMapping | null,
  imageId: string | null,
  data: VolumeMapping[],
): string[] {
  const version = cloud.computeVersion(COMPUTE.enhancements);
  const modes = versionAtLeast(version, COMPUTE.enhancements);
  const retry =
    boot && count > 1
      ? '; if the cloud refuses one because the boot volume is reserved, the rest go one at a time, each once GET /volumes/{id} shows it free'
      : '';
  return [
    `POST /servers at compute ${version}, ${count === 1 ? 'once' : `${count} times, one server each, up to ${CREATE_CONCURRENCY} at once`}: ${volumeWords(boot, imageId, [])}${retry}`,
    'GET /servers/detail?name=… (one listing for every server) a round until each is ACTIVE or ERROR',
    ...data.map(
      (d) =>
        `POST /servers/{id}/os-volume_attachments at compute ${version} on each server once it is ACTIVE, up to ${ATTACH_CONCURRENCY} at once: volume ${d.volumeId}${modes ? ` (attach_mode ${d.mode})` : ''}; one GET /volumes/{id} a round says which are attached; if the cloud refuses one because the volume is reserved, one at a time from then on, each once GET /volumes/{id} shows it free`,
    ),
  ];
}
