import { type Request, Router } from 'express';
import type { ComputeDeps } from '../deps.js';
import { baseUrl } from '../../platform/http/base-url.js';
import { authOf } from '../../platform/http/context.js';
import { notFound, WEBOB_NOT_FOUND } from '../../platform/http/errors.js';
import { versionOf } from '../../platform/http/microversion.js';
import { requestSchema, validateBody } from '../schemas/validation.js';
import {
  addTag,
  checkTag,
  deleteAllTags,
  deleteTag,
  listTags,
  replaceTags,
} from '../service/server-tags.service.js';

const TAGS_VERSION = '2.26';

/** `schemas/server_tags.py` `update_all`: at most 50 tags of 1-60 characters without `,` or `/`. */
const updateAllSchema = requestSchema<{ tags: string[] }>({
  type: 'object',
  properties: {
    tags: {
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: 60, pattern: '^[^,/]*$' },
      maxItems: 50,
    },
  },
  required: ['tags'],
  additionalProperties: false,
});

/** Every tags method exists from 2.26 (below: Nova's 404 for a method of a later microversion). */
const since226 = (req: Request) => {
  if (versionOf(req.ctx).below(TAGS_VERSION)) throw notFound(WEBOB_NOT_FOUND);
};

/** `/servers/{id}/tags` (2.26): list, replace all, delete all; one tag: check, add, delete. */
export function serverTagRoutes(deps: ComputeDeps): Router {
  const router = Router();

  router.get('/servers/:serverId/tags', async (req, res) => {
    since226(req);
    res.status(200).json({ tags: await listTags(deps, authOf(req.ctx), req.params.serverId) });
  });

  router.put('/servers/:serverId/tags', async (req, res) => {
    since226(req);
    const { tags } = validateBody(updateAllSchema, req.ctx.body);
    res.status(200).json({ tags: await replaceTags(deps, authOf(req.ctx), req.params.serverId, tags) });
  });

  router.delete('/servers/:serverId/tags', async (req, res) => {
    since226(req);
    await deleteAllTags(deps, authOf(req.ctx), req.params.serverId);
    res.status(204).end();
  });

  router.get('/servers/:serverId/tags/:tag', async (req, res) => {
    since226(req);
    await checkTag(deps, authOf(req.ctx), req.params.serverId, req.params.tag);
    res.status(204).end();
  });

  router.put('/servers/:serverId/tags/:tag', async (req, res) => {
    since226(req);
    const { serverId, tag } = req.params;
    const added = await addTag(deps, authOf(req.ctx), serverId, tag);
    if (!added) {
      res.status(204).end();
      return;
    }
    res
      .status(201)
      .location(`${baseUrl(req)}/compute/v2.1/servers/${serverId}/tags/${encodeURIComponent(tag)}`)
      .end();
  });

  router.delete('/servers/:serverId/tags/:tag', async (req, res) => {
    since226(req);
    await deleteTag(deps, authOf(req.ctx), req.params.serverId, req.params.tag);
    res.status(204).end();
  });

  return router;
}
