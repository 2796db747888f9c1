import { Router } from 'express';
import type { ComputeDeps } from '../deps.js';
import { assertAdmin, RULES } from '../policy.js';
import { listZones, listZonesDetail } from '../host/compute-hosts.js';
import { availabilityZonesView } from '../views/availability-zone.view.js';

/** `os-availability-zone` (captures 103-105): any member lists zones; the detail is admin-only. */
export function availabilityZoneRoutes(deps: ComputeDeps): Router {
  const router = Router();
  router.get('/os-availability-zone', async (_req, res) => {
    res.json(availabilityZonesView(await listZones(deps.store.db)));
  });
  router.get('/os-availability-zone/detail', async (req, res) => {
    assertAdmin(req.ctx, RULES.azDetail);
    res.json(availabilityZonesView(await listZonesDetail(deps.store.db)));
  });
  return router;
}
