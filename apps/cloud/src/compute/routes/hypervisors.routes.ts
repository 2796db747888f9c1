import { type Request, Router } from 'express';
import type { ComputeDeps } from '../deps.js';
import { baseUrl } from '../../platform/http/base-url.js';
import { notFound, WEBOB_NOT_FOUND } from '../../platform/http/errors.js';
import { versionOf } from '../../platform/http/microversion.js';
import { assertAdmin, RULES } from '../policy.js';
import { parseHypervisorListQuery, parseHypervisorShowQuery } from '../schemas/hypervisors.schemas.js';
import { listComputeHosts } from '../host/compute-hosts.js';
import {
  hypervisorStatistics,
  hypervisorUptime,
  listHypervisors,
  searchHypervisors,
  showHypervisor,
} from '../service/hypervisors.service.js';
import { collectionLinks } from '../views/flavor.view.js';
import { emulatorHostsView, hypervisorUptimeView, hypervisorView } from '../views/hypervisor.view.js';

const computeBase = (req: Request) => `${baseUrl(req)}/compute`;
const versionGone = () => notFound(WEBOB_NOT_FOUND);

/**
 * `os-hypervisors` (captures 109-115), admin-only: list, detail, show, and below 2.88 uptime and
 * statistics; below 2.53 the search and servers routes. Plus our `os-emulator-hosts` extension.
 */
export function hypervisorRoutes(deps: ComputeDeps): Router {
  const router = Router();
  const db = () => deps.store.db;

  const list = (detail: boolean) => async (req: Request, res: import('express').Response) => {
    const version = versionOf(req.ctx);
    const rule = detail ? RULES.hypervisorsDetail : RULES.hypervisorsList;
    const query = parseHypervisorListQuery(req.query, version);
    assertAdmin(req.ctx, rule);
    const page = await listHypervisors(db(), query, version);
    const items = page.hypervisors.map((h) => hypervisorView(h, version, detail, page.withServers));
    const last = items.at(-1)?.['id'] as string | number | undefined;
    const links = page.links
      ? collectionLinks(
          computeBase(req),
          detail ? 'os-hypervisors/detail' : 'os-hypervisors',
          req.query,
          page.requestedLimit,
          items.length,
          last,
        )
      : [];
    res.json({ hypervisors: items, ...(links.length ? { hypervisors_links: links } : {}) });
  };
  router.get('/os-hypervisors', list(false));
  router.get('/os-hypervisors/detail', list(true));

  router.get('/os-hypervisors/statistics', async (req, res) => {
    if (versionOf(req.ctx).atLeast('2.88')) throw versionGone();
    assertAdmin(req.ctx, RULES.hypervisorsStatistics);
    res.json({ hypervisor_statistics: await hypervisorStatistics(db()) });
  });

  router.get('/os-hypervisors/:id', async (req, res) => {
    const version = versionOf(req.ctx);
    const query = parseHypervisorShowQuery(req.query, version);
    assertAdmin(req.ctx, RULES.hypervisorsShow);
    const { hypervisor, withServers } = await showHypervisor(db(), req.params.id, query.withServers, version);
    res.json({ hypervisor: hypervisorView(hypervisor, version, true, withServers) });
  });

  router.get('/os-hypervisors/:id/uptime', async (req, res) => {
    const version = versionOf(req.ctx);
    if (version.atLeast('2.88')) throw versionGone();
    assertAdmin(req.ctx, RULES.hypervisorsUptime);
    const { hypervisor, uptime } = await hypervisorUptime(db(), req.params.id, version);
    res.json(hypervisorUptimeView(hypervisor, version, uptime));
  });

  // Replaced at 2.53 by the hypervisor_hostname_pattern and with_servers query parameters.
  router.get('/os-hypervisors/:pattern/search', async (req, res) => {
    const version = versionOf(req.ctx);
    if (version.atLeast('2.53')) throw versionGone();
    assertAdmin(req.ctx, RULES.hypervisorsSearch);
    const found = await searchHypervisors(db(), req.params.pattern, false);
    res.json({ hypervisors: found.map((h) => hypervisorView(h, version, false, false)) });
  });
  router.get('/os-hypervisors/:pattern/servers', async (req, res) => {
    const version = versionOf(req.ctx);
    if (version.atLeast('2.53')) throw versionGone();
    assertAdmin(req.ctx, RULES.hypervisorsServers);
    const found = await searchHypervisors(db(), req.params.pattern, true);
    res.json({ hypervisors: found.map((h) => hypervisorView(h, version, false, false)) });
  });

  /**
   * Extension, not real Nova (documented in docs/cloud-extensions.md): every emulated compute
   * host with its zone, state, service version, multiattach and attach-mode support, traits,
   * capacity and usage. Admin only; namespaced under `os-emulator-*` so it cannot collide.
   */
  router.get('/os-emulator-hosts', async (req, res) => {
    assertAdmin(req.ctx, RULES.emulatorHosts);
    res.json(emulatorHostsView(await listComputeHosts(db())));
  });

  return router;
}
