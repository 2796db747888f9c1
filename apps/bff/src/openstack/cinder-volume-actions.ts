import type { CloudClient } from './cloud-client.js';
import { VOLUME } from './microversions.js';

/**
 * Cinder's volume actions the volume page offers (POST /volumes/{id}/action). Only this file and
 * cinder.ts know Cinder's JSON. Extending an in-use volume needs 3.42; the BFF asks at its usual
 * read version (3.50, capped by the cloud) and lets the cloud decide.
 */

const action = (cloud: CloudClient, volumeId: string, body: Record<string, unknown>) =>
  cloud.cinder('POST', `/volumes/${encodeURIComponent(volumeId)}/action`, {
    body,
    microversion: cloud.volumeVersion(VOLUME.base),
  });

/** os-extend: Cinder answers 202 and the volume goes `extending`, then back to its status. */
export async function extendVolume(cloud: CloudClient, volumeId: string, sizeGb: number): Promise<void> {
  await action(cloud, volumeId, { 'os-extend': { new_size: sizeGb } });
}

/** os-retype: Cinder answers 202 and the volume goes `retyping`. */
export async function retypeVolume(
  cloud: CloudClient,
  volumeId: string,
  type: string,
  migrationPolicy: 'never' | 'on-demand',
): Promise<void> {
  await action(cloud, volumeId, { 'os-retype': { new_type: type, migration_policy: migrationPolicy } });
}
