import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import type { Store } from '../../platform/db/store.js';
import { badRequest, forbidden, OpenStackError, policyForbidden } from '../../platform/http/errors.js';
import { volumeQuotasStore } from '../store/quotas.store.js';
import { typesStore } from '../store/types.store.js';
// --- cloud-groups ---
import { groupsStore } from '../store/groups.store.js';
import type { Caller } from './caller.js';

type Db = Kysely<Schema>;

/**
 * Cinder's quotas (`cinder/quota.py`, `api/contrib/quotas.py`, `quota_classes.py`, limits and
 * used limits): project limits over the `default` class over the configured defaults, a
 * `volumes_<type>` / `gigabytes_<type>` / `snapshots_<type>` limit for every volume type, usage
 * counted from the volumes, and the 413s of a create or extend over quota
 * (`quota_utils.process_reserve_over_quota`).
 */

/** `[DEFAULT] quota_*` of Cinder 21. */
const DEFAULTS: Readonly<Record<string, number>> = {
  volumes: 10,
  per_volume_gigabytes: -1,
  snapshots: 10,
  gigabytes: 1000,
  backups: 10,
  backup_gigabytes: 1000,
  groups: 10,
};
/** Accepted in a quota set body besides the resources (`NON_QUOTA_KEYS`). */
const NON_QUOTA_KEYS = ['tenant_id', 'id'];

export const VOLUME_QUOTA_RULES = {
  show: 'volume_extension:quotas:show',
  update: 'volume_extension:quotas:update',
  delete: 'volume_extension:quotas:delete',
  classGet: 'volume_extension:quota_classes:get',
  classUpdate: 'volume_extension:quota_classes:update',
} as const;

/** Every resource with its default: the fixed ones, then three per volume type. */
async function defaultsWithTypes(db: Db): Promise<Record<string, number>> {
  const out: Record<string, number> = { ...DEFAULTS };
  delete out.groups;
  for (const t of await typesStore.names(db)) {
    out[`volumes_${t.name}`] = -1;
    out[`gigabytes_${t.name}`] = -1;
    out[`snapshots_${t.name}`] = -1;
  }
  out.groups = DEFAULTS.groups ?? 10;
  return out;
}

async function classLimits(db: Db, className: string): Promise<Record<string, number>> {
  const all = await defaultsWithTypes(db);
  const set = await volumeQuotasStore.classLimits(db, className);
  for (const k of Object.keys(all)) if (k in set) all[k] = set[k] ?? all[k] ?? -1;
  return all;
}

async function projectLimits(db: Db, projectId: string): Promise<Record<string, number>> {
  const all = await classLimits(db, 'default');
  const own = await volumeQuotasStore.limits(db, projectId);
  for (const k of Object.keys(all)) if (k in own) all[k] = own[k] ?? all[k] ?? -1;
  return all;
}

/** Volumes, snapshots, gigabytes (overall and per type) and groups in use; backups are 0 here. */
async function usageOf(db: Db, projectId: string): Promise<Record<string, number>> {
  const names = new Map((await typesStore.names(db)).map((t) => [t.id, t.name]));
  const out: Record<string, number> = {};
  for (const k of Object.keys(await defaultsWithTypes(db))) out[k] = 0;
  for (const v of await volumeQuotasStore.usageByType(db, projectId)) {
    out.volumes = (out.volumes ?? 0) + 1;
    out.gigabytes = (out.gigabytes ?? 0) + Number(v.size);
    const type = names.get(v.volume_type_id);
    if (type !== undefined) {
      out[`volumes_${type}`] = (out[`volumes_${type}`] ?? 0) + 1;
      out[`gigabytes_${type}`] = (out[`gigabytes_${type}`] ?? 0) + Number(v.size);
    }
  }
  // Snapshots take their volume's size from `gigabytes` too (`no_snapshot_gb_quota` is off).
  for (const s of await volumeQuotasStore.snapshotUsageByType(db, projectId)) {
    out.snapshots = (out.snapshots ?? 0) + 1;
    out.gigabytes = (out.gigabytes ?? 0) + Number(s.size);
    const type = names.get(s.volume_type_id);
    if (type !== undefined) {
      out[`snapshots_${type}`] = (out[`snapshots_${type}`] ?? 0) + 1;
      out[`gigabytes_${type}`] = (out[`gigabytes_${type}`] ?? 0) + Number(s.size);
    }
  }
  out.per_volume_gigabytes = 0;
  // --- cloud-groups: groups count against their quota ---
  out.groups = await groupsStore.countGroups(db, projectId);
  return out;
}

/** RULE_ADMIN_OR_OWNER (the reader of the project too). */
function assertOwnOrAdmin(caller: Caller, projectId: string, rule: string): void {
  if (!caller.isAdmin && caller.projectId !== projectId) throw policyForbidden(rule);
}

