import { Router } from 'express';
import { notFound, WEBOB_NOT_FOUND } from '../../platform/http/errors.js';
import { nowIso } from '../../platform/time.js';
import type { HostsService } from '../service/hosts.service.js';
import { CINDER_EXTENSIONS } from '../views/extensions.view.js';
import { callerFor, param, queryOf } from './route-helpers.js';

const extensionView = (e: (typeof CINDER_EXTENSIONS)[number]) => ({
  name: e.name,
  alias: e.alias,
  description: e.description,
  updated: e.updated,
  links: [],
});

/** /os-hosts and /capabilities (admins) and /extensions (any token): read-only views of the deployment. */
export function hostsRoutes(hosts: HostsService): Router {
  const router = Router({ mergeParams: true, strict: true });

  router.get('/os-hosts', async (req, res) => {
    const rows = await hosts.list(callerFor(req), queryOf(req).get('zone'));
    // Every emulated service reports in continuously: alive, last seen now (os-services says the same).
    const heartbeat = `${nowIso().slice(0, 19)}.000000`;
    res.json({
      hosts: rows.map((h) => ({
        host_name: h.host,
        service: h.topic,
        zone: h.zone,
        'service-status': 'available',
        'service-state': h.disabled ? 'disabled' : 'enabled',
        'last-update': heartbeat,
      })),
    });
  });

  router.get('/os-hosts/:host', async (req, res) => {
    const resources = await hosts.show(callerFor(req), param(req, 'host'));
    res.json({ host: resources.map((resource) => ({ resource })) });
  });

  router.get('/capabilities/:host', async (req, res) => {
    res.json(await hosts.capabilities(callerFor(req), param(req, 'host')));
  });

  router.get('/extensions', (_req, res) => {
    res.json({ extensions: CINDER_EXTENSIONS.map(extensionView) });
  });

  router.get('/extensions/:alias', (req, res) => {
    const found = CINDER_EXTENSIONS.find((e) => e.alias === param(req, 'alias'));
    if (!found) throw notFound(WEBOB_NOT_FOUND);
    res.json({ extension: extensionView(found) });
  });

  return router;
}
