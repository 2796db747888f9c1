import type { Store } from '../platform/db/store.js';
import { type Caller, findVisibleImage, listImagesNamed, propertiesOf } from './service/images.service.js';
import { type ImageRow, imagesStore } from './store/images.store.js';

/** An image as other services see it. */
export interface Image {
  id: string;
  name: string;
  checksum: string | null;
  status: string;
  containerFormat: string;
  diskFormat: string;
  /** Bytes of image data. */
  size: number;
  minDisk: number;
  minRam: number;
  /** The image's own properties (hw_*, os_* ...). */
  properties: Record<string, unknown>;
}

/** Whose view of the images a lookup takes (the caller's project, or every image for an admin). */
export type ImageCaller = Caller;

/**
 * What other services may ask of the image service, in process: Nova's reads
 * (`nova/image/glance.py`, with the service's view: every image, whoever owns it) and Cinder's
 * lookups of the image a volume is created from (with the caller's view).
 */
export interface ImageApi {
  get(imageId: string): Promise<Image | undefined>;
  getMany(imageIds: readonly string[]): Promise<Image[]>;
  /** Glance's `show` for the caller: undefined when absent or not the caller's to see. */
  findVisible(caller: ImageCaller, imageId: string): Promise<Image | undefined>;
  /** The images an exact `?name=` listing shows the caller. */
  listNamed(caller: ImageCaller, name: string): Promise<Image[]>;
}

function imageOf(row: ImageRow): Image {
  return {
    id: row.id,
    name: row.name,
    checksum: row.checksum,
    status: row.status,
    containerFormat: row.container_format,
    size: row.size,
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
    async findVisible(caller, imageId) {
      const row = await findVisibleImage(store.db, caller, imageId);
      return row ? imageOf(row) : undefined;
    },
    async listNamed(caller, name) {
      return (await listImagesNamed(store.db, caller, name)).map(imageOf);
    },
  };
}
