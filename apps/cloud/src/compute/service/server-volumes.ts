import type { CloudDeps } from '../../platform/deps.js';
import type { Store, Tx } from '../../platform/db/store.js';
import { OpenStackError } from '../../platform/http/errors.js';
import { Microversion } from '../../platform/http/microversion.js';
import { nowIso } from '../../platform/time.js';
import { removeAttachment, reserveAttachment } from '../../volume/service/attachments.service.js';
import { createBackend } from '../../volume/service/backend.js';
import { createTypesService } from '../../volume/service/types.service.js';
import { createVolumesService, type VolumesService } from '../../volume/service/volumes.service.js';
import { volumesStore } from '../../volume/store/volumes.store.js';
import { bdmsStore } from '../store/bdms.store.js';
import type { ServerRow } from '../store/servers.store.js';
import { novaServiceCaller, volumeIdsOf } from './volume-attach.service.js';

/**
 * What the emulated compute host asks of Cinder besides the attach core: creating the volumes
 * of image->volume and blank->volume mappings (one per server), and moving a server's
 * attachments back to `reserved` when it leaves its host (shelve offload, resize), as the
 * manager does with a new connector-less attachment_create and the old attachment's delete.
 */

// One volume service per store: it only holds the store and the task runner, both shared.
const services = new WeakMap<Store, VolumesService>();

function volumesService(deps: CloudDeps): VolumesService {
  let svc = services.get(deps.store);
  if (!svc) {
    svc = createVolumesService({
      store: deps.store,
      backend: createBackend(deps),
      types: createTypesService(deps.store),
      logger: deps.logger,
    });
    services.set(deps.store, svc);
  }
  return svc;
}

/** The Cinder API version nova/volume/cinder.py asks for. */
const CINDER_VERSION = Microversion.of('3.44');

/**
 * `DriverBlankBlockDevice` / `DriverImageBlockDevice.attach`: creates the volume of a mapping
 * that has none yet and records it on the mapping. Returns the volume id.
 */
export async function createMappingVolume(
  deps: CloudDeps,
  server: ServerRow,
  bdm: {
    uuid: string;
    source_type: string;
    image_id: string | null;
    volume_size: number | null;
    volume_type: string | null;
  },
): Promise<string> {
  const caller = { projectId: server.project_id, userId: server.user_id, isAdmin: false };
  const volume = await volumesService(deps).create(caller, CINDER_VERSION, {
    name: bdm.source_type === 'blank' ? `${server.id}-blank-vol` : '',
    description: '',
    volumeType: bdm.volume_type,
    metadata: null,
    size: bdm.volume_size,
    availabilityZone: null,
    snapshotId: null,
    sourceVolid: null,
    backupId: null,
    groupId: null,
    consistencygroupId: null,
    imageRef: bdm.source_type === 'image' ? bdm.image_id : null,
    multiattach: false,
  });
  await deps.store.transaction((tx) =>
    bdmsStore.update(tx, bdm.uuid, { volume_id: volume.id, updated_at: nowIso() }),
  );
  return volume.id;
}

/** A created volume's progress: still creating, ready, or failed. */
export async function volumeCreateState(
  deps: CloudDeps,
  volumeId: string,
): Promise<'creating' | 'ready' | string> {
  const v = await volumesStore.byId(deps.store.db, volumeId);
  if (!v) return 'deleted';
  if (v.status === 'creating' || v.status === 'downloading') return 'creating';
  return v.status === 'available' ? 'ready' : v.status;
}

/**
 * Gives each of the server's Cinder attachments a fresh, connector-less one (so the volume
 * shows `reserved`, capture 164) and drops the old: the server no longer runs anywhere, or is
 * about to be connected again elsewhere. Device names stay on the mappings.
 */
export async function reReserveServerVolumes(deps: CloudDeps, tx: Tx, server: ServerRow): Promise<void> {
  const caller = novaServiceCaller(server);
  const bdms = await bdmsStore.forServer(tx, server.id);
  // Handled in attach order below, so locked in id order first (servers sharing volumes).
  await volumesStore.lockByIds(deps.store, tx, volumeIdsOf(bdms));
  for (const bdm of bdms) {
    if (!bdm.volume_id || !bdm.attachment_id) continue;
    const fresh = await reserveAttachment(deps.store, tx, caller, {
      volumeId: bdm.volume_id,
      instanceUuid: server.id,
    });
    try {
      await removeAttachment(deps.store, tx, caller, bdm.attachment_id);
    } catch (err) {
      if (!(err instanceof OpenStackError && err.status === 404)) throw err;
    }
    await bdmsStore.update(tx, bdm.uuid, {
      attachment_id: fresh.id,
      connection_info: null,
      updated_at: nowIso(),
    });
  }
}

/** Reserves a volume this host just created for its mapping (no user rules apply to it). */
export async function reserveCreatedVolume(
  deps: CloudDeps,
  tx: Tx,
  server: ServerRow,
  bdmUuid: string,
): Promise<void> {
  const bdm = await bdmsStore.byUuid(tx, bdmUuid);
  if (!bdm?.volume_id || bdm.attachment_id) return;
  const attachment = await reserveAttachment(deps.store, tx, novaServiceCaller(server), {
    volumeId: bdm.volume_id,
    instanceUuid: server.id,
  });
  await bdmsStore.update(tx, bdm.uuid, { attachment_id: attachment.id, updated_at: nowIso() });
}
