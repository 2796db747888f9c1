import type { Store } from '../../platform/db/store.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import { assertProjectWriter } from '../../platform/http/policy.js';
import { nowIso } from '../../platform/time.js';
import { glanceMetadataStore } from '../store/glance-metadata.store.js';
import { type VolumeRow, volumesStore } from '../store/volumes.store.js';
import type { Caller } from './caller.js';
import { volumeNotFound } from './volumes.service.js';

const invalidVolume = (reason: string) => badRequest(`Invalid volume: ${reason}`);
/** VolumeMetadataNotFound. */
export const volumeMetadataNotFound = (volumeId: string, key: string) =>
  notFound(`Volume ${volumeId} has no metadata with key ${key}.`);
/** GlanceMetadataNotFound. */
const glanceMetadataNotFound = (id: string) =>
  notFound(`Glance metadata for volume/snapshot ${id} cannot be found.`);

/** Statuses in which volume/api.py refuses any change of metadata. */
const FROZEN = ['maintenance', 'uploading'];

const userMetadata = (v: VolumeRow): Record<string, string> =>
  Object.assign(Object.create(null), JSON.parse(v.metadata || '{}') as Record<string, string>);

/**
 * A volume's user metadata (`/volumes/{id}/metadata`, volume_metadata.py) and its image
 * metadata (the volume_image_metadata extension's actions), with volume/api.py's rules: read by
 * anyone who sees the volume, changed by the project's members, never in maintenance or uploading.
 */
export function createVolumeMetadataService(deps: { store: Store }) {
  const { store } = deps;
  const db = store.db;

  const visible = (caller: Caller, v: VolumeRow | undefined, id: string): VolumeRow => {
    if (!v || (!caller.isAdmin && v.project_id !== caller.projectId)) throw volumeNotFound(id);
    return v;
  };

  async function list(caller: Caller, id: string): Promise<Record<string, string>> {
    return userMetadata(visible(caller, await volumesStore.byId(db, id), id));
  }

  /** `show`: one key, or VolumeMetadataNotFound. */
  async function item(caller: Caller, id: string, key: string): Promise<string> {
    const meta = await list(caller, id);
    if (!Object.hasOwn(meta, key)) throw volumeMetadataNotFound(id, key);
    return meta[key] as string;
  }

  /**
   * create (merge), update_all (`replace`: keys not given go) and update of one item (merge):
   * the volume's whole user metadata afterwards.
   */
  async function update(
    caller: Caller,
    id: string,
    values: Record<string, string>,
    how: { replace: boolean; rule: 'volume:create_volume_metadata' | 'volume:update_volume_metadata' },
  ): Promise<Record<string, string>> {
    return store.transaction(async (tx) => {
      const v = visible(caller, await volumesStore.lockById(store, tx, id), id);
      assertProjectWriter(caller, how.rule);
      if (FROZEN.includes(v.status)) {
        throw invalidVolume(`Updating volume metadata is not allowed for volumes in ${v.status} status.`);
      }
      const next = how.replace
        ? Object.assign(Object.create(null), values)
        : Object.assign(userMetadata(v), values);
      await volumesStore.update(tx, id, { metadata: JSON.stringify(next), updated_at: nowIso() });
      return next;
    });
  }

  async function removeItem(caller: Caller, id: string, key: string): Promise<void> {
    await store.transaction(async (tx) => {
      const v = visible(caller, await volumesStore.lockById(store, tx, id), id);
      const meta = userMetadata(v);
      if (!Object.hasOwn(meta, key)) throw volumeMetadataNotFound(id, key);
      assertProjectWriter(caller, 'volume:delete_volume_metadata');
      if (FROZEN.includes(v.status)) {
        throw invalidVolume(`Deleting volume metadata is not allowed for volumes in ${v.status} status.`);
      }
      delete meta[key];
      await volumesStore.update(tx, id, { metadata: JSON.stringify(meta), updated_at: nowIso() });
    });
  }

  /** os-show_image_metadata. */
  async function imageMetadata(caller: Caller, id: string): Promise<Record<string, string>> {
    visible(caller, await volumesStore.byId(db, id), id);
    const meta = await glanceMetadataStore.get(db, id);
    if (Object.keys(meta).length === 0) throw glanceMetadataNotFound(id);
    return meta;
  }

  /** os-set_image_metadata: merges, and answers the volume's whole image metadata. */
  async function setImageMetadata(
    caller: Caller,
    id: string,
    values: Record<string, string>,
  ): Promise<Record<string, string>> {
    return store.transaction(async (tx) => {
      const v = visible(caller, await volumesStore.lockById(store, tx, id), id);
      assertProjectWriter(caller, 'volume_extension:volume_image_metadata:set');
      if (FROZEN.includes(v.status)) {
        throw invalidVolume(`Updating volume metadata is not allowed for volumes in ${v.status} status.`);
      }
      await glanceMetadataStore.set(tx, 'volume', id, values);
      return glanceMetadataStore.get(tx, id);
    });
  }

  /** os-unset_image_metadata: one key, GlanceMetadataNotFound when the volume has no such key. */
  async function unsetImageMetadata(caller: Caller, id: string, key: string): Promise<void> {
    await store.transaction(async (tx) => {
      const v = visible(caller, await volumesStore.lockById(store, tx, id), id);
      assertProjectWriter(caller, 'volume_extension:volume_image_metadata:remove');
      const meta = await glanceMetadataStore.get(tx, id);
      if (!Object.hasOwn(meta, key)) throw glanceMetadataNotFound(id);
      if (FROZEN.includes(v.status)) {
        throw invalidVolume(`Deleting volume metadata is not allowed for volumes in ${v.status} status.`);
      }
      await glanceMetadataStore.deleteKey(tx, id, key);
    });
  }

  return { list, item, update, removeItem, imageMetadata, setImageMetadata, unsetImageMetadata };
}

export type VolumeMetadataService = ReturnType<typeof createVolumeMetadataService>;
