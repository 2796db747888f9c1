import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import type { ImageRow } from '../store/images.store.js';
import { imagesStore } from '../store/images.store.js';
import { glanceError } from '../errors.js';

type Db = Kysely<Schema>;

export interface Caller {
  projectId: string | null;
  isAdmin: boolean;
}

/** CONF.limit_param_default and CONF.api_limit_max. */
const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 1000;

const SORT_KEYS = [
  'name',
  'status',
  'container_format',
  'disk_format',
  'size',
  'id',
  'created_at',
  'updated_at',
];
const VISIBILITIES = ['community', 'public', 'private', 'shared', 'all'];
/** Query parameters Glance reads itself; any other one filters on an image property. */
const KNOWN = [
  'limit',
  'marker',
  'member_status',
  'tag',
  'sort',
  'sort_key',
  'sort_dir',
  'name',
  'status',
  'visibility',
  'owner',
  'disk_format',
  'container_format',
  'protected',
  'os_hidden',
];

export type Query = Record<string, unknown>;
const all = (q: Query, k: string): string[] => {
  const v = q[k];
  return v === undefined ? [] : (Array.isArray(v) ? v : [v]).map(String);
};
const last = (q: Query, k: string): string | undefined => all(q, k).at(-1);

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

function sorting(q: Query): { keys: string[]; dirs: string[] } {
  const validKey = (k: string) => {
    if (!SORT_KEYS.includes(k)) {
      throw glanceError(
        400,
        `Invalid sort key: ${k}. It must be one of the following: ${SORT_KEYS.join(', ')}.`,
      );
    }
    return k;
  };
  const validDir = (d: string) => {
    if (d !== 'asc' && d !== 'desc') throw glanceError(400, `Invalid sort direction: ${d}`);
    return d;
  };
  let keys: string[] = [];
  let dirs: string[] = [];
  const sort = last(q, 'sort');
  if (sort !== undefined) {
    if (q['sort_key'] !== undefined || q['sort_dir'] !== undefined) {
      throw glanceError(400, 'Old and new sorting syntax cannot be combined');
    }
    for (const part of sort.trim().split(',')) {
      const [k = '', d] = part.split(':');
      keys.push(validKey(k.trim()));
      dirs.push(validDir((d ?? 'desc').trim()));
    }
  } else {
    keys = all(q, 'sort_key').map((k) => validKey(k.trim()));
    dirs = all(q, 'sort_dir').map((d) => validDir(d.trim()));
    if (dirs.length > 1 && dirs.length !== keys.length) {
      throw glanceError(400, 'Number of sort dirs does not match the number of sort keys');
    }
  }
  if (keys.length === 0) keys = ['created_at'];
  if (dirs.length === 0) dirs = ['desc'];
  const fallbackDir = dirs.length === 1 ? dirs[0]! : 'desc';
  while (dirs.length < keys.length) dirs.push(fallbackDir);
  // The database always breaks ties by created_at, then id.
  for (const k of ['created_at', 'id']) {
    if (!keys.includes(k)) {
      keys.push(k);
      dirs.push(fallbackDir);
    }
  }
  return { keys, dirs };
}

export interface ImagePage {
  images: ImageRow[];
  nextMarker: string | null;
}

/** `GET /v2/images` with Glance's filters, sorting and marker paging. */
export async function listImages(db: Db, caller: Caller, q: Query): Promise<ImagePage> {
  const rawLimit = last(q, 'limit');
  let limit = DEFAULT_LIMIT;
  if (rawLimit !== undefined) {
    if (!/^\s*[+-]?\d+\s*$/.test(rawLimit)) throw glanceError(400, 'limit param must be an integer');
    limit = Number.parseInt(rawLimit, 10);
    if (limit < 0) throw glanceError(400, 'limit param must be positive');
  }
  limit = Math.min(MAX_LIMIT, limit);
  const memberStatus = last(q, 'member_status') ?? 'accepted';
  if (!['pending', 'accepted', 'rejected', 'all'].includes(memberStatus)) {
    throw glanceError(400, `Invalid status: ${memberStatus}`);
  }
  const visibility = last(q, 'visibility');
  if (visibility !== undefined && visibility !== '' && !VISIBILITIES.includes(visibility)) {
    throw glanceError(400, `Invalid visibility value: ${visibility}`);
  }
  const osHidden = (last(q, 'os_hidden') ?? 'false').toLowerCase();
  if (osHidden !== 'true' && osHidden !== 'false') {
    throw glanceError(
      400,
      `Invalid value '${osHidden}' for 'os_hidden' filter. Valid values are 'true' or 'false'.`,
    );
  }
  const prot = last(q, 'protected');
  if (prot !== undefined && prot !== 'true' && prot !== 'false') {
    throw glanceError(
      400,
      `Invalid value '${prot}' for 'protected' filter. Valid values are 'true' or 'false'.`,
    );
  }
  const { keys, dirs } = sorting(q);

  const name = last(q, 'name');
  const status = last(q, 'status');
  const owner = last(q, 'owner');
  const diskFormat = last(q, 'disk_format');
  const containerFormat = last(q, 'container_format');
  let rows = await imagesStore.list(db, {
    ...(name !== undefined ? { name } : {}),
    ...(status !== undefined ? { status } : {}),
    ...(owner !== undefined ? { owner } : {}),
    ...(diskFormat !== undefined ? { diskFormat } : {}),
    ...(containerFormat !== undefined ? { containerFormat } : {}),
  });
  const propFilters = Object.keys(q).filter((k) => !KNOWN.includes(k));
  const tags = all(q, 'tag');
  rows = rows.filter((img) => {
    if (!listable(img, caller, visibility || undefined)) return false;
    // Our images are never hidden or protected and carry no tags.
    if (osHidden === 'true' || prot === 'true' || tags.length > 0) return false;
    const props = propertiesOf(img);
    return propFilters.every((k) => props[k] !== undefined && String(props[k]) === last(q, k));
  });
  const order = (a: ImageRow, b: ImageRow) => {
    for (const [i, k] of keys.entries()) {
      const c = cmp(sortValue(a, k), sortValue(b, k)) * (dirs[i] === 'desc' ? -1 : 1);
      if (c !== 0) return c;
    }
    return 0;
  };
  rows.sort(order);

  const marker = last(q, 'marker');
  if (marker !== undefined) {
    const m = await imagesStore.byId(db, marker);
    if (!m || !visible(m, caller)) throw glanceError(400, `No image found with ID ${marker}`);
    rows = rows.filter((r) => order(r, m) > 0);
  }
  const page = rows.slice(0, limit);
  return { images: page, nextMarker: page.length > 0 && page.length === limit ? page.at(-1)!.id : null };
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
