import {
  apiPaths,
  type Volume,
  type VolumeListQuery,
  type VolumePage,
  volumeListQuerySchema,
  volumePageSchema,
} from '@sv/shared';
import { type ApiRoute, route } from '../../platform/route-table.js';
import { holdsOfVolume } from '../../openstack/attachments.js';
import {
  type CinderVolume,
  findVolume,
  type VolumePageQuery,
  volumeIdPager,
  volumePager,
} from '../../openstack/cinder.js';
import { cloudFor } from '../../openstack/cloud-client.js';
import { pageAt } from '../../openstack/paging.js';
import type { SessionData } from '../../platform/session-store.js';
import { inScope, listScope, looksLikeId, mapLimited, pageInfo } from '../../platform/list-scope.js';
import { toVolumeView } from './volumes.service.js';

const SORT_KEYS = { name: 'name', status: 'status', size: 'size', created: 'created_at' } as const;

/** Statuses in which a volume has no attachment record at all: its holders need no extra call. */
const UNHELD = new Set(['available', 'creating', 'downloading', 'error', 'deleting', 'error_deleting']);

/** Held by a server, or on its way to or from one. */
const isAttached = (v: CinderVolume): boolean => v.attachments.length > 0 || !UNHELD.has(v.status);

/**
 * One page of volumes, asked of Cinder one page at a time: status and zone filters, sort and
 * marker go to Cinder, with its count (3.45 `with_count`) when nothing is left to filter here.
 * A name (part of one, any case), "shared" and "attached or not" are judged here on the pages
 * Cinder returns, since a member may not filter on them (resource_filters.json); a whole id is
 * looked up directly.
 */
export async function listVolumePage(session: SessionData, q: VolumeListQuery): Promise<VolumePage> {
  const scope = listScope(session, q);
  const cloud = cloudFor(session);
  const keepParts: ((v: CinderVolume) => boolean)[] = [];
  const name = q.q && !looksLikeId(q.q) ? q.q.toLowerCase() : undefined;
  if (name !== undefined) keepParts.push((v) => v.name.toLowerCase().includes(name));
  if (q.shared !== undefined) {
    const want = q.shared === 'yes';
    keepParts.push((v) => v.multiattach === want);
  }
  if (q.attached !== undefined) {
    const want = q.attached === 'yes';
    keepParts.push((v) => isAttached(v) === want);
  }
  const keep = keepParts.length > 0 ? (v: CinderVolume) => keepParts.every((k) => k(v)) : undefined;
  const status = q.status?.toLowerCase();

  let found: CinderVolume[];
  let nextMarker: string | null = null;
  let counted: number | null = null;
  if (q.q !== undefined && looksLikeId(q.q)) {
    const v = q.page === 1 ? await findVolume(cloud, q.q) : null;
    found =
      v &&
      inScope(session, scope, v.projectId) &&
      (status === undefined || v.status === status) &&
      (q.zone === undefined || v.availabilityZone === q.zone) &&
      (!keep || keep(v))
        ? [v]
        : [];
    counted = found.length;
  } else {
    const cq: VolumePageQuery = {
      ...(status !== undefined ? { status } : {}),
      ...(q.zone !== undefined ? { availabilityZone: q.zone } : {}),
      allProjects: scope.allProjects,
      ...(scope.projectId !== undefined ? { projectId: scope.projectId } : {}),
      sortKey: SORT_KEYS[q.sort],
      sortDir: q.dir,
      withCount: !keep,
    };
    const page = await pageAt(
      'volumes',
      volumePager(cloud, cq),
      keep ? volumePager(cloud, { ...cq, withCount: false }) : volumeIdPager(cloud, cq),
      {
        page: q.page,
        size: q.limit,
        ...(q.marker !== undefined ? { marker: q.marker } : {}),
        ...(keep ? { keep } : {}),
      },
    );
    found = page.items;
    nextMarker = page.nextMarker;
    counted = page.count;
  }

  const holds = await mapLimited(found, 8, (v) =>
    isAttached(v) ? holdsOfVolume(cloud, v) : Promise.resolve([]),
  );
  const volumes: Volume[] = found.map((v, i) => toVolumeView(v, holds[i] ?? []));
  return { volumes, page: pageInfo(q.page, q.limit, volumes.length, nextMarker, counted) };
}

export function volumeListRoutes(): ApiRoute[] {
  return [
    route({
      method: 'get',
      path: apiPaths.volumePage,
      summary: 'One page of volumes: searched, filtered and sorted by the cloud',
      tag: 'volumes',
      query: volumeListQuerySchema,
      response: { schema: volumePageSchema },
      handler: ({ session, query }) => listVolumePage(session, query),
    }),
  ];
}
