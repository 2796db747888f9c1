import { type Response, Router } from 'express';
import type { ComputeDeps } from '../deps.js';
import { authOf } from '../../platform/http/context.js';
import { versionOf } from '../../platform/http/microversion.js';
import {
  parseLimitsQuery,
  parseQuotaClassName,
  parseQuotaClassUpdate,
  parseQuotaQuery,
  parseQuotaSetUpdate,
  quotaClassResourcesAt,
} from '../schemas/quotas.schemas.js';
import {
  COMPUTE_RESOURCES,
  defaultQuotas,
  deleteQuotas,
  detailQuotas,
  limitsFor,
  quotaResourcesAt,
  showQuotaClass,
  showQuotas,
  updateQuotaClass,
  updateQuotas,
} from '../service/quotas.service.js';
import { novaJson } from '../views/flavor.view.js';
import { limitsView, quotaSetView } from '../views/quota.view.js';

const sendJson = (res: Response, status: number, body: unknown) => {
  res.status(status).type('application/json').send(novaJson(body));
};

/** `limits`, `os-quota-sets` and `os-quota-class-sets`. */
export function quotaRoutes(deps: ComputeDeps): Router {
  const router = Router();

  router.get('/limits', async (req, res) => {
    const version = versionOf(req.ctx);
    const tenantId = parseLimitsQuery(req.query, version);
    const { limits, used } = await limitsFor(deps, authOf(req.ctx), tenantId);
    sendJson(res, 200, limitsView(limits, used, COMPUTE_RESOURCES, version));
  });

  router.get('/os-quota-sets/:id/defaults', async (req, res) => {
    const version = versionOf(req.ctx);
    const values = await defaultQuotas(deps, req.params.id);
    sendJson(res, 200, { quota_set: quotaSetView(req.params.id, values, quotaResourcesAt(version)) });
  });

  router.get('/os-quota-sets/:id/detail', async (req, res) => {
    const version = versionOf(req.ctx);
    const userId = parseQuotaQuery(req.query, version);
    const values = await detailQuotas(deps, authOf(req.ctx), req.params.id, userId);
    sendJson(res, 200, { quota_set: quotaSetView(req.params.id, values, quotaResourcesAt(version)) });
  });

  router.get('/os-quota-sets/:id', async (req, res) => {
    const version = versionOf(req.ctx);
    const userId = parseQuotaQuery(req.query, version);
    const values = await showQuotas(deps, authOf(req.ctx), req.params.id, userId);
    sendJson(res, 200, { quota_set: quotaSetView(req.params.id, values, quotaResourcesAt(version)) });
  });

  router.put('/os-quota-sets/:id', async (req, res) => {
    const version = versionOf(req.ctx);
    const cmd = parseQuotaSetUpdate(req.ctx.body, version);
    const userId = parseQuotaQuery(req.query, version);
    const values = await updateQuotas(
      deps,
      authOf(req.ctx),
      req.params.id,
      userId,
      cmd.values,
      cmd.force,
      cmd.networksGiven,
    );
    sendJson(res, 200, { quota_set: quotaSetView(null, values, quotaResourcesAt(version)) });
  });

  router.delete('/os-quota-sets/:id', async (req, res) => {
    const version = versionOf(req.ctx);
    const userId = parseQuotaQuery(req.query, version);
    await deleteQuotas(deps, authOf(req.ctx), req.params.id, userId);
    res.status(202).end();
  });

  router.get('/os-quota-class-sets/:id', async (req, res) => {
    const version = versionOf(req.ctx);
    const values = await showQuotaClass(deps, authOf(req.ctx), req.params.id);
    sendJson(res, 200, {
      quota_class_set: quotaSetView(req.params.id, values, quotaClassResourcesAt(version, COMPUTE_RESOURCES)),
    });
  });

  router.put('/os-quota-class-sets/:id', async (req, res) => {
    const version = versionOf(req.ctx);
    const values = parseQuotaClassUpdate(req.ctx.body, version);
    const auth = authOf(req.ctx);
    const name = parseQuotaClassName(req.params.id);
    const stored = await updateQuotaClass(deps, auth, name, values);
    sendJson(res, 200, {
      quota_class_set: quotaSetView(null, stored, quotaClassResourcesAt(version, COMPUTE_RESOURCES)),
    });
  });

  return router;
}
