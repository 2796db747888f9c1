import { apiPaths, topologyQuerySchema, topologySchema } from '@sv/shared';
import { Router } from 'express';
import { requireSession, sessionOf } from '../../platform/session.js';
import { parseInput, sendValid } from '../../platform/validate.js';
import { getTopology } from './topology.service.js';

/**
 * GET /api/topology[?project=&host=&volume=]: hosts → servers → volumes with rw/ro edges and risks.
 * `identity.authUrl` is Keystone, for the project names.
 */
export function topologyRoutes(identity: { authUrl: string }): Router {
  const router = Router();
  router.get(apiPaths.topology, requireSession, async (req, res) => {
    const query = parseInput(topologyQuerySchema, req.query);
    sendValid(res, topologySchema, await getTopology(sessionOf(req), query, identity));
  });
  return router;
}
