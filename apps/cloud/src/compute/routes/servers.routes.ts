import { type Request, type Response, Router } from 'express';
import type { ComputeDeps } from '../deps.js';
import { baseUrl } from '../../platform/http/base-url.js';
import { authOf } from '../../platform/http/context.js';
import { versionOf } from '../../platform/http/microversion.js';
import { canReadFlavorExtraSpecs } from '../policy.js';
import { parseServerCreate } from '../schemas/servers.schemas.js';
import { createServers } from '../service/server-create.service.js';
import { parseServerUpdate } from '../schemas/server-update.schemas.js';
import { updateServer } from '../service/server-update.service.js';
import { scheduleBuildBatch } from '../host/server-lifecycle.js';
import { deleteServer, getServer, listServers, loadExtras, type Query } from '../service/servers.service.js';
import {
  type ServerViewContext,
  serverBasicView,
  serverCreateView,
  serverDetailView,
  serverLinks,
  serversCollectionLinks,
} from '../views/server.view.js';

const computeBase = (req: Request) => `${baseUrl(req)}/compute`;

export function viewContext(req: Request): ServerViewContext {
  const version = versionOf(req.ctx);
  return {
    computeBase: computeBase(req),
    version,
    isAdmin: authOf(req.ctx).isAdmin,
    showExtraSpecs: version.atLeast('2.47') && canReadFlavorExtraSpecs(req.ctx),
  };
}

/** Nova answers 202/204 with an empty body but still a JSON content type (captures 155, 195). */
const sendEmpty = (res: Response, status: number) => {
  res.status(status).type('application/json').end();
};

/** /servers: create, list, detail, show, delete (captures 08-15, 116-153, 195, 294-299). */
export function serverRoutes(deps: ComputeDeps): Router {
  const router = Router();

  router.post('/servers', async (req, res) => {
    const version = versionOf(req.ctx);
    const body = parseServerCreate(req.ctx.body, version);
    const { created, placement } = await createServers(deps, authOf(req.ctx), version, body);
    scheduleBuildBatch(
      deps,
      created.servers.map((s) => s.id),
      { placement },
    );
    if (created.returnReservationId) {
      res.status(202).json({ reservation_id: created.reservationId });
      return;
    }
    const first = created.servers[0]!;
    const base = computeBase(req);
    res
      .status(202)
      .location(serverLinks(base, first.id)[0]!.href)
      .json(serverCreateView(base, first, created.securityGroups, created.adminPass));
  });

  const list = (detail: boolean) => async (req: Request, res: Response) => {
    const ctx = viewContext(req);
    const query = req.query as Query;
    const page = await listServers(deps, authOf(req.ctx), ctx.version, query, { detail });
    const servers = page.servers.map((s) =>
      detail
        ? serverDetailView(
            ctx,
            s,
            page.extras.get(s.id) ?? { bdms: [], hostStatus: '', image: undefined, ports: [] },
            {
              forList: true,
            },
          )
        : serverBasicView(ctx.computeBase, s),
    );
    const links = serversCollectionLinks(
      ctx.computeBase,
      detail ? 'servers/detail' : 'servers',
      query,
      page.effectiveLimit,
      page.servers,
    );
    res.json({ servers, ...(links.length ? { servers_links: links } : {}) });
  };
  router.get('/servers', list(false));
  router.get('/servers/detail', list(true));

  router.get('/servers/:id', async (req, res) => {
    const ctx = viewContext(req);
    const server = await getServer(deps, authOf(req.ctx), req.params.id);
    const extras = await loadExtras(deps, [server], {
      isAdmin: ctx.isAdmin,
      images: ctx.version.atLeast('2.98'),
    });
    res.json({ server: serverDetailView(ctx, server, extras.get(server.id)!, { forList: false }) });
  });

  router.put('/servers/:id', async (req, res) => {
    const ctx = viewContext(req);
    const body = parseServerUpdate(req.ctx.body, ctx.version);
    const server = await updateServer(deps, authOf(req.ctx), ctx.version, req.params.id, body);
    const extras = await loadExtras(deps, [server], {
      isAdmin: ctx.isAdmin,
      images: ctx.version.atLeast('2.98'),
    });
    res.json({
      server: serverDetailView(ctx, server, extras.get(server.id)!, { forList: false, reduced: true }),
    });
  });

  router.delete('/servers/:id', async (req, res) => {
    await deleteServer(deps, authOf(req.ctx), req.params.id);
    sendEmpty(res, 204);
  });

  return router;
}

export { sendEmpty };
