import { type Request, Router } from 'express';
import { notFound, WEBOB_NOT_FOUND } from '../../platform/http/errors.js';
import { versionOf } from '../../platform/http/microversion.js';
import type { ComputeDeps } from '../deps.js';
import { assertAdmin } from '../policy.js';
import { parseHostUpdate } from '../schemas/os-hosts.schemas.js';
import { lastParam } from '../schemas/validation.js';
import {
  hostPowerAction,
  listHosts,
  type PowerAction,
  showHost,
  updateHost,
} from '../service/os-hosts.service.js';
import { auditLog, parseAuditBefore } from '../service/usage-audit-log.service.js';
import { auditLogView, hostListView, hostShowView, hostUpdateView } from '../views/os-host.view.js';

/** os-hosts ends at 2.42 (replaced by os-services and os-hypervisors): webob's 404 from 2.43. */
function assertHostsVersion(req: Request): void {
  if (versionOf(req.ctx).atLeast('2.43')) throw notFound(WEBOB_NOT_FOUND);
}

const HOSTS_RULE = (name: string) => `os_compute_api:os-hosts:${name}`;
const AUDIT_RULE = (name: string) => `os_compute_api:os-instance-usage-audit-log:${name}`;

/** The rule of each power action (`start` names startup's). */
const POWER_RULES: Record<PowerAction, string> = { reboot: 'reboot', shutdown: 'shutdown', startup: 'start' };

/** `os-hosts` (captures 981-986) and `os-instance_usage_audit_log` (997-999): admin only. */
export function osHostsRoutes(deps: ComputeDeps): Router {
  // Strict: `/os-hosts/` is no route in Nova.
  const router = Router({ strict: true });
  const db = deps.store.db;

  router.get('/os-hosts', async (req, res) => {
    assertHostsVersion(req);
    assertAdmin(req.ctx, HOSTS_RULE('list'));
    res.json(hostListView(await listHosts(db, lastParam(req.query, 'zone'))));
  });

  router.get('/os-hosts/:host', async (req, res) => {
    assertHostsVersion(req);
    assertAdmin(req.ctx, HOSTS_RULE('show'));
    res.json(hostShowView(await showHost(db, req.params.host)));
  });

  router.put('/os-hosts/:host', async (req, res) => {
    assertHostsVersion(req);
    const update = parseHostUpdate(req.ctx.body);
    assertAdmin(req.ctx, HOSTS_RULE('update'));
    res.json(hostUpdateView(await updateHost(db, req.params.host, update)));
  });

  for (const action of Object.keys(POWER_RULES) as PowerAction[]) {
    router.get(`/os-hosts/:host/${action}`, async (req, res) => {
      assertHostsVersion(req);
      assertAdmin(req.ctx, HOSTS_RULE(POWER_RULES[action]));
      const r = await hostPowerAction(db, req.params.host, action);
      res.json({ host: r.host, power_action: r.powerAction });
    });
  }

  router.get('/os-instance_usage_audit_log', async (req, res) => {
    assertAdmin(req.ctx, AUDIT_RULE('list'));
    res.json({ instance_usage_audit_logs: auditLogView(await auditLog(db, new Date())) });
  });

  router.get('/os-instance_usage_audit_log/:before', async (req, res) => {
    assertAdmin(req.ctx, AUDIT_RULE('show'));
    const before = parseAuditBefore(req.params.before);
    res.json({ instance_usage_audit_log: auditLogView(await auditLog(db, before)) });
  });

  return router;
}
