import { Router } from 'express';
import type { AttachmentsService } from '../service/attachments.service.js';
import type { PoolsService } from '../service/pools.service.js';
import type { TypesService } from '../service/types.service.js';
import type { ServicesService } from '../service/services.service.js';
import type { SnapshotsService } from '../service/snapshots.service.js';
import type { VolumeMetadataService } from '../service/volume-metadata.service.js';
import type { VolumesService } from '../service/volumes.service.js';
import { servicesRoutes } from './services.routes.js';
import { snapshotsRoutes } from './snapshots.routes.js';
import { volumeMetadataRoutes } from './volume-metadata.routes.js';
import { attachmentsRoutes } from './attachments.routes.js';
import { poolsRoutes } from './pools.routes.js';
import { typesRoutes } from './types.routes.js';
import { volumeActionRoutes } from './volume-actions.routes.js';
import { volumesRoutes } from './volumes.routes.js';
// --- C2: tenancy ---
import type { VolumeQuotasService } from '../service/quotas.service.js';
import { volumeQuotaRoutes } from './quotas.routes.js';
// --- cloud14v: block storage gaps ---
import type { HostsService } from '../service/hosts.service.js';
import { hostsRoutes } from './hosts.routes.js';
import type { BackupsService } from '../service/backups.service.js';
import { backupsRoutes } from './backups.routes.js';
// --- cloudv2: block storage and flavor gaps ---
import type { MessagesService } from '../service/messages.service.js';
import { messagesRoutes } from './messages.routes.js';
import type { TypeEncryptionService } from '../service/type-encryption.service.js';
import { typeEncryptionRoutes } from './type-encryption.routes.js';
// cloud-qos-transfer: QoS specs and volume transfers
import type { QosSpecsService } from '../service/qos-specs.service.js';
import { qosSpecsRoutes } from './qos-specs.routes.js';
import type { TransfersService } from '../service/transfers.service.js';
import { transfersRoutes } from './transfers.routes.js';
// --- cloud-groups: generic volume groups ---
import type { GroupTypesService } from '../service/group-types.service.js';
import type { GroupsService } from '../service/groups.service.js';
import { groupsRoutes, groupTypesRoutes } from './groups.routes.js';

/**
 * Every route under /volume/v3/{project_id}. The caller is authenticated, the microversion
 * negotiated (req.ctx.version) and the JSON body parsed (req.ctx.body) before these run.
 */
export function volumeApiRoutes(services: {
  volumes: VolumesService;
  types: TypesService;
  pools: PoolsService;
  attachments: AttachmentsService;
  metadata: VolumeMetadataService;
  snapshots: SnapshotsService;
  services: ServicesService;
  quotas: VolumeQuotasService;
  // --- cloud14v: block storage gaps ---
  hosts: HostsService;
  backups: BackupsService;
  // --- cloudv2: block storage and flavor gaps ---
  messages: MessagesService;
  typeEncryption: TypeEncryptionService;
  // cloud-qos-transfer: QoS specs and volume transfers
  qosSpecs: QosSpecsService;
  transfers: TransfersService;
  // --- cloud-groups: generic volume groups ---
  groupTypes: GroupTypesService;
  groups: GroupsService;
}): Router {
  const router = Router({ mergeParams: true, strict: true });
  router.use(attachmentsRoutes(services.attachments));
  router.use(volumesRoutes(services.volumes));
  router.use(volumeActionRoutes(services.volumes, services.attachments, services.metadata));
  router.use(volumeMetadataRoutes(services.metadata));
  router.use(snapshotsRoutes(services.snapshots));
  router.use(servicesRoutes(services.services));
  router.use(typesRoutes(services.types));
  router.use(poolsRoutes(services.pools));
  // --- C2: tenancy ---
  router.use(volumeQuotaRoutes(services.quotas));
  // --- cloud14v: block storage gaps ---
  router.use(hostsRoutes(services.hosts));
  router.use(backupsRoutes(services.backups));
  // --- cloudv2: block storage and flavor gaps ---
  router.use(messagesRoutes(services.messages));
  router.use(typeEncryptionRoutes(services.typeEncryption));
  // cloud-qos-transfer: QoS specs and volume transfers
  router.use(qosSpecsRoutes(services.qosSpecs));
  router.use(transfersRoutes(services.transfers));
  // --- cloud-groups: generic volume groups ---
  router.use(groupTypesRoutes(services.groupTypes));
  router.use(groupsRoutes(services.groups));
  return router;
}
