import { Router } from 'express';
import type { PoolsService } from '../service/pools.service.js';
import { poolsView } from '../views/pool.view.js';
import { callerFor, queryOf, versionFor } from './route-helpers.js';

/** GET /scheduler-stats/get_pools[?detail=True] (admin only). */
export function poolsRoutes(pools: PoolsService): Router {
  const router = Router({ mergeParams: true, strict: true });
  router.get('/scheduler-stats/get_pools', async (req, res) => {
    const { pools: list, detail } = await pools.list(callerFor(req), versionFor(req), queryOf(req));
    res.json(poolsView(list, detail));
  });
  return router;
}
