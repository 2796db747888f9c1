import { Router } from 'express';
import type { ComputeDeps } from '../deps.js';
import { versionOf } from '../../platform/http/microversion.js';
import { assertAdmin, RULES } from '../policy.js';
import {
  parseServiceListQuery,
  parseServiceUpdateLegacy,
  parseServiceUpdateV253,
  parseServiceUuid,
} from '../schemas/os-services.schemas.js';
import {
  deleteService,
  listServices,
  updateServiceLegacy,
  updateServiceV253,
} from '../service/os-services.service.js';
import { legacyServiceUpdateView, serviceView, servicesView } from '../views/service.view.js';

/** `os-services` (captures 106-108, 187, 198): admin-only listing, enable/disable, delete. */
export function osServicesRoutes(deps: ComputeDeps): Router {
  const router = Router();

  router.get('/os-services', async (req, res) => {
    const version = versionOf(req.ctx);
    const query = parseServiceListQuery(req.query, version);
    assertAdmin(req.ctx, RULES.servicesList);
    const rows = await listServices(deps.store.db, query);
    res.json(servicesView(rows, version));
  });

  // From 2.53 the path holds the service uuid; before, an action name and the body host+binary.
  // Nova checks the body schema first, then (2.53) the uuid, then policy.
  router.put('/os-services/:id', async (req, res) => {
    const version = versionOf(req.ctx);
    if (version.atLeast('2.53')) {
      const body = parseServiceUpdateV253(req.ctx.body);
      const id = parseServiceUuid(req.params.id);
      assertAdmin(req.ctx, RULES.servicesUpdate);
      const svc = await updateServiceV253(deps.store, id, body);
      res.json({ service: serviceView(svc, version) });
      return;
    }
    const body = parseServiceUpdateLegacy(req.ctx.body, version);
    assertAdmin(req.ctx, RULES.servicesUpdate);
    res.json(legacyServiceUpdateView(await updateServiceLegacy(deps.store, req.params.id, body, version)));
  });

  router.delete('/os-services/:id', async (req, res) => {
    assertAdmin(req.ctx, RULES.servicesDelete);
    await deleteService(deps.store, req.params.id, versionOf(req.ctx));
    res.status(204).end();
  });

  return router;
}
