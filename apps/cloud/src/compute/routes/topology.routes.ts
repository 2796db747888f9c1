import { Router } from 'express';
import { authOf } from '../../platform/http/context.js';
import type { ComputeDeps } from '../deps.js';
import { parseTopologyQuery } from '../schemas/topology.schemas.js';
import { buildTopology } from '../service/topology.service.js';
import { topologyView } from '../views/topology.view.js';

/**
 * GET /os-emulator-topology: our extension (docs/cloud-extensions.md), namespaced so it can
 * never collide with a real Nova resource. Any microversion.
 */
export function topologyRoutes(deps: ComputeDeps): Router {
  const router = Router();
  router.get('/os-emulator-topology', async (req, res) => {
    const topology = await buildTopology(deps, authOf(req.ctx), parseTopologyQuery(req.query));
    res.status(200).json(topologyView(topology));
  });
  return router;
}
