import {
  apiPaths,
  availabilityZoneListSchema,
  flavorListSchema,
  imageListSchema,
  volumeTypeListSchema,
} from '@sv/shared';
import { Router } from 'express';
import { requireSession, sessionOf } from '../../platform/session.js';
import { sendValid } from '../../platform/validate.js';
import { catalogService } from './catalog.service.js';

export function catalogRoutes(): Router {
  const catalog = catalogService();
  const router = Router();

  router.get(apiPaths.flavors, requireSession, async (req, res) => {
    sendValid(res, flavorListSchema, { flavors: await catalog.flavors(sessionOf(req)) });
  });
  router.get(apiPaths.images, requireSession, async (req, res) => {
    sendValid(res, imageListSchema, { images: await catalog.images(sessionOf(req)) });
  });
  router.get(apiPaths.availabilityZones, requireSession, async (req, res) => {
    sendValid(res, availabilityZoneListSchema, { zones: await catalog.zones(sessionOf(req)) });
  });
  router.get(apiPaths.volumeTypes, requireSession, async (req, res) => {
    sendValid(res, volumeTypeListSchema, { types: await catalog.volumeTypes(sessionOf(req)) });
  });
  return router;
}
