import type { CloudClient } from './cloud-client.js';

/** Glance calls the BFF makes (images v2), turned into plain objects. */

export interface Image {
  id: string;
  name: string;
  status: string;
  sizeBytes: number | null;
  minDiskGb: number;
  minRamMb: number;
  visibility: string | null;
}

interface RawImage {
  id: string;
  name: string | null;
  status: string;
  size?: number | null;
  min_disk?: number;
  min_ram?: number;
  visibility?: string;
}

const toImage = (i: RawImage): Image => ({
  id: i.id,
  name: i.name ?? '',
  status: i.status,
  sizeBytes: i.size ?? null,
  minDiskGb: i.min_disk ?? 0,
  minRamMb: i.min_ram ?? 0,
  visibility: i.visibility ?? null,
});

/** Images the user can see, following Glance's `next` links. Empty when the catalog has no image service. */
export async function listImages(cloud: CloudClient): Promise<Image[]> {
  if (!cloud.session.endpoints.image) return [];
  const out: Image[] = [];
  let path: string | undefined = '/v2/images?limit=200';
  while (path) {
    const res: { body: { images?: RawImage[]; next?: string } } = await cloud.glance<{
      images?: RawImage[];
      next?: string;
    }>('GET', path);
    out.push(...(res.body.images ?? []).map(toImage));
    // Glance's `next` is a path from the service root, e.g. /v2/images?marker=...
    path = res.body.next && res.body.next !== path ? res.body.next : undefined;
  }
  return out;
}

/** One image, or null when Glance says 404. */
export async function findImage(cloud: CloudClient, imageId: string): Promise<Image | null> {
  if (!cloud.session.endpoints.image) return null;
  const res = await cloud.glance<RawImage>('GET', `/v2/images/${encodeURIComponent(imageId)}`, {
    allow: [404],
  });
  return res.status === 404 ? null : toImage(res.body);
}
