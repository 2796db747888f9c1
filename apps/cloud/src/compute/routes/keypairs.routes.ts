import { type Request, type Response, Router } from 'express';
import type { ComputeDeps } from '../deps.js';
import { baseUrl } from '../../platform/http/base-url.js';
import { authOf } from '../../platform/http/context.js';
import { versionOf } from '../../platform/http/microversion.js';
import { keypairUserParam, parseKeypairCreate, parseKeypairListQuery } from '../schemas/keypairs.schemas.js';
import { createKeypair, deleteKeypair, getKeypair, listKeypairs } from '../service/keypairs.service.js';
import { collectionLinks, novaJson } from '../views/flavor.view.js';
import { keyPairsQuota } from '../service/quotas.service.js';
import { keypairCreateView, keypairListItemView, keypairShowView } from '../views/keypair.view.js';

const sendJson = (res: Response, status: number, body: unknown) => {
  res.status(status).type('application/json').send(novaJson(body));
};

const computeBase = (req: Request) => `${baseUrl(req)}/compute`;

/** `os-keypairs`: create (generate or import), list (paged from 2.35), show and delete. */
export function keypairRoutes(deps: ComputeDeps): Router {
  const router = Router();

  router.post('/os-keypairs', async (req, res) => {
    const version = versionOf(req.ctx);
    const cmd = parseKeypairCreate(req.ctx.body, version);
    const auth = authOf(req.ctx);
    const { row, privateKey } = await createKeypair(deps, auth, cmd, (db, userId) =>
      keyPairsQuota(db, auth.projectId ?? '', userId),
    );
    sendJson(res, version.atLeast('2.2') ? 201 : 200, keypairCreateView(row, privateKey, version));
  });

  router.get('/os-keypairs', async (req, res) => {
    const version = versionOf(req.ctx);
    const query = parseKeypairListQuery(req.query, version);
    const rows = await listKeypairs(deps, authOf(req.ctx), query);
    const links = version.atLeast('2.35')
      ? collectionLinks(
          computeBase(req),
          'os-keypairs',
          req.query,
          query.limit,
          rows.length,
          rows.at(-1)?.name,
        )
      : [];
    sendJson(res, 200, {
      keypairs: rows.map((k) => keypairListItemView(k, version)),
      ...(links.length ? { keypairs_links: links } : {}),
    });
  });

  router.get('/os-keypairs/:name', async (req, res) => {
    const version = versionOf(req.ctx);
    const userId = keypairUserParam(req.query, version);
    const row = await getKeypair(deps, authOf(req.ctx), req.params.name, userId);
    sendJson(res, 200, keypairShowView(row, version));
  });

  router.delete('/os-keypairs/:name', async (req, res) => {
    const version = versionOf(req.ctx);
    await deleteKeypair(deps, authOf(req.ctx), req.params.name, keypairUserParam(req.query, version));
    res.status(version.atLeast('2.2') ? 204 : 202).end();
  });

  return router;
}