export function createVolumeQuotasService(store: Store) {
  return {
    async show(caller: Caller, projectId: string, usage: boolean) {
      assertOwnOrAdmin(caller, projectId, VOLUME_QUOTA_RULES.show);
      const limits = await projectLimits(store.db, projectId);
      if (!usage) return limits;
      const used = await usageOf(store.db, projectId);
      return Object.fromEntries(
        Object.entries(limits).map(([k, limit]) => [k, { limit, in_use: used[k] ?? 0, reserved: 0 }]),
      );
    },

    async defaults(caller: Caller, projectId: string) {
      assertOwnOrAdmin(caller, projectId, VOLUME_QUOTA_RULES.show);
      return classLimits(store.db, 'default');
    },

    async update(caller: Caller, projectId: string, values: Record<string, unknown>) {
      if (!caller.isAdmin) throw policyForbidden(VOLUME_QUOTA_RULES.update);
      if (projectId.length > 255) {
        throw badRequest(
          `Invalid input received: quota_set_name has ${projectId.length} characters, more than 255.`,
        );
      }
      return store.transaction(async (tx) => {
        // `_validate_existing_resource` reads limits without usage, so it never refuses (capture 568).
        const valid: [string, number][] = [];
        for (const [key, raw] of Object.entries(values)) {
          if (NON_QUOTA_KEYS.includes(key)) continue;
          valid.push([key, Number(raw)]);
        }
        for (const [key, value] of valid) await volumeQuotasStore.setLimit(tx, projectId, key, value);
        return projectLimits(tx, projectId);
      });
    },

    async remove(caller: Caller, projectId: string) {
      if (!caller.isAdmin) throw policyForbidden(VOLUME_QUOTA_RULES.delete);
      await store.transaction((tx) => volumeQuotasStore.deleteAll(tx, projectId));
    },

    async showClass(caller: Caller, className: string) {
      if (!caller.isAdmin) throw policyForbidden(VOLUME_QUOTA_RULES.classGet);
      return classLimits(store.db, className);
    },

    async updateClass(caller: Caller, className: string, values: Record<string, unknown>) {
      if (!caller.isAdmin) throw policyForbidden(VOLUME_QUOTA_RULES.classUpdate);
      if (className.length > 255) {
        throw badRequest(
          `Invalid input received: quota_class_name has ${className.length} characters, more than 255.`,
        );
      }
      return store.transaction(async (tx) => {
        for (const [key, value] of Object.entries(values)) {
          await volumeQuotasStore.setClassLimit(tx, className, key, Number(value));
        }
        return classLimits(tx, className);
      });
    },

    /** GET /limits: the caller's project (an admin may name another from 3.39), plus used limits. */
    async limits(projectId: string) {
      const [limits, used] = await Promise.all([
        projectLimits(store.db, projectId),
        usageOf(store.db, projectId),
      ]);
      return { limits, used };
    },

    /** The resource names a quota set body may hold (`QUOTAS` and `GROUP_QUOTAS`). */
    async resourceNames(): Promise<string[]> {
      return Object.keys(await defaultsWithTypes(store.db));
    },
  };
}

export type VolumeQuotasService = ReturnType<typeof createVolumeQuotasService>;

/**
 * Cinder's QuotaError: 413 with `retryAfter` in the fault and a Retry-After header; the message
 * names the exception's class (capture 569).
 */
const quotaError = (exception: string, text: string) => {
  const message = `${exception}: ${text}`;
  return new OpenStackError(413, message, {
    headers: { 'Retry-After': '0' },
    rawBody: { overLimit: { code: 413, message, retryAfter: '0' } },
  });
};

/**
 * The reservation of a new volume (or of an extend's growth, `newVolume` false): the per-volume
 * size limit, then gigabytes and volumes overall and for the volume's type, in Cinder's order.
 */
export async function checkVolumeQuota(
  db: Db,
  projectId: string,
  typeId: string,
  deltaGigabytes: number,
  newVolume: boolean,
  size: number,
): Promise<void> {
  const limits = await projectLimits(db, projectId);
  const perVolume = limits.per_volume_gigabytes ?? -1;
  if (perVolume >= 0 && size > perVolume) {
    throw quotaError(
      'VolumeSizeExceedsLimit',
      `Requested volume size ${size}G is larger than maximum allowed limit ${perVolume}G.`,
    );
  }
  const used = await usageOf(db, projectId);
  const typeName = (await typesStore.names(db)).find((t) => t.id === typeId)?.name ?? typeId;
  // `reserve_opts` then `add_volume_type_opts`: the order Cinder lists what went over.
  const deltas: Record<string, number> = newVolume
    ? {
        volumes: 1,
        gigabytes: deltaGigabytes,
        [`volumes_${typeName}`]: 1,
        [`gigabytes_${typeName}`]: deltaGigabytes,
      }
    : { gigabytes: deltaGigabytes, [`gigabytes_${typeName}`]: deltaGigabytes };
  const overs = Object.keys(deltas).filter((k) => {
    const limit = limits[k] ?? -1;
    return limit >= 0 && limit < (used[k] ?? 0) + (deltas[k] ?? 0);
  });
  for (const over of overs) {
    if (over.includes('gigabytes')) {
      throw quotaError(
        'VolumeSizeExceedsAvailableQuota',
        `Requested volume or snapshot exceeds allowed ${over} quota. Requested ${deltaGigabytes}G, quota is ${limits[over]}G and ${used[over]}G has been consumed.`,
      );
    }
    if (over.includes('volumes')) {
      throw quotaError(
        'VolumeLimitExceeded',
        `Maximum number of volumes allowed (${limits[over]}) exceeded for quota '${over}'.`,
      );
    }
  }
  if (overs.length > 0) throw forbidden(`Quota exceeded for resources: ${overs.join(', ')}`);
}

