import { Router } from 'express';
import { versionOf } from '../../platform/http/microversion.js';
import type { ComputeDeps } from '../deps.js';
import { assertAdmin } from '../policy.js';
import {
  parseAggregateAction,
  parseAggregateCreate,
  parseAggregateId,
  parseAggregateUpdate,
} from '../schemas/aggregates.schemas.js';
import {
  addAggregateHost,
  createAggregate,
  deleteAggregate,
  listAggregates,
  removeAggregateHost,
  setAggregateMetadata,
  showAggregate,
  updateAggregate,
} from '../service/aggregates.service.js';
import { aggregateView } from '../views/aggregate.view.js';

const RULE = (name: string) => `os_compute_api:os-aggregates:${name}`;

/**
 * `os-aggregates` (captures 987-996): admin only. Nova validates the body, then checks the
 * policy, then the id.
 */
export function aggregateRoutes(deps: ComputeDeps): Router {
  const router = Router({ strict: true });
  const { store } = deps;

  router.get('/os-aggregates', async (req, res) => {
    assertAdmin(req.ctx, RULE('index'));
    const version = versionOf(req.ctx);
    res.json({ aggregates: (await listAggregates(store)).map((a) => aggregateView(a, version)) });
  });

  router.post('/os-aggregates', async (req, res) => {
    const input = parseAggregateCreate(req.ctx.body);
    assertAdmin(req.ctx, RULE('create'));
    const a = await createAggregate(store, input);
    res.json({ aggregate: aggregateView(a, versionOf(req.ctx), { created: true }) });
  });

  router.get('/os-aggregates/:id', async (req, res) => {
    assertAdmin(req.ctx, RULE('show'));
    const a = await showAggregate(store, parseAggregateId(req.params.id));
    res.json({ aggregate: aggregateView(a, versionOf(req.ctx)) });
  });

  router.put('/os-aggregates/:id', async (req, res) => {
    const input = parseAggregateUpdate(req.ctx.body);
    assertAdmin(req.ctx, RULE('update'));
    const a = await updateAggregate(store, parseAggregateId(req.params.id), input);
    res.json({ aggregate: aggregateView(a, versionOf(req.ctx)) });
  });

  router.delete('/os-aggregates/:id', async (req, res) => {
    assertAdmin(req.ctx, RULE('delete'));
    await deleteAggregate(store, parseAggregateId(req.params.id));
    res.status(200).end();
  });

  router.post('/os-aggregates/:id/action', async (req, res) => {
    const action = parseAggregateAction(req.ctx.body);
    assertAdmin(req.ctx, RULE(action.action));
    const id = parseAggregateId(req.params.id);
    const a =
      action.action === 'add_host'
        ? await addAggregateHost(store, id, action.host)
        : action.action === 'remove_host'
          ? await removeAggregateHost(store, id, action.host)
          : await setAggregateMetadata(store, id, action.metadata);
    res.json({ aggregate: aggregateView(a, versionOf(req.ctx)) });
  });

  return router;
}
