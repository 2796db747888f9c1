import {
  acceptedSchema,
  apiPaths,
  createVolumeRequestSchema,
  listScopeQuerySchema,
  volumeListSchema,
  volumeSchema,
} from '@sv/shared';
import { Router } from 'express';
import type { ChangeBus } from '../../platform/events.js';
import { requireSession, sessionOf } from '../../platform/session.js';
import { parseInput, sendValid } from '../../platform/validate.js';
import { volumesService } from './volumes.service.js';

export function volumesRoutes(changes: ChangeBus): Router {
  const volumes = volumesService(changes);
  const router = Router();

  router.get(apiPaths.volumes, requireSession, async (req, res) => {
    const { all } = parseInput(listScopeQuerySchema, req.query);
    sendValid(res, volumeListSchema, { volumes: await volumes.list(sessionOf(req), { all }) });
  });
  router.post(apiPaths.volumes, requireSession, async (req, res) => {
    const input = parseInput(createVolumeRequestSchema, req.body);
    sendValid(res, volumeSchema, await volumes.create(sessionOf(req), input), 201);
  });
  router.get('/api/volumes/:id', requireSession, async (req, res) => {
    sendValid(res, volumeSchema, await volumes.get(sessionOf(req), String(req.params.id)));
  });
  router.delete('/api/volumes/:id', requireSession, async (req, res) => {
    await volumes.remove(sessionOf(req), String(req.params.id));
    sendValid(res, acceptedSchema, { accepted: true }, 202);
  });
  return router;
}
