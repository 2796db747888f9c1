import type { Store } from '../../platform/db/store.js';
import type { Logger } from '../../platform/logger.js';
import type { TaskRunner } from '../../platform/tasks.js';
import { nowIso } from '../../platform/time.js';
import { attachmentsStore } from '../store/attachments.store.js';
import { glanceMetadataStore } from '../store/glance-metadata.store.js';
import { messagesStore } from '../store/messages.store.js';
import { snapshotsStore } from '../store/snapshots.store.js';
import { volumesStore } from '../store/volumes.store.js';
// --- cloud-groups ---
import { groupsStore } from '../store/groups.store.js';
import { newVolumeMessage } from './messages.service.js';
import { statusFromAttachments } from './volume-status.js';

/**
 * The emulated cinder-volume service: one LVM backend with one pool, as devstack deploys it.
 * It never fails on its own (unlike capture 271's fake driver), but the scheduler still refuses
 * a volume type whose extra specs the pool does not satisfy, as Cinder's CapabilitiesFilter does.
 */
export const BACKEND = {
  /** `host@backend#pool`, Cinder's volume host. */
  host: 'cloud@lvmdriver-1#lvmdriver-1',
  backendName: 'lvmdriver-1',
  poolName: 'lvmdriver-1',
  availabilityZone: 'nova',
  /** The cinder-volume service's uuid, shown as a volume's service_uuid from 3.48. */
  serviceUuid: '7b5f3b1e-4d1c-4c59-9a55-2c3f0f6f1a2e',
  totalCapacityGb: 1000,
  driverVersion: '3.0.0',
  /** When this process started reporting: the pool's `timestamp`. */
  startedAt: nowIso(),
} as const;

/** The pool's capabilities as the scheduler reports them (LVMVolumeDriver._update_volume_stats). */
export function poolCapabilities(usage: { count: number; gigabytes: number }): Record<string, unknown> {
  const free = Math.max(0, BACKEND.totalCapacityGb - usage.gigabytes);
  return {
    pool_name: BACKEND.poolName,
    total_capacity_gb: BACKEND.totalCapacityGb,
    free_capacity_gb: free,
    reserved_percentage: 0,
    location_info: `LVMVolumeDriver:cloud:stack-volumes-${BACKEND.backendName}:thin:0`,
    QoS_support: false,
    provisioned_capacity_gb: usage.gigabytes,
    max_over_subscription_ratio: 20.0,
    thin_provisioning_support: true,
    thick_provisioning_support: false,
    total_volumes: usage.count,
    filter_function: null,
    goodness_function: null,
    multiattach: true,
    backend_state: 'up',
    allocated_capacity_gb: usage.gigabytes,
    volume_backend_name: BACKEND.backendName,
    storage_protocol: 'iSCSI',
    vendor_name: 'Open Source',
    driver_version: BACKEND.driverVersion,
    timestamp: `${BACKEND.startedAt.slice(0, 23)}000`,
  };
}

/** oslo strutils.bool_from_string (not strict): anything else is false. */
const truthy = (v: unknown) => ['1', 't', 'true', 'on', 'y', 'yes'].includes(String(v).trim().toLowerCase());

/** cinder.scheduler.filters.extra_specs_ops.match for the operators types use. */
function specMatches(value: unknown, req: string): boolean {
  const words = req.trim().split(/\s+/);
  const op = words[0] ?? '';
  const args = words.slice(1);
  const num = Number(value);
  switch (op) {
    case '<is>':
      return truthy(value) === truthy(args[0] ?? '');
    case '=':
      return num >= Number(args[0]);
    case '==':
      return num === Number(args[0]);
    case '!=':
      return num !== Number(args[0]);
    case '>=':
      return num >= Number(args[0]);
    case '<=':
      return num <= Number(args[0]);
    case 's==':
      return String(value) === args[0];
    case 's!=':
      return String(value) !== args[0];
    case '<in>':
      return String(value).includes(args[0] ?? '');
    case '<or>':
      return req
        .split('<or>')
        .map((w) => w.trim())
        .filter(Boolean)
        .includes(String(value));
    default:
      return String(value) === req;
  }
}

/**
 * Cinder's CapabilitiesFilter: every unscoped (or `capabilities:`) extra spec must name a
 * capability of the pool and match it; other scopes are vendor hints and are ignored.
 */
