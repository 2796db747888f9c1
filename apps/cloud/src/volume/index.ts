import { Router } from 'express';
import type { CloudDeps } from '../deps.js';
import type { Identity } from '../identity/index.js';
import type { ImageApi } from '../image/index.js';
import { jsonBody } from '../platform/http/body.js';
import { authOf } from '../platform/http/context.js';
import { badRequest, notFound, OpenStackError, WEBOB_NOT_FOUND } from '../platform/http/errors.js';
import { faultHandler } from '../platform/http/faults.js';
import { Microversion, negotiateMicroversion } from '../platform/http/microversion.js';
import type { ReconcileScope } from '../platform/presence.js';
import { versionRoutes } from './routes/versions.routes.js';
import { volumeApiRoutes } from './routes/index.js';
import { createVolumeApi, type VolumeApi } from './api.js';
import { reconcileVolumes } from './reconcile.js';
import { createAttachmentsService, type NovaClient } from './service/attachments.service.js';
import { createBackend } from './service/backend.js';
import { createPoolsService } from './service/pools.service.js';
import { createServicesService } from './service/services.service.js';
import { createHostsService } from './service/hosts.service.js';
import { createBackupsService } from './service/backups.service.js';
import { createSnapshotsService } from './service/snapshots.service.js';
import { createVolumeMetadataService } from './service/volume-metadata.service.js';
import { createTypesService } from './service/types.service.js';
import { createVolumesService } from './service/volumes.service.js';
import { createVolumeQuotasService } from './service/quotas.service.js';
import { createMessagesService } from './service/messages.service.js';
import { createTypeEncryptionService } from './service/type-encryption.service.js';
// cloud-qos-transfer: QoS specs and volume transfers
import { createQosSpecsService } from './service/qos-specs.service.js';
import { createTransfersService } from './service/transfers.service.js';
// --- cloud-groups: generic volume groups ---
import { createGroupTypesService } from './service/group-types.service.js';
import { createGroupsService } from './service/groups.service.js';

export { seedVolume } from './seed.js';
export type {
  Attachment,
  AttachmentState,
  AttachMode,
  Caller,
  ConnectRequest,
  CreateVolumeInput,
  ReserveRequest,
  Volume,
  SnapshotDescription,
  VolumeApi,
  VolumeDescription,
  VolumeSummary,
} from './api.js';
export type { NovaClient } from './service/attachments.service.js';

export const VOLUME_MIN = Microversion.of('3.0');
export const VOLUME_MAX = Microversion.of('3.71');

export interface VolumeService {
  router: Router;
  /** What other services may ask of this one. */
  api: VolumeApi;
  /** Finishes what a dead process left half-done in the backend (`reconcile.ts`). */
  reconcile(scope?: ReconcileScope): Promise<void>;
}

/**
 * Cinder v3 under /volume. It asks Nova about attachments through `nova` (OSSA-2023-003) and the
 * image service for the image a volume is created from.
 */
export function createVolumeService(
  deps: CloudDeps & { identity: Identity; nova: NovaClient; images: ImageApi },
): VolumeService {
  const { store } = deps;
  const backend = createBackend(deps);
  const types = createTypesService(store);
  // --- cloud-groups ---
  const groupTypes = createGroupTypesService(store);
  const volumes = createVolumesService({ store, backend, types, images: deps.images, logger: deps.logger });
  const attachments = createAttachmentsService({ store, nova: deps.nova });
  const snapshots = createSnapshotsService({
    store,
    scheduleCreate: (id) => backend.scheduleSnapshotCreate(id),
    scheduleDelete: (id) => backend.scheduleSnapshotDelete(id),
  });
  const services = {
    volumes,
    types,
    attachments,
    pools: createPoolsService(store, types),
    metadata: createVolumeMetadataService({ store }),
    services: createServicesService({ store }),
    snapshots,
    // --- C2: tenancy ---
    quotas: createVolumeQuotasService(store),
    // --- cloud14v: block storage gaps ---
    hosts: createHostsService({ store }),
    backups: createBackupsService(),
    // --- cloudv2: block storage and flavor gaps ---
    messages: createMessagesService(store),
    typeEncryption: createTypeEncryptionService(store),
    // cloud-qos-transfer: QoS specs and volume transfers
    qosSpecs: createQosSpecsService(store),
    transfers: createTransfersService(store),
    // --- cloud-groups: generic volume groups ---
    groupTypes,
    groups: createGroupsService({ store, tasks: deps.tasks, backend, types, groupTypes }),
  };
  const router = Router();
  // Cinder routes no OPTIONS (Express would answer one with an Allow list).
  router.use((req, _res, next) => next(req.method === 'OPTIONS' ? notFound(WEBOB_NOT_FOUND) : undefined));
  router.use(versionRoutes(deps.identity.requireToken));

  // Everything under /v3 needs a token first (keystonemiddleware runs before Cinder's own code).
  const v3 = Router({ mergeParams: true });
  v3.use(deps.identity.requireToken);
  v3.use(negotiateMicroversion({ service: 'volume', min: VOLUME_MIN, max: VOLUME_MAX }));
  v3.use(
    jsonBody({
      limitBytes: deps.config.maxBodyBytes,
      jsonTypes: ['application/json', 'text/plain', 'application/vnd.openstack.volume+json'],
      malformedMessage: 'Malformed request body',
      unsupportedTypeStatus: 415,
    }),
  );

  const project = Router({ mergeParams: true });
  // Cinder refuses a URL whose project is not the token's, even for admins.
  project.use((req, _res, next) => {
    const projectId = (req.params as { projectId?: string }).projectId;
    if (projectId !== authOf(req.ctx).projectId) throw badRequest('Malformed request url');
    next();
  });
  project.use(volumeApiRoutes(services));

  v3.use('/:projectId', project);
  // The routes mapper finds nothing (a trailing slash, an unknown resource): webob's own 404,
  // without the microversion headers (capture 610).
  v3.use(() => {
    throw new OpenStackError(404, WEBOB_NOT_FOUND, {
      rawBody: { message: `${WEBOB_NOT_FOUND}<br /><br />\n\n\n`, code: '404 Not Found', title: 'Not Found' },
      noVersionHeaders: true,
    });
  });
  router.use('/v3', v3);
  router.use(() => {
    throw notFound(WEBOB_NOT_FOUND);
  });
  router.use(faultHandler('nova'));
  return {
    router,
    api: createVolumeApi({ store, backend, volumes, types, snapshots }),
    reconcile: (scope) => reconcileVolumes(deps, scope),
  };
}
