import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import type { Tx } from '../../platform/db/store.js';
import type { AuthContext } from '../../platform/http/context.js';
import { badRequest, OpenStackError } from '../../platform/http/errors.js';
import { Microversion } from '../../platform/http/microversion.js';
import { newRequestId } from '../../platform/ids.js';
import type { Logger } from '../../platform/logger.js';
import type {
  Attachment,
  AttachmentState,
  Caller,
  ConnectRequest,
  CreateVolumeInput,
  ReserveRequest,
  SnapshotDescription,
  Volume,
  VolumeApi,
  VolumeDescription,
  VolumeSummary,
} from '../../volume/index.js';

export type {
  Attachment,
  AttachmentState,
  SnapshotDescription,
  Volume,
  VolumeDescription,
  VolumeSummary,
} from '../../volume/index.js';

type Db = Kysely<Schema>;

/**
 * Nova's client of the volume service (`nova/volume/cinder.py`): which identity each call uses,
 * the Cinder API version asked for, and how Cinder's faults become Nova's. The only way compute
 * reaches volumes.
 */

/** The user's own view of Cinder (Nova forwards the user's token). */
export function userCaller(auth: AuthContext): Caller {
  return { projectId: auth.projectId ?? '', userId: auth.userId, isAdmin: auth.isAdmin };
}

/** nova-compute talking to Cinder with a service token (which OSSA-2023-003 lets through). */
export function serviceCaller(server: { project_id: string; user_id: string }): Caller {
  return { projectId: server.project_id, userId: server.user_id, isAdmin: true, isService: true };
}

/** The Cinder API version nova/volume/cinder.py asks for. */
const CINDER_VERSION = Microversion.of('3.44');

/**
 * How cinder.py turns a Cinder 400 into its own error: `InvalidInput` carrying the client's text
 * (message, status, request id). Other failures pass through.
 */
export function invalidInputFrom(err: unknown): unknown {
  if (!(err instanceof OpenStackError) || err.status !== 400) return err;
  return badRequest(`Invalid input received: ${err.message} (HTTP 400) (Request-ID: ${newRequestId()})`);
}

const is404 = (err: unknown) => err instanceof OpenStackError && err.status === 404;