export function poolSatisfies(extraSpecs: Record<string, string>, caps: Record<string, unknown>): boolean {
  for (const [key, req] of Object.entries(extraSpecs)) {
    const scope = key.split(':');
    if (scope.length > 1 && scope[0] !== 'capabilities') continue;
    const path = scope[0] === 'capabilities' ? scope.slice(1) : scope;
    let cap: unknown = caps;
    for (const part of path) {
      if (typeof cap !== 'object' || cap === null || !(part in cap)) return false;
      cap = (cap as Record<string, unknown>)[part];
    }
    const values = Array.isArray(cap) ? cap : [cap];
    if (!values.some((v) => specMatches(v, req))) return false;
  }
  return true;
}

export interface Backend {
  /**
   * creating -> available on the pool (or error when the scheduler finds no pool); `bootable`
   * when the data came from an image or a bootable source volume.
   */
  scheduleCreate(volumeId: string, extraSpecs: Record<string, string>, bootable: boolean): void;
  /** deleting -> row removed (with the snapshots a cascade marked deleting). */
  scheduleDelete(volumeId: string): void;
  /** A snapshot: creating -> available. */
  scheduleSnapshotCreate(snapshotId: string): void;
  /** A snapshot: deleting -> row removed. */
  scheduleSnapshotDelete(snapshotId: string): void;
  /** extending -> the new size, back to available/in-use. */
  scheduleExtend(volumeId: string, newSize: number): void;
  /** retyping -> the new type (or back to the old one when the pool cannot host it). */
  scheduleRetype(volumeId: string, newTypeId: string, fits: boolean, oldMultiattach: boolean): void;
}

/** The status a volume returns to after a backend operation, from its attachments. */
export async function settledStatus(
  db: Store['db'],
  volumeId: string,
): Promise<{ status: string; attachStatus: string }> {
  const atts = await attachmentsStore.forVolume(db, volumeId);
  const d = statusFromAttachments(atts.map((a) => a.attach_status));
  return { status: d.status, attachStatus: d.attachStatus };
}

/** Steps of the emulated backend; each runs in its own transaction and re-checks the state. */
export const backendSteps = {
  async finishCreate(store: Store, volumeId: string, fits: boolean, bootable = false): Promise<boolean> {
    const now = nowIso();
    const changes = fits
      ? {
          status: 'available',
          host: BACKEND.host,
          launched_at: now,
          updated_at: now,
          ...(bootable ? { bootable: 1 as const } : {}),
        }
      : { status: 'error', updated_at: now };
    return store.transaction(async (tx) => {
      const changed = await volumesStore.updateIfStatus(tx, volumeId, 'creating', changes);
      // The scheduler tells the project why its volume went to error (a user message).
      const vol = changed && !fits ? await volumesStore.byId(tx, volumeId) : undefined;
      if (vol) await messagesStore.insert(tx, newVolumeMessage(vol.project_id, volumeId, 'noValidBackend'));
      return changed;
    });
  },

  /** Removes a `deleting` volume; one that still has attachment rows ends in error_deleting. */
  async finishDelete(store: Store, volumeId: string): Promise<'deleted' | 'error_deleting' | 'skipped'> {
    return store.transaction(async (tx) => {
      const vol = await volumesStore.lockById(store, tx, volumeId);
      if (vol?.status !== 'deleting') return 'skipped';
      if ((await attachmentsStore.forVolume(tx, volumeId)).length > 0) {
        await volumesStore.update(tx, volumeId, { status: 'error_deleting', updated_at: nowIso() });
        return 'error_deleting';
      }
      // A cascade marked the volume's snapshots deleting with it; a snapshot in any other
      // state would have refused the delete.
      for (const snap of await snapshotsStore.forVolume(tx, volumeId)) {
        await snapshotsStore.delete(tx, snap.id);
        await glanceMetadataStore.deleteAll(tx, snap.id);
      }
      await glanceMetadataStore.deleteAll(tx, volumeId);
      await volumesStore.delete(tx, volumeId);
      // --- cloud-groups: a volume leaves its group with it.
      await groupsStore.removeVolume(tx, volumeId);
      return 'deleted';
    });
  },

  /** creating -> available, progress 100%. */
  async finishSnapshotCreate(store: Store, snapshotId: string): Promise<boolean> {
    return store.transaction((tx) =>
      snapshotsStore.updateIfStatus(tx, snapshotId, 'creating', {
        status: 'available',
        progress: '100%',
        updated_at: nowIso(),
      }),
    );
  },

  /** Removes a `deleting` snapshot and its image metadata. */
  async finishSnapshotDelete(store: Store, snapshotId: string): Promise<boolean> {
    return store.transaction(async (tx) => {
      const snap = await snapshotsStore.lockById(store, tx, snapshotId);
      if (snap?.status !== 'deleting') return false;
      await snapshotsStore.delete(tx, snapshotId);
      await glanceMetadataStore.deleteAll(tx, snapshotId);
      // --- cloud-groups: and its group snapshot's record of it.
      await groupsStore.removeSnapshot(tx, snapshotId);
      return true;
    });
  },

  async finishExtend(store: Store, volumeId: string, newSize: number | null): Promise<boolean> {
    return store.transaction(async (tx) => {
      const vol = await volumesStore.lockById(store, tx, volumeId);
      if (vol?.status !== 'extending') return false;
      const settled = await settledStatus(tx, volumeId);
      await volumesStore.update(tx, volumeId, {
        status: settled.status,
        ...(newSize !== null ? { size: newSize } : {}),
        updated_at: nowIso(),
      });
      return true;
    });
  },

  async finishRetype(
    store: Store,
    volumeId: string,
    outcome: { newTypeId: string } | { rollbackMultiattach: boolean },
  ): Promise<boolean> {
    return store.transaction(async (tx) => {
      const vol = await volumesStore.lockById(store, tx, volumeId);
      if (vol?.status !== 'retyping') return false;
      const settled = await settledStatus(tx, volumeId);
      await volumesStore.update(tx, volumeId, {
        status: settled.status,
        ...('newTypeId' in outcome
          ? { volume_type_id: outcome.newTypeId }
          : { multiattach: outcome.rollbackMultiattach ? 1 : 0 }),
        updated_at: nowIso(),
      });
      return true;
    });
  },
};

