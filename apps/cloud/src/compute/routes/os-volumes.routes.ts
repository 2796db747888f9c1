import { type Request, Router } from 'express';
import { baseUrl } from '../../platform/http/base-url.js';
import { authOf } from '../../platform/http/context.js';
import { notFound, WEBOB_NOT_FOUND } from '../../platform/http/errors.js';
import { versionOf } from '../../platform/http/microversion.js';
import type { ComputeDeps } from '../deps.js';
import { parseProxySnapshotCreate, parseProxyVolumeCreate } from '../schemas/os-volumes.schemas.js';
import { parseListQuery } from '../schemas/volume-attachments.schemas.js';
import {
  createProxySnapshot,
  createProxyVolume,
  deleteProxySnapshot,
  deleteProxyVolume,
  limited,
  listProxySnapshots,
  listProxyVolumes,
  showProxySnapshot,
  showProxyVolume,
} from '../service/os-volumes.service.js';
import { proxySnapshotView, proxyVolumeView } from '../views/os-volumes.view.js';

/** The proxy APIs end at 2.35 (MAX_PROXY_API_SUPPORT_VERSION): from 2.36 webob's 404 (capture 978). */
function assertProxyVersion(req: Request): void {
  if (versionOf(req.ctx).atLeast('2.36')) throw notFound(WEBOB_NOT_FOUND);
}

/** `os-volumes` and `os-snapshots` (captures 970-980): Nova's proxy of the user's Cinder calls. */
export function osVolumesRoutes(deps: ComputeDeps): Router {
  // Strict: `/os-volumes/` (an empty id) is no route in Nova, so a 404 (Tempest's negative test).
  const router = Router({ strict: true });

  // index and detail show the same view (volumes.py `_items`).
  for (const path of ['/os-volumes', '/os-volumes/detail']) {
    router.get(path, async (req, res) => {
      assertProxyVersion(req);
      const page = parseListQuery(req.query, versionOf(req.ctx));
      const volumes = await listProxyVolumes(deps, authOf(req.ctx));
      res.json({ volumes: limited(volumes, page).map(proxyVolumeView) });
    });
  }

  router.post('/os-volumes', async (req, res) => {
    assertProxyVersion(req);
    const input = parseProxyVolumeCreate(req.ctx.body);
    const volume = await createProxyVolume(deps, authOf(req.ctx), input);
    res
      .location(`${baseUrl(req)}/compute/v2.1/os-volumes/${volume.id}`)
      .json({ volume: proxyVolumeView(volume) });
  });

  router.get('/os-volumes/:id', async (req, res) => {
    assertProxyVersion(req);
    res.json({ volume: proxyVolumeView(await showProxyVolume(deps, authOf(req.ctx), req.params.id)) });
  });

  router.delete('/os-volumes/:id', async (req, res) => {
    assertProxyVersion(req);
    await deleteProxyVolume(deps, authOf(req.ctx), req.params.id);
    res.status(202).end();
  });

  for (const path of ['/os-snapshots', '/os-snapshots/detail']) {
    router.get(path, async (req, res) => {
      assertProxyVersion(req);
      const page = parseListQuery(req.query, versionOf(req.ctx));
      const snapshots = await listProxySnapshots(deps, authOf(req.ctx));
      res.json({ snapshots: limited(snapshots, page).map(proxySnapshotView) });
    });
  }

  router.post('/os-snapshots', async (req, res) => {
    assertProxyVersion(req);
    const input = parseProxySnapshotCreate(req.ctx.body);
    const snapshot = await createProxySnapshot(deps, authOf(req.ctx), input);
    res.json({ snapshot: proxySnapshotView(snapshot) });
  });

  router.get('/os-snapshots/:id', async (req, res) => {
    assertProxyVersion(req);
    res.json({ snapshot: proxySnapshotView(await showProxySnapshot(deps, authOf(req.ctx), req.params.id)) });
  });

  router.delete('/os-snapshots/:id', async (req, res) => {
    assertProxyVersion(req);
    await deleteProxySnapshot(deps, authOf(req.ctx), req.params.id);
    res.status(202).end();
  });

  return router;
}
