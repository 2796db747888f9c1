import { type RequestHandler, Router } from 'express';
import { authOf } from '../../platform/http/context.js';
import { policyNotAuthorized } from '../errors.js';
import { callerOf } from '../service/caller.js';

/**
 * Neutron's quota defaults (neutron.conf `[quotas]`): every project has them here, as on a
 * Neutron whose admin never set a project's own (this network service keeps no per-project
 * quotas and enforces none; openstackclient's `quota show` asks for them next to Nova's and
 * Cinder's).
 */
export const NEUTRON_QUOTA_DEFAULTS = {
  network: 100,
  subnet: 100,
  port: 500,
  router: 10,
  floatingip: 50,
  security_group: 10,
  security_group_rule: 100,
  rbac_policy: 10,
  subnetpool: -1,
} as const;

/** `GET /v2.0/quotas/{project_id}` and `…/default`: a project's own, or any for an admin. */
export function quotaRoutes(): Router {
  const router = Router();
  const answer =
    (rule: string): RequestHandler =>
    (req, res) => {
      const caller = callerOf(authOf(req.ctx));
      if (!caller.isAdmin && caller.projectId !== req.params.projectId) throw policyNotAuthorized(rule);
      res.json({ quota: { ...NEUTRON_QUOTA_DEFAULTS } });
    };
  router.get('/quotas/:projectId', answer('rule:get_quota'));
  router.get('/quotas/:projectId/default', answer('rule:get_quota'));
  return router;
}
