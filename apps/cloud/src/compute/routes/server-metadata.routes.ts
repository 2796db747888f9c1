import { Router } from 'express';
import type { ComputeDeps } from '../deps.js';
import { authOf } from '../../platform/http/context.js';
import { parseMetaBody, parseMetadataBody } from '../schemas/server-metadata.schemas.js';
import {
  deleteMetadataItem,
  listMetadata,
  setMetadata,
  showMetadataItem,
} from '../service/server-metadata.service.js';
import { sendEmpty } from './servers.routes.js';

/** /servers/{id}/metadata and /metadata/{key} (`server_metadata.py`). POST merges, PUT replaces. */
export function serverMetadataRoutes(deps: ComputeDeps): Router {
  const router = Router();
  router.get('/servers/:id/metadata', async (req, res) => {
    res.json({ metadata: await listMetadata(deps, authOf(req.ctx), req.params.id) });
  });
  router.post('/servers/:id/metadata', async (req, res) => {
    const given = parseMetadataBody(req.ctx.body);
    const metadata = await setMetadata(deps, authOf(req.ctx), req.params.id, given, {
      replace: false,
      rule: 'create',
    });
    res.json({ metadata });
  });
  router.put('/servers/:id/metadata', async (req, res) => {
    const given = parseMetadataBody(req.ctx.body);
    const metadata = await setMetadata(deps, authOf(req.ctx), req.params.id, given, {
      replace: true,
      rule: 'update_all',
    });
    res.json({ metadata });
  });
  router.get('/servers/:id/metadata/:key', async (req, res) => {
    res.json({ meta: await showMetadataItem(deps, authOf(req.ctx), req.params.id, req.params.key) });
  });
  router.put('/servers/:id/metadata/:key', async (req, res) => {
    const meta = parseMetaBody(req.ctx.body);
    await setMetadata(deps, authOf(req.ctx), req.params.id, meta, {
      replace: false,
      rule: 'update',
      uriKey: req.params.key,
    });
    res.json({ meta });
  });
  router.delete('/servers/:id/metadata/:key', async (req, res) => {
    await deleteMetadataItem(deps, authOf(req.ctx), req.params.id, req.params.key);
    sendEmpty(res, 204);
  });
  return router;
}
