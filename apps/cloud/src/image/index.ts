import { type ErrorRequestHandler, Router } from 'express';
import type { CloudDeps } from '../deps.js';
import type { Identity } from '../identity/index.js';
import { OpenStackError } from '../platform/http/errors.js';
import { toOpenStackError } from '../platform/http/faults.js';
import { createImageApi, type ImageApi } from './api.js';
import { glanceError } from './errors.js';
import { imagesRoutes } from './routes/images.routes.js';
import { imageVersionRoutes } from './routes/versions.routes.js';

export type { Image, ImageApi, ImageCaller } from './api.js';
export { SEED_IMAGE_ID, seedImages } from './seed.js';

export interface ImageService {
  router: Router;
  /** What other services may ask of this one. */
  api: ImageApi;
}

/**
 * Webob renders an error for the client's Accept header: JSON for a JSON client, else text.
 * Errors that carry their own body (keystonemiddleware's 401) are sent as they are.
 */
const glanceFaults: ErrorRequestHandler = (err, req, res, _next) => {
  let e = toOpenStackError(err, req.ctx.log);
  if (e.status === 500) {
    e = new OpenStackError(500, 'Internal Server Error', {
      rawBody: {
        message:
          'The server has either erred or is incapable of performing the requested operation.<br /><br />\n\n\n',
        code: '500 Internal Server Error',
        title: 'Internal Server Error',
      },
    });
  } else if (e.options.rawBody === undefined) {
    e = glanceError(e.status, e.message, e.options.headers);
  }
  if (res.headersSent) return;
  for (const [k, v] of Object.entries(e.options.headers ?? {})) res.setHeader(k, v);
  const accept = req.get('accept') ?? '';
  const body = e.options.rawBody as { code?: string; message?: string } | undefined;
  if (accept.includes('application/json') || !body?.code) {
    res.status(e.status).json(e.options.rawBody);
    return;
  }
  const text = (body.message ?? '').replace(/<br \/>/g, '');
  res.status(e.status).type('text/plain').send(`${body.code}\n\n${text}`);
};

/** A minimal Glance v2 (`/image`): version discovery, and list/show of images with a token. */
export function createImageService(deps: CloudDeps & { identity: Identity }): ImageService {
  const router = Router();
  router.use(imageVersionRoutes());
  const v2 = Router();
  v2.use(deps.identity.requireToken);
  // Glance routes no OPTIONS (Express would answer one with an Allow list).
  v2.use((req, _res, next) =>
    next(req.method === 'OPTIONS' ? glanceError(404, 'The resource could not be found.') : undefined),
  );
  v2.use(imagesRoutes(deps));
  v2.use(() => {
    throw glanceError(404, 'The resource could not be found.');
  });
  router.use('/v2', v2);
  router.use(glanceFaults);
  return { router, api: createImageApi(deps.store) };
}
