import { glanceError } from '../errors.js';
import type { ImageFilters } from '../store/images.store.js';

/**
 * `GET /v2/images`'s query as Glance reads it (`glance/api/v2/images.py` RequestDeserializer
 * `index`): limit, member_status, visibility, os_hidden, protected, the two sorting syntaxes,
 * the marker, the column filters, tags, and any other key as an image property filter.
 */

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

export interface ImageListQuery {
  limit: number;
  /** undefined: Glance's default (no community images of others). */
  visibility: string | undefined;
  osHidden: boolean;
  protectedOnly: boolean;
  keys: string[];
  dirs: string[];
  marker: string | undefined;
  filters: ImageFilters;
  tags: string[];
  /** Any other key: an image property that must have this value. */
  propertyFilters: [string, string][];
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

export function parseImageListQuery(q: Query): ImageListQuery {
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

  const filters: ImageFilters = {};
  for (const [key, param] of [
    ['name', 'name'],
    ['status', 'status'],
    ['owner', 'owner'],
    ['diskFormat', 'disk_format'],
    ['containerFormat', 'container_format'],
  ] as const) {
    const value = last(q, param);
    if (value !== undefined) filters[key] = value;
  }
  return {
    limit,
    visibility: visibility || undefined,
    osHidden: osHidden === 'true',
    protectedOnly: prot === 'true',
    keys,
    dirs,
    marker: last(q, 'marker'),
    filters,
    tags: all(q, 'tag'),
    propertyFilters: Object.keys(q)
      .filter((k) => !KNOWN.includes(k))
      .map((k) => [k, last(q, k) ?? ''] as [string, string]),
  };
}
