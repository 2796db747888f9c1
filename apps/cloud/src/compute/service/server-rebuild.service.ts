import type { ComputeDeps } from '../deps.js';
import type { AuthContext } from '../../platform/http/context.js';
import { badRequest } from '../../platform/http/errors.js';
import type { Microversion } from '../../platform/http/microversion.js';
import { nowIso } from '../../platform/time.js';
import { compactIpv6 } from '../ip-format.js';
import { assertProjectWriter } from '../policy.js';
import type { ServerRebuildBody } from '../schemas/server-rebuild.schemas.js';
import { bdmsStore } from '../store/bdms.store.js';
import { type ServerRow, serversStore } from '../store/servers.store.js';
import { VM } from '../server-states.js';
import { recordAction } from './instance-actions-recorder.js';
import { keypairForServer } from './keypairs.service.js';
import { checkMetadataAndFilesQuota } from './quotas.service.js';
import { generatePassword } from './server-create.service.js';
import { checkState } from './server-actions.service.js';
import { instanceNotFound } from './servers.service.js';

export const SERVER_REBUILD_RULE = 'os_compute_api:servers:rebuild';
export const SERVER_REBUILD_TRUSTED_CERTS_RULE = 'os_compute_api:servers:rebuild:trusted_certs';

/** `ImageNotFound` during rebuild: servers.py hides the id behind its own wording. */
export const REBUILD_IMAGE_NOT_FOUND = 'Cannot find image for rebuild';
/** Capture 876: a volume-backed server keeps the image of its root volume before 2.93. */
export const VOLUME_BACKED_OTHER_IMAGE =
  'Unable to rebuild with a different image for a volume-backed server.';
/** Capture 877. */
export const VOLUME_BACKED_CERTS = 'Image certificate validation is not supported for volume-backed servers.';

export interface RebuiltServer {
  server: ServerRow;
  adminPass: string;
}

/**
 * POST /servers/{id}/action `rebuild` (`servers.py` `_action_rebuild`, `compute/api.py` `rebuild`),
 * once the body is valid: the lookup (404) before the policy, the lock and the states that may be
 * rebuilt (ACTIVE, SHUTOFF, ERROR, no task), the key pair (2.54), the image, the volume-backed rule,
 * the metadata and personality quotas, then every change and the `rebuild` action in one
 * transaction. The host then runs rebuilding → rebuild_block_device_mapping → rebuild_spawning
 * (`host/server-lifecycle.ts`); attached volumes stay attached.
 */
export async function rebuildServer(
  deps: ComputeDeps,
  auth: AuthContext,
  version: Microversion,
  id: string,
  body: ServerRebuildBody,
): Promise<RebuiltServer> {
  const r = body.rebuild;
  const adminPass = r.adminPass ?? generatePassword();
  // The image service reads outside the server's transaction; its answer counts in Nova's order below.
  const image = await deps.images.get(r.imageRef);
  return deps.store.transaction(async (tx) => {
    const s = await serversStore.lockById(deps.store, tx, id);
    if (!s || !(auth.isAdmin || s.project_id === auth.projectId)) throw instanceNotFound(id);
    assertProjectWriter(auth, SERVER_REBUILD_RULE);
    const certsGiven = version.atLeast('2.63') && r.trusted_image_certificates !== undefined;
    if (certsGiven) assertProjectWriter(auth, SERVER_REBUILD_TRUSTED_CERTS_RULE);
    checkState(s, auth, 'rebuild', { vmStates: [VM.active, VM.stopped, VM.error] });

    const changes: Partial<ServerRow> = {};
    if (version.atLeast('2.54') && r.key_name !== undefined) {
      // The caller's own key pair, whoever created the server (users own keys, projects servers).
      changes.key_name = r.key_name === null ? null : (await keypairForServer(tx, auth, r.key_name)).name;
    }
    if (version.atLeast('2.57') && r.user_data !== undefined) changes.user_data = r.user_data;
    const certs = certsGiven ? (r.trusted_image_certificates ?? null) : undefined;
    if (certs !== undefined) changes.trusted_certs = certs === null ? null : JSON.stringify(certs);
    if (version.atLeast('2.90') && r.hostname !== undefined) changes.hostname = r.hostname;

    if (!image) throw badRequest(REBUILD_IMAGE_NOT_FOUND);
    const volumeBacked = s.image_id === null;
    if (volumeBacked) {
      if (certs) throw badRequest(VOLUME_BACKED_CERTS);
      // The root volume's image is the one it was created from (Cinder's volume_image_metadata);
      // a volume made bootable by hand has none, so any image differs. 2.93 reimages the volume.
      const root = (await bdmsStore.forServer(tx, s.id)).find((b) => b.boot_index === 0);
      if (root?.image_id !== r.imageRef && version.below('2.93')) {
        throw badRequest(`Image ${r.imageRef} is unacceptable: ${VOLUME_BACKED_OTHER_IMAGE}`);
      }
    }
    // `_checks_for_create_and_rebuild`: the same metadata and personality limits as create, then the image.
    await checkMetadataAndFilesQuota(
      tx,
      s.project_id,
      Object.keys(r.metadata ?? {}).length,
      (version.below('2.57') ? (r.personality ?? []) : []).map((f) => ({
        path: f.path ?? '',
        contentBytes: Buffer.from(f.contents ?? '', 'base64').length,
      })),
    );
    if (image.status !== 'active') throw badRequest(`Image ${r.imageRef} is not active.`);

    // An empty image marks a volume-backed server; rebuild keeps it so.
    if (!volumeBacked) changes.image_id = r.imageRef;
    if (r.name !== undefined) changes.name = r.name;
    if (r.metadata !== undefined) changes.metadata = JSON.stringify(r.metadata);
    if (r.accessIPv4 !== undefined) changes.access_ip_v4 = r.accessIPv4;
    if (r.accessIPv6 !== undefined) changes.access_ip_v6 = compactIpv6(r.accessIPv6);
    if (version.atLeast('2.19') && r.description !== undefined) changes.description = r.description;
    // The disk config comes from the request, else from the image (none sets it): MANUAL (capture 858).
    changes.auto_disk_config = r['OS-DCF:diskConfig'] === 'AUTO' ? 1 : 0;
    changes.task_state = 'rebuilding';
    changes.updated_at = nowIso();
    await serversStore.update(tx, id, changes);
    await recordAction(tx, {
      serverId: id,
      action: 'rebuild',
      auth,
      event: 'compute_rebuild_instance',
      moreEvents: ['rebuild_server'],
    });
    return { server: { ...s, ...changes }, adminPass };
  });
}