// --- cloud14v: snapshot quota ---
/**
 * A snapshot's reservation (`_create_snapshot`): `snapshots` and its volume's size in `gigabytes`,
 * overall and for the volume's type; the first resource over its limit names the 413.
 */
export async function checkSnapshotQuota(
  db: Db,
  projectId: string,
  typeId: string,
  size: number,
): Promise<void> {
  const limits = await projectLimits(db, projectId);
  const used = await usageOf(db, projectId);
  const typeName = (await typesStore.names(db)).find((t) => t.id === typeId)?.name ?? typeId;
  const deltas: Record<string, number> = {
    snapshots: 1,
    gigabytes: size,
    [`snapshots_${typeName}`]: 1,
    [`gigabytes_${typeName}`]: size,
  };
  const overs = Object.keys(deltas).filter((k) => {
    const limit = limits[k] ?? -1;
    return limit >= 0 && limit < (used[k] ?? 0) + (deltas[k] ?? 0);
  });
  const over = overs[0];
  if (over === undefined) return;
  if (over.includes('gigabytes')) {
    throw quotaError(
      'VolumeSizeExceedsAvailableQuota',
      `Requested volume or snapshot exceeds allowed ${over} quota. Requested ${size}G, quota is ${limits[over]}G and ${used[over]}G has been consumed.`,
    );
  }
  throw quotaError('SnapshotLimitExceeded', `Maximum number of snapshots allowed (${limits[over]}) exceeded`);
}

// --- cloud-groups: group quota ---
/** A new group's reservation (group/api.py `_create_group`'s GROUP_QUOTAS.reserve). */
export async function checkGroupQuota(db: Db, projectId: string): Promise<void> {
  const limit = (await projectLimits(db, projectId)).groups ?? -1;
  if (limit >= 0 && limit < (await groupsStore.countGroups(db, projectId)) + 1) {
    throw quotaError('GroupLimitExceeded', `Maximum number of groups allowed (${limit}) exceeded`);
  }
}

/**
 * Accepting a transfer moves the volume's snapshots too (`_handle_snapshot_quota`): they are counted
 * in the accepting project after the volume's own reservation. Asked of the reference (Cinder 21):
 * the count is refused as SnapshotLimitExceeded, the gigabytes with VolumeSizeExceedsAvailableQuota's
 * text alone, "consumed" including the volume just reserved.
 */
export async function checkTransferredSnapshotsQuota(
  db: Db,
  projectId: string,
  typeId: string,
  volumeSize: number,
  snapshotSizes: readonly number[],
): Promise<void> {
  if (snapshotSizes.length === 0) return;
  const limits = await projectLimits(db, projectId);
  const used = await usageOf(db, projectId);
  const typeName = (await typesStore.names(db)).find((t) => t.id === typeId)?.name ?? typeId;
  const size = snapshotSizes.reduce((a, b) => a + b, 0);
  const reservedByVolume: Record<string, number> = {
    gigabytes: volumeSize,
    [`gigabytes_${typeName}`]: volumeSize,
  };
  const deltas: Record<string, number> = {
    snapshots: snapshotSizes.length,
    gigabytes: size,
    [`snapshots_${typeName}`]: snapshotSizes.length,
    [`gigabytes_${typeName}`]: size,
  };
  const consumed = (k: string) => (used[k] ?? 0) + (reservedByVolume[k] ?? 0);
  const over = Object.keys(deltas).find((k) => {
    const limit = limits[k] ?? -1;
    return limit >= 0 && limit < consumed(k) + (deltas[k] ?? 0);
  });
  if (over === undefined) return;
  if (over.includes('gigabytes')) {
    const message = `Requested volume or snapshot exceeds allowed ${over} quota. Requested ${size}G, quota is ${limits[over]}G and ${consumed(over)}G has been consumed.`;
    throw new OpenStackError(413, message, {
      headers: { 'Retry-After': '0' },
      rawBody: { overLimit: { code: 413, message, retryAfter: '0' } },
    });
  }
  throw quotaError('SnapshotLimitExceeded', `Maximum number of snapshots allowed (${limits[over]}) exceeded`);
}