export function createBackend(deps: { store: Store; tasks: TaskRunner; logger: Logger }): Backend {
  const { store, tasks, logger } = deps;
  return {
    scheduleCreate(volumeId, extraSpecs, bootable) {
      tasks.schedule(
        'volume.create',
        async () => {
          const usage = await volumesStore.usageOnHost(store.db, BACKEND.host);
          const fits = poolSatisfies(extraSpecs, poolCapabilities(usage));
          if (!fits) logger.info({ volumeId }, 'no valid backend for the volume type: volume goes to error');
          await backendSteps.finishCreate(store, volumeId, fits, bootable);
        },
        undefined,
        `volume:${volumeId}`,
      );
    },
    scheduleDelete(volumeId) {
      tasks.schedule(
        'volume.delete',
        async () => {
          await backendSteps.finishDelete(store, volumeId);
        },
        undefined,
        `volume:${volumeId}`,
      );
    },
    scheduleSnapshotCreate(snapshotId) {
      tasks.schedule(
        'volume.snapshot.create',
        async () => {
          await backendSteps.finishSnapshotCreate(store, snapshotId);
        },
        undefined,
        `snapshot:${snapshotId}`,
      );
    },
    scheduleSnapshotDelete(snapshotId) {
      tasks.schedule(
        'volume.snapshot.delete',
        async () => {
          await backendSteps.finishSnapshotDelete(store, snapshotId);
        },
        undefined,
        `snapshot:${snapshotId}`,
      );
    },
    scheduleExtend(volumeId, newSize) {
      tasks.schedule(
        'volume.extend',
        async () => {
          await backendSteps.finishExtend(store, volumeId, newSize);
        },
        undefined,
        `volume:${volumeId}`,
      );
    },
    scheduleRetype(volumeId, newTypeId, fits, oldMultiattach) {
      tasks.schedule(
        'volume.retype',
        async () => {
          await backendSteps.finishRetype(
            store,
            volumeId,
            fits ? { newTypeId } : { rollbackMultiattach: oldMultiattach },
          );
        },
        undefined,
        `volume:${volumeId}`,
      );
    },
  };
}