export function createVolumeClient(api: VolumeApi, logger: Logger) {
  /** Runs a call whose Cinder 400 Nova reports as InvalidInput. */
  const translated = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (err) {
      throw invalidInputFrom(err);
    }
  };

  return {
    /** `volume_api.get`: undefined when the caller cannot see it. In a transaction, read under its lock. */
    get: (caller: Caller, volumeId: string, tx?: Tx): Promise<Volume | undefined> =>
      api.get(caller, volumeId, tx),

    /** Volumes Nova already holds (mappings), read with the service token. */
    getMany: (volumeIds: readonly string[], db?: Db): Promise<Volume[]> => api.getMany(volumeIds, db),

    /** Volumes in these statuses, for recovery after a crash. */
    withStatus: (statuses: readonly string[]): Promise<Volume[]> => api.withStatus(statuses),

    /** The volume's attachments (the `attachments` of Nova's volume dict). */
    attachmentsOf: (volumeId: string, db?: Db): Promise<Attachment[]> => api.attachmentsOf(volumeId, db),

    attachmentsByIds: (attachmentIds: readonly string[], db?: Db): Promise<Attachment[]> =>
      api.attachmentsByIds(attachmentIds, db),

    /** The topology's view of attachments and volumes across the cloud (admin reads, no caller). */
    attachmentStates: (attachmentIds: readonly string[] | 'all'): Promise<AttachmentState[]> =>
      api.attachmentStates(attachmentIds),
    summaries: (volumeIds: readonly string[], ownerProjectId: string | null): Promise<VolumeSummary[]> =>
      api.summaries(volumeIds, ownerProjectId),

    /** `_validate_volume_type_by_name_or_id`'s lookup. */
    typeExists: (caller: Caller, nameOrId: string): Promise<boolean> => api.typeExists(caller, nameOrId),

    /** `volume_api.create` for an image or blank mapping. */
    create: (caller: Caller, input: CreateVolumeInput): Promise<Volume> =>
      api.create(caller, CINDER_VERSION, input),

    /**
     * `volume_api.delete` for delete_on_termination: Cinder refuses a volume something still
     * holds, which Nova logs and ignores. Returns whether the delete was accepted.
     */
    async deleteIfFree(tx: Tx, caller: Caller, volumeId: string): Promise<boolean> {
      try {
        await api.delete(tx, caller, volumeId);
        return true;
      } catch (err) {
        if (!(err instanceof OpenStackError && (err.status === 400 || err.status === 404))) throw err;
        logger.info({ volumeId, reason: err.message }, 'delete_on_termination: Cinder refused, ignored');
        return false;
      }
    },

    /** `attachment_create` without a connector, for each request in order. */
    reserve: (tx: Tx, caller: Caller, requests: readonly ReserveRequest[]): Promise<Attachment[]> =>
      translated(() => api.reserve(tx, caller, requests)),

    /** `attachment_update` with the host's connector, then `attachment_complete`. */
    connect: (tx: Tx, requests: readonly ConnectRequest[]): Promise<Map<string, Attachment>> =>
      api.connect(tx, requests),

    complete: (tx: Tx, caller: Caller, attachmentId: string): Promise<void> =>
      api.complete(tx, caller, attachmentId),

    /** `attachment_delete` for each id; one already gone in Cinder is logged and passed over. */
    deleteAttachments: (tx: Tx, caller: Caller, attachmentIds: readonly string[]): Promise<void> =>
      api.deleteAttachments(tx, caller, attachmentIds, { ignoreMissing: true }),

    /** `attachment_delete` of one attachment that may already be gone. */
    async deleteAttachmentIfPresent(tx: Tx, caller: Caller, attachmentId: string): Promise<void> {
      try {
        await api.deleteAttachments(tx, caller, [attachmentId]);
      } catch (err) {
        if (!is404(err)) throw err;
      }
    },

    beginDetaching: (tx: Tx, caller: Caller, volumeId: string): Promise<void> =>
      translated(() => api.beginDetaching(tx, caller, volumeId)),

    rollDetaching: (tx: Tx, caller: Caller, volumeId: string): Promise<void> =>
      api.rollDetaching(tx, caller, volumeId),

    // --- cloud-proxy-hosts: the os-volumes / os-snapshots proxy (cinder.py get, get_all, create,
    // delete, get_snapshot, get_all_snapshots, create_snapshot(_force), delete_snapshot). Cinder's
    // 404 passes through as Nova's VolumeNotFound/SnapshotNotFound (same text); its 400 becomes
    // InvalidInput. ---
    describe: (caller: Caller, volumeId: string): Promise<VolumeDescription> =>
      api.describe(caller, volumeId),
    describeAll: (caller: Caller): Promise<VolumeDescription[]> => api.describeAll(caller, CINDER_VERSION),
    createDescribed: async (caller: Caller, input: CreateVolumeInput): Promise<VolumeDescription> => {
      const volume = await translated(() => api.create(caller, CINDER_VERSION, input));
      return api.describe(caller, volume.id);
    },
    remove: (caller: Caller, volumeId: string): Promise<void> =>
      translated(() => api.remove(caller, CINDER_VERSION, volumeId)),
    createSnapshot: (
      caller: Caller,
      input: { volumeId: string; name: string | null; description: string | null; force: boolean },
    ): Promise<SnapshotDescription> => translated(() => api.createSnapshot(caller, CINDER_VERSION, input)),
    describeSnapshot: (caller: Caller, snapshotId: string): Promise<SnapshotDescription> =>
      api.describeSnapshot(caller, snapshotId),
    describeSnapshots: (caller: Caller): Promise<SnapshotDescription[]> =>
      api.describeSnapshots(caller, CINDER_VERSION),
    removeSnapshot: (caller: Caller, snapshotId: string): Promise<void> =>
      translated(() => api.removeSnapshot(caller, snapshotId)),
  };
}

export type VolumeClient = ReturnType<typeof createVolumeClient>;
