import type { Microversion } from '../../platform/http/microversion.js';
import type { FlavorRow } from '../store/flavors.store.js';

/**
 * A float Python would print with a decimal point (`1.0`): JavaScript prints 1, and a client
 * decoding the body with Python would see an int. Rendered by `novaJson`.
 */
export class PyFloat {
  constructor(readonly value: number) {}
  toJSON(): string {
    return `\u0000pyfloat:${this.value}\u0000`;
  }
}

const PY_FLOAT_RE = /"\\u0000pyfloat:([^"\\]+)\\u0000"/g;

/** JSON text of a body that may hold PyFloat values. */
export function novaJson(body: unknown): string {
  return JSON.stringify(body).replace(PY_FLOAT_RE, (_m, n: string) => (/^-?\d+$/.test(n) ? `${n}.0` : n));
}

/** Nova's `_get_links`: self under the version, bookmark without it. */
export function resourceLinks(computeBase: string, collection: string, id: string) {
  return [
    { rel: 'self', href: `${computeBase}/v2.1/${collection}/${id}` },
    { rel: 'bookmark', href: `${computeBase}/${collection}/${id}` },
  ];
}

/** Python's `urlencode` quoting: spaces become `+`. */
const quotePlus = (s: string) => encodeURIComponent(s).replaceAll('%20', '+');

/**
 * Nova's `_get_collection_links`: a `next` link when a page is as long as the limit the client
 * asked for, with the query parameters sorted and the marker replaced.
 */
export function collectionLinks(
  computeBase: string,
  collection: string,
  query: Record<string, unknown>,
  requestedLimit: number | undefined,
  count: number,
  lastId: string | number | undefined,
) {
  if (!requestedLimit || requestedLimit !== count || lastId === undefined) return [];
  const params = new Map<string, string>();
  for (const [k, v] of Object.entries(query)) params.set(k, String(Array.isArray(v) ? v.at(-1) : v));
  params.set('marker', String(lastId));
  const qs = [...params.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${quotePlus(k)}=${quotePlus(v)}`)
    .join('&');
  return [{ rel: 'next', href: `${computeBase}/v2.1/${collection}?${qs}` }];
}

export interface FlavorViewOptions {
  version: Microversion;
  /** From 2.61, when policy lets the caller read extra specs. */
  extraSpecs: Record<string, string> | null;
}

/** `GET /flavors` item: id, name, links; description from 2.55. */
export function flavorBriefView(base: string, f: FlavorRow, version: Microversion) {
  return {
    id: f.id,
    name: f.name,
    links: resourceLinks(base, 'flavors', f.id),
    ...(version.atLeast('2.55') ? { description: f.description } : {}),
  };
}

/**
 * Flavor show/detail (captures 96-101, 179): `swap` is "" for 0 below 2.75 and a number from
 * 2.75; `rxtx_factor` prints as Python's float; description from 2.55; extra_specs from 2.61.
 */
export function flavorView(base: string, f: FlavorRow, opts: FlavorViewOptions) {
  const v = opts.version;
  return {
    id: f.id,
    name: f.name,
    ram: f.ram,
    disk: f.disk,
    swap: v.atLeast('2.75') ? f.swap : f.swap || '',
    'OS-FLV-EXT-DATA:ephemeral': f.ephemeral,
    'OS-FLV-DISABLED:disabled': f.disabled === 1,
    vcpus: f.vcpus,
    'os-flavor-access:is_public': f.is_public === 1,
    rxtx_factor: f.rxtx_factor ? new PyFloat(f.rxtx_factor) : '',
    links: resourceLinks(base, 'flavors', f.id),
    ...(v.atLeast('2.55') ? { description: f.description } : {}),
    ...(v.atLeast('2.61') && opts.extraSpecs !== null ? { extra_specs: opts.extraSpecs } : {}),
  };
}

// --- cloud-rescue: flavor access ---
/** `_marshall_flavor_access`: one entry per project the private flavor is shared with. */
export function flavorAccessView(access: { flavorId: string; projectIds: readonly string[] }) {
  return {
    flavor_access: access.projectIds.map((p) => ({ flavor_id: access.flavorId, tenant_id: p })),
  };
}
