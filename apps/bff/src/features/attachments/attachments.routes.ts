import { acceptedSchema, attachmentSchema, attachVolumeRequestSchema } from '@sv/shared';
import { Router } from 'express';
import type { ChangeBus } from '../../platform/events.js';
import type { VolumeLock } from '../../platform/volume-lock.js';
import { requireSession, sessionOf } from '../../platform/session.js';
import { parseInput, sendValid } from '../../platform/validate.js';
import { attachmentsService } from './attachments.service.js';

export function attachmentsRoutes(changes: ChangeBus, volumeLock: VolumeLock): Router {
  const attachments = attachmentsService(changes, { volumeLock });
  const router = Router();

  router.post('/api/servers/:id/attachments', requireSession, async (req, res) => {
    const input = parseInput(attachVolumeRequestSchema, req.body);
    const attachment = await attachments.attach(sessionOf(req), String(req.params.id), input);
    sendValid(res, attachmentSchema, attachment, 201);
  });
  router.delete('/api/servers/:id/attachments/:volumeId', requireSession, async (req, res) => {
    await attachments.detach(sessionOf(req), String(req.params.id), String(req.params.volumeId));
    sendValid(res, acceptedSchema, { accepted: true }, 202);
  });
  return router;
}
