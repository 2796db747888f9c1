import { novaTime } from '../../platform/time.js';
import { osHashValue, propertiesOf } from '../service/images.service.js';
import type { ImageRow } from '../store/images.store.js';

/**
 * Glance's image document (`ResponseSerializer._format_image`): custom properties at the top
 * level, then the base attributes; `self`, `file` and `schema` are relative paths; times in
 * Glance's `2026-11-21T12:22:04Z` form.
 */
export function imageView(img: ImageRow) {
  const hash = osHashValue(img);
  return {
    ...propertiesOf(img),
    name: img.name,
    disk_format: img.disk_format,
    container_format: img.container_format,
    visibility: img.visibility,
    size: img.size,
    virtual_size: null,
    status: img.status,
    checksum: img.checksum,
    protected: false,
    min_ram: img.min_ram,
    min_disk: img.min_disk,
    owner: img.owner,
    os_hidden: false,
    os_hash_algo: hash === null ? null : 'sha512',
    os_hash_value: hash,
    id: img.id,
    created_at: novaTime(img.created_at),
    updated_at: novaTime(img.updated_at),
    tags: [] as string[],
    self: `/v2/images/${img.id}`,
    file: `/v2/images/${img.id}/file`,
    schema: '/v2/schemas/image',
  };
}

const quotePlus = (s: string) => encodeURIComponent(s).replaceAll('%20', '+');
const encode = (params: [string, string][]) =>
  params.map(([k, v]) => `${quotePlus(k)}=${quotePlus(v)}`).join('&');

/** `GET /v2/images`: `first` repeats the query without the marker; `next` when a page is full. */
export function imageListView(images: ImageRow[], query: Record<string, unknown>, nextMarker: string | null) {
  const params: [string, string][] = [];
  for (const [k, v] of Object.entries(query)) {
    if (k !== 'marker') params.push([k, String(Array.isArray(v) ? v.at(-1) : v)]);
  }
  const qs = encode(params);
  return {
    images: images.map(imageView),
    first: qs ? `/v2/images?${qs}` : '/v2/images',
    schema: '/v2/schemas/images',
    ...(nextMarker !== null ? { next: `/v2/images?${encode([...params, ['marker', nextMarker]])}` } : {}),
  };
}
