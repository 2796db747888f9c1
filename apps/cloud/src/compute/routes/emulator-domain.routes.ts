import { Router } from 'express';
import type { ComputeDeps } from '../deps.js';
import { authOf } from '../../platform/http/context.js';
import { assertAdmin } from '../policy.js';
import { serverDomain } from '../service/domain-xml.js';

/** Our extension's policy rule, named like Nova's so the 403 reads the same. */
export const DOMAIN_XML_RULE = 'os_compute_api:os-emulator-domain-xml:show';

/**
 * GET /servers/{id}/os-emulator-domain-xml: the libvirt domain the emulated hypervisor runs.
 * Not part of real Nova (docs/cloud-extensions.md); admin only.
 */
export function emulatorDomainRoutes(deps: ComputeDeps): Router {
  const router = Router();
  router.get('/servers/:serverId/os-emulator-domain-xml', async (req, res) => {
    assertAdmin(req.ctx, DOMAIN_XML_RULE);
    const domain = await serverDomain(deps, authOf(req.ctx), req.params.serverId);
    res.json({ domain: { server_id: domain.serverId, host: domain.host, xml: domain.xml } });
  });
  return router;
}
