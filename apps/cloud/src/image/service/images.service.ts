import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import type { ImageListQuery } from '../schemas/images.schemas.js';
import type { ImageRow } from '../store/images.store.js';
import { imagesStore } from '../store/images.store.js';
import { glanceError } from '../errors.js';

type Db = Kysely<Schema>;

export interface Caller {
  projectId: string | null;
  isAdmin: boolean;
}

export function propertiesOf(img: ImageRow): Record<string, unknown> {
  try {
    const p: unknown = JSON.parse(img.properties);
    return typeof p === 'object' && p !== null && !Array.isArray(p) ? (p as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Glance's default visibility rules: public images for all, private and shared ones for their
 * owner (we keep no image members), community ones only when asked for; admins see all.
 */
function visible(img: ImageRow, c: Caller): boolean {
  if (c.isAdmin) return true;
  if (img.visibility === 'public' || img.visibility === 'community') return true;
  return img.owner !== null && img.owner === c.projectId;
}

function listable(img: ImageRow, c: Caller, visibility: string | undefined): boolean {
  if (!visible(img, c)) return false;
  if (visibility === undefined) return img.visibility !== 'community' || img.owner === c.projectId;
  if (visibility === 'all') return true;
  return img.visibility === visibility;
}

function sortValue(img: ImageRow, key: string): string | number | null {
  switch (key) {
    case 'name':
      return img.name;
    case 'status':
      return img.status;
    case 'container_format':
      return img.container_format;
    case 'disk_format':
      return img.disk_format;
    case 'size':
      return img.size;
    case 'id':
      return img.id;
    case 'updated_at':
      return img.updated_at;
    default:
      return img.created_at;
  }
}

function cmp(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}

export interface ImagePage {
  images: ImageRow[];
  nextMarker: string | null;
}

/** `GET /v2/images` with Glance's filters, sorting and marker paging. */
export async function listImages(db: Db, caller: Caller, q: ImageListQuery): Promise<ImagePage> {
  const { visibility, osHidden, protectedOnly, keys, dirs, tags, propertyFilters } = q;
  let rows = await imagesStore.list(db, q.filters);
  rows = rows.filter((img) => {
    if (!listable(img, caller, visibility)) return false;
    // Our images are never hidden or protected and carry no tags.
    if (osHidden || protectedOnly || tags.length > 0) return false;
    const props = propertiesOf(img);
    return propertyFilters.every(([k, v]) => props[k] !== undefined && String(props[k]) === v);
  });
  const order = (a: ImageRow, b: ImageRow) => {
    for (const [i, k] of keys.entries()) {
      const c = cmp(sortValue(a, k), sortValue(b, k)) * (dirs[i] === 'desc' ? -1 : 1);
      if (c !== 0) return c;
    }
    return 0;
  };
  rows.sort(order);

  if (q.marker !== undefined) {
    const m = await imagesStore.byId(db, q.marker);
    if (!m || !visible(m, caller)) throw glanceError(400, `No image found with ID ${q.marker}`);
    rows = rows.filter((r) => order(r, m) > 0);
  }
  const page = rows.slice(0, q.limit);
  return { images: page, nextMarker: page.length > 0 && page.length === q.limit ? page.at(-1)!.id : null };
}

/** `GET /v2/images/{id}`: an image the caller may not see is as absent as a missing one. */
export async function getImage(db: Db, caller: Caller, id: string): Promise<ImageRow> {
  const img = await imagesStore.byId(db, id);
  if (!img || !visible(img, caller)) throw glanceError(404, `No image found with ID ${id}`);
  return img;
}

/** An image by id as another service asks Glance for it (`show`): null when absent or not the caller's to see. */
export async function findVisibleImage(db: Db, caller: Caller, id: string): Promise<ImageRow | null> {
  const img = await imagesStore.byId(db, id);
  return img && visible(img, caller) ? img : null;
}

/** The images an exact `?name=` listing shows the caller (`detail(filters={'name': ...})`). */
export async function listImagesNamed(db: Db, caller: Caller, name: string): Promise<ImageRow[]> {
  return (await imagesStore.list(db, { name })).filter((img) => listable(img, caller, undefined));
}

/** Our images carry an md5 checksum only; Glance also reports a sha512 multihash. */
export function osHashValue(img: ImageRow): string | null {
  if (img.checksum === null) return null;
  return createHash('sha512').update(`image-data/${img.id}/${img.checksum}`).digest('hex');
}
