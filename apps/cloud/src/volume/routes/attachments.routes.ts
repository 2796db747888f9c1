import { type Request, Router } from 'express';
import { authOf } from '../../platform/http/context.js';
import { badRequest, notFound, WEBOB_NOT_FOUND } from '../../platform/http/errors.js';
import { versionOf } from '../../platform/http/microversion.js';
import type { AttachmentsService, Caller } from '../service/attachments.service.js';
import { callerOf as volumeCallerOf } from '../service/caller.js';
import { QueryParams } from '../service/paging.js';
import { attachmentDetail, attachmentList } from '../views/attachment.view.js';
import {
  parseAttachmentAction,
  parseAttachmentCreate,
  parseAttachmentListQuery,
  parseAttachmentUpdate,
} from '../schemas/attachments.schemas.js';

/**
 * Cinder's attachments API (`api/v3/attachments.py`), 3.27+, under /volume/v3/{project_id}.
 * Bodies are checked against Cinder's JSON schemas, with its messages (captures 59, 256, 260).
 */
export function attachmentsRoutes(attachments: AttachmentsService): Router {
  const router = Router({ mergeParams: true, strict: true });

  // Every attachments route is "not found" below 3.27 (capture 46), whatever the method.
  router.use('/attachments', (req, _res, next) => {
    if (versionOf(req.ctx).below('3.27')) throw notFound(WEBOB_NOT_FOUND);
    next();
  });

  router.get('/attachments', async (req, res) => {
    const rows = await attachments.list(callerOf(req), listQuery(req));
    res.json(attachmentList(rows, false));
  });

  router.get('/attachments/detail', async (req, res) => {
    const rows = await attachments.list(callerOf(req), listQuery(req));
    res.json(attachmentList(rows, true));
  });

  router.get('/attachments/:attachmentId', async (req, res) => {
    const row = await attachments.get(callerOf(req), req.params.attachmentId);
    res.json({ attachment: attachmentDetail(row) });
  });

  router.post('/attachments', async (req, res) => {
    // An empty body is validated as None, as Cinder does.
    const { attachment } = parseAttachmentCreate(req.ctx.body, versionOf(req.ctx));
    const row = await attachments.create(callerOf(req), {
      volumeId: attachment.volume_uuid,
      instanceUuid: attachment.instance_uuid ?? null,
      connector: attachment.connector ?? null,
      mode: attachment.mode ?? null,
    });
    res.status(200).json({ attachment: attachmentDetail(row) });
  });

  router.put('/attachments/:attachmentId', async (req, res) => {
    const { attachment } = parseAttachmentUpdate(req.ctx.body);
    const row = await attachments.update(callerOf(req), req.params.attachmentId, attachment.connector);
    res.json({ attachment: attachmentDetail(row) });
  });

  router.delete('/attachments/:attachmentId', async (req, res) => {
    const remaining = await attachments.delete(callerOf(req), req.params.attachmentId);
    res.json(attachmentList(remaining, false));
  });

  router.post('/attachments/:attachmentId/action', async (req, res) => {
    const action = parseAttachmentAction(req.ctx.body);
    if (action !== 'os-complete') throw badRequest(`There is no such action: ${action}`);
    if (versionOf(req.ctx).below('3.44')) throw notFound(WEBOB_NOT_FOUND);
    await attachments.complete(callerOf(req), req.params.attachmentId);
    res.status(204).end();
  });

  return router;
}

const listQuery = (req: Request) =>
  parseAttachmentListQuery(QueryParams.fromUrl(req.originalUrl), authOf(req.ctx).isAdmin, versionOf(req.ctx));

/** The service's view of the authenticated caller. */
export function callerOf(req: Request): Caller {
  return volumeCallerOf(authOf(req.ctx));
}
