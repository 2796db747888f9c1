import { Router } from 'express';
import type { ComputeDeps } from '../deps.js';
import { versionOf } from '../../platform/http/microversion.js';
import { assertAdmin, RULES } from '../policy.js';
import {
  deleteService,
  listServices,
  parseServiceUpdateLegacy,
  parseServiceUpdateV253,
  updateServiceLegacy,
  updateServiceV253,
} from '../service/hosts.service.js';
import { legacyServiceUpdateView, serviceView, servicesView } from '../views/service.view.js';

/** `os-services` (captures 106-108, 187, 198): admin-only listing, enable/disable, delete. */
export function osServicesRoutes(deps: ComputeDeps): Router {
  const router = Router();

  router.get('/os-services', async (req, res) => {
    const version = versionOf(req.ctx);
    const rows = await listServices(deps.store.db, req.query, version, () =>
      assertAdmin(req.ctx, RULES.servicesList),
    );
    res.json(servicesView(rows, version));
  });

  // From 2.53 the path holds the service uuid; before, an action name and the body host+binary.
  // Nova checks the body schema first, then (2.53) the uuid, then policy.
  router.put('/os-services/:id', async (req, res) => {
    const version = versionOf(req.ctx);
    if (version.atLeast('2.53')) {
      const body = parseServiceUpdateV253(req.ctx.body);
      const svc = await updateServiceV253(deps.store, req.params.id, body, () =>
        assertAdmin(req.ctx, RULES.servicesUpdate),
      );
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
