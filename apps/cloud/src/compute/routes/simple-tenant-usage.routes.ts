import { type Request, Router } from 'express';
import type { ComputeDeps } from '../deps.js';
import { baseUrl } from '../../platform/http/base-url.js';
import { authOf } from '../../platform/http/context.js';
import { versionOf } from '../../platform/http/microversion.js';
import { parseUsageQuery } from '../schemas/simple-tenant-usage.schemas.js';
import { listTenantUsage, showTenantUsage } from '../service/simple-tenant-usage.service.js';
import { collectionLinks } from '../views/flavor.view.js';
import { tenantUsageView } from '../views/tenant-usage.view.js';

const computeBase = (req: Request) => `${baseUrl(req)}/compute`;
const nowMicros = () => Date.now() * 1000;

/** `os-simple-tenant-usage`: every project's usage (admin) and one project's (2.40: paged). */
export function simpleTenantUsageRoutes(deps: ComputeDeps): Router {
  // Strict: `/os-simple-tenant-usage/` (an empty tenant id) is no route in Nova, so a 404.
  const router = Router({ strict: true });

  router.get('/os-simple-tenant-usage', async (req, res) => {
    const version = versionOf(req.ctx);
    const now = nowMicros();
    const auth = authOf(req.ctx);
    const q = parseUsageQuery(req.query, version, true);
    const r = await listTenantUsage(deps, auth, q, now);
    const links = version.atLeast('2.40')
      ? collectionLinks(
          computeBase(req),
          'os-simple-tenant-usage',
          req.query,
          q.requestedLimit,
          r.servers.length,
          r.servers.at(-1)?.instanceId,
        )
      : [];
    res.status(200).json({
      tenant_usages: r.tenants.map(tenantUsageView),
      ...(links.length ? { tenant_usages_links: links } : {}),
    });
  });

  router.get('/os-simple-tenant-usage/:tenantId', async (req, res) => {
    const version = versionOf(req.ctx);
    const now = nowMicros();
    const tenantId = req.params.tenantId;
    const q = parseUsageQuery(req.query, version, false);
    const r = await showTenantUsage(deps, authOf(req.ctx), tenantId, q, now);
    const links = version.atLeast('2.40')
      ? collectionLinks(
          computeBase(req),
          `os-simple-tenant-usage/${tenantId}`,
          req.query,
          q.requestedLimit,
          r.servers.length,
          r.servers.at(-1)?.instanceId,
        )
      : [];
    res.status(200).json({
      tenant_usage: r.usage ? tenantUsageView(r.usage) : {},
      ...(links.length ? { tenant_usage_links: links } : {}),
    });
  });

  return router;
}
