import { Router } from 'express';
import type { ComputeDeps } from '../deps.js';
import { authOf } from '../../platform/http/context.js';
import { versionOf } from '../../platform/http/microversion.js';
import {
  attachVolumeToServer,
  detachVolumeFromServer,
  listVolumeAttachments,
  showVolumeAttachment,
} from '../service/volume-attachments.service.js';
import { updateVolumeAttachment } from '../service/swap.service.js';
import {
  attachResponseView,
  volumeAttachmentsView,
  volumeAttachmentView,
} from '../views/volume-attachment.view.js';
import { parseAttachBody, parseListQuery, parseUpdateBody } from '../schemas/volume-attachments.schemas.js';

type Params = { serverId: string; volumeId: string };

/** /servers/{server_id}/os-volume_attachments[/{volume_id}] (reference 1.5-1.8). */
export function volumeAttachmentsRoutes(deps: ComputeDeps): Router {
  const router = Router();
  const base = '/servers/:serverId/os-volume_attachments';

  router.get(base, async (req, res) => {
    const version = versionOf(req.ctx);
    const page = parseListQuery(req.query as Record<string, unknown>, version);
    const { bdms } = await listVolumeAttachments(deps, authOf(req.ctx), req.params.serverId, page);
    res.json(volumeAttachmentsView(bdms, version));
  });

  router.post(base, async (req, res) => {
    const version = versionOf(req.ctx);
    const body = parseAttachBody(req.ctx.body, version);
    const { bdm } = await attachVolumeToServer(deps, authOf(req.ctx), {
      serverId: req.params.serverId,
      volumeId: body.volumeId,
      tag: body.tag,
      deleteOnTermination: body.deleteOnTermination,
      attachMode: body.attachMode,
      version,
    });
    // 2.101 made attach asynchronous: 202 and no body.
    if (version.atLeast('2.101')) res.status(202).type('application/json').end();
    else res.json(attachResponseView(bdm, version));
  });

  router.get(`${base}/:volumeId`, async (req, res) => {
    const version = versionOf(req.ctx);
    const { serverId, volumeId } = req.params as Params;
    const bdm = await showVolumeAttachment(deps, authOf(req.ctx), serverId, volumeId, version);
    res.json({ volumeAttachment: volumeAttachmentView(bdm, version) });
  });

  router.put(`${base}/:volumeId`, async (req, res) => {
    const version = versionOf(req.ctx);
    const { serverId, volumeId } = req.params as Params;
    const body = parseUpdateBody(req.ctx.body, version);
    await updateVolumeAttachment(deps, authOf(req.ctx), { serverId, volumeId, body, version });
    res.status(202).type('application/json').end();
  });

  router.delete(`${base}/:volumeId`, async (req, res) => {
    const version = versionOf(req.ctx);
    const { serverId, volumeId } = req.params as Params;
    await detachVolumeFromServer(deps, authOf(req.ctx), { serverId, volumeId, version });
    res.status(202).type('application/json').end();
  });

  return router;
}
