import type { Store } from '../platform/db/store.js';
import { propertiesOf } from './service/images.service.js';
import { type ImageRow, imagesStore } from './store/images.store.js';

/** An image as other services see it. */
export interface Image {
  id: string;
  status: string;
  containerFormat: string;
  diskFormat: string;
  minDisk: number;
  minRam: number;
  /** The image's own properties (hw_*, os_* ...). */
  properties: Record<string, unknown>;
}

/**
 * What other services may ask of the image service (Nova's `nova/image/glance.py`, in process).
 * Reads with the service's view: every image, whoever owns it.
 */
export interface ImageApi {
  get(imageId: string): Promise<Image | undefined>;
  getMany(imageIds: readonly string[]): Promise<Image[]>;
}

function imageOf(row: ImageRow): Image {
  return {
    id: row.id,
    status: row.status,
    containerFormat: row.container_format,
    diskFormat: row.disk_format,
    minDisk: row.min_disk,
    minRam: row.min_ram,
    properties: propertiesOf(row),
  };
}

export function createImageApi(store: Store): ImageApi {
  return {
    async get(imageId) {
      const row = await imagesStore.byId(store.db, imageId);
      return row ? imageOf(row) : undefined;
    },
    async getMany(imageIds) {
      return (await imagesStore.byIds(store.db, [...new Set(imageIds)])).map(imageOf);
    },
  };
}
