import {
  apiPaths,
  type Server,
  type ServerListQuery,
  type ServerPage,
  serverListQuerySchema,
  serverPageSchema,
} from '@sv/shared';
import { type ApiRoute, route } from '../../platform/route-table.js';
import { holdsOfServer } from '../../openstack/attachments.js';
import { cloudFor } from '../../openstack/cloud-client.js';
import { findImage } from '../../openstack/glance.js';
import {
  canFilterServersByZone,
  findServer,
  type NovaServer,
  type ServerPageQuery,
  serverIdPager,
  serverPager,
} from '../../openstack/nova.js';
import { pageAt } from '../../openstack/paging.js';
import type { SessionData } from '../../platform/session-store.js';
import {
  inScope,
  listScope,
  literalRegex,
  looksLikeId,
  mapLimited,
  pageInfo,
} from '../../platform/list-scope.js';
import { toServerView } from './servers.service.js';

const SORT_KEYS = { name: 'display_name', status: 'vm_state', created: 'created_at' } as const;

/**
 * One page of servers, asked of Nova one page at a time: name (a regex Nova matches anywhere),
 * status and zone filters, sort and marker go to Nova; "attached or not" (and the zone, for a
 * member below 2.83) is judged here on the pages Nova returns. A whole id is looked up directly.
 * Nova does not count, so the total is known only on the last page.
 */
export async function listServerPage(session: SessionData, q: ServerListQuery): Promise<ServerPage> {
  const scope = listScope(session, q);
  const cloud = cloudFor(session);
  const zoneByNova = q.zone !== undefined && canFilterServersByZone(cloud);
  const keepParts: ((s: NovaServer) => boolean)[] = [];
  if (q.attached !== undefined) {
    const want = q.attached === 'yes';
    keepParts.push((s) => s.volumeIds.length > 0 === want);
  }
  if (q.zone !== undefined && !zoneByNova) keepParts.push((s) => s.availabilityZone === q.zone);
  const keep = keepParts.length > 0 ? (s: NovaServer) => keepParts.every((k) => k(s)) : undefined;

  let found: NovaServer[];
  let nextMarker: string | null = null;
  let counted: number | null = null;
  if (q.q !== undefined && looksLikeId(q.q)) {
    const s = q.page === 1 ? await findServer(cloud, q.q) : null;
    const status = q.status?.toUpperCase();
    found =
      s &&
      inScope(session, scope, s.projectId) &&
      (status === undefined || s.status === status) &&
      (q.zone === undefined || s.availabilityZone === q.zone) &&
      (!keep || keep(s))
        ? [s]
        : [];
    counted = found.length;
  } else {
    const nq: ServerPageQuery = {
      ...(q.q ? { nameRegex: literalRegex(q.q) } : {}),
      ...(q.status !== undefined ? { status: q.status.toUpperCase() } : {}),
      ...(zoneByNova && q.zone !== undefined ? { zoneRegex: `^${literalRegex(q.zone)}$` } : {}),
      allProjects: scope.allProjects,
      ...(scope.projectId !== undefined ? { projectId: scope.projectId } : {}),
      sortKey: SORT_KEYS[q.sort],
      sortDir: q.dir,
    };
    const page = await pageAt(
      'servers',
      serverPager(cloud, nq),
      keep ? serverPager(cloud, nq) : serverIdPager(cloud, nq),
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

  const imageIds = [...new Set(found.flatMap((s) => (s.imageId ? [s.imageId] : [])))];
  const [holds, images] = await Promise.all([
    mapLimited(found, 8, (s) => (s.volumeIds.length > 0 ? holdsOfServer(cloud, s) : Promise.resolve([]))),
    mapLimited(imageIds, 4, (id) => findImage(cloud, id)),
  ]);
  const imageNames = new Map(images.flatMap((i) => (i ? [[i.id, i.name] as const] : [])));
  const servers: Server[] = found.map((s, i) => toServerView(s, holds[i] ?? [], imageNames, session.isAdmin));
  return { servers, page: pageInfo(q.page, q.limit, servers.length, nextMarker, counted) };
}

export function serverListRoutes(): ApiRoute[] {
  return [
    route({
      method: 'get',
      path: apiPaths.serverPage,
      summary: 'One page of servers: searched, filtered and sorted by the cloud',
      tag: 'servers',
      query: serverListQuerySchema,
      response: { schema: serverPageSchema },
      handler: ({ session, query }) => listServerPage(session, query),
    }),
  ];
}
