import { Router } from 'express';
import type { CloudDeps } from '../../deps.js';
import { authOf } from '../../platform/http/context.js';
import { parseImageListQuery } from '../schemas/images.schemas.js';
import { getImage, listImages } from '../service/images.service.js';
import { imageListView, imageView } from '../views/image.view.js';

/** Glance v2 images, read-only: list and show of the seeded images. */
export function imagesRoutes(deps: CloudDeps): Router {
  const router = Router();
  const callerOf = (ctx: Parameters<typeof authOf>[0]) => {
    const auth = authOf(ctx);
    return { projectId: auth.projectId, isAdmin: auth.isAdmin };
  };

  router.get('/images', async (req, res) => {
    const page = await listImages(deps.store.db, callerOf(req.ctx), parseImageListQuery(req.query));
    res.json(imageListView(page.images, req.query, page.nextMarker));
  });

  router.get('/images/:id', async (req, res) => {
    res.json(imageView(await getImage(deps.store.db, callerOf(req.ctx), req.params.id)));
  });

  return router;
}
