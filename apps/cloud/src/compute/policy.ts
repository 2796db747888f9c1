import type { RequestContext } from '../platform/http/context.js';
import { authOf } from '../platform/http/context.js';
import { policyForbidden } from '../platform/http/errors.js';

/**
 * Nova's policy checks as the recorded cloud enforced them (Zed defaults, new defaults off):
 * the admin-API rules need the admin role; everything else any project member may do.
 */
export function isAdmin(ctx: RequestContext): boolean {
  return authOf(ctx).isAdmin;
}

/** Throws Nova's 403 `Policy doesn't allow <rule> to be performed.` for a non-admin caller. */
export function assertAdmin(ctx: RequestContext, rule: string): void {
  if (!isAdmin(ctx)) throw policyForbidden(rule);
}

/**
 * `os_compute_api:os-flavor-extra-specs:index` is PROJECT_READER_OR_ADMIN: any role on the
 * project (demo has reader and member) sees a flavor's extra specs from 2.61.
 */
export function canReadFlavorExtraSpecs(ctx: RequestContext): boolean {
  const auth = authOf(ctx);
  return auth.isAdmin || auth.roles.some((r) => r === 'reader' || r === 'member');
}

export const RULES = {
  flavorCreate: 'os_compute_api:os-flavor-manage:create',
  flavorUpdate: 'os_compute_api:os-flavor-manage:update',
  flavorDelete: 'os_compute_api:os-flavor-manage:delete',
  azDetail: 'os_compute_api:os-availability-zone:detail',
  servicesList: 'os_compute_api:os-services:list',
  servicesUpdate: 'os_compute_api:os-services:update',
  servicesDelete: 'os_compute_api:os-services:delete',
  hypervisorsList: 'os_compute_api:os-hypervisors:list',
  hypervisorsDetail: 'os_compute_api:os-hypervisors:list-detail',
  hypervisorsShow: 'os_compute_api:os-hypervisors:show',
  hypervisorsUptime: 'os_compute_api:os-hypervisors:uptime',
  hypervisorsSearch: 'os_compute_api:os-hypervisors:search',
  hypervisorsServers: 'os_compute_api:os-hypervisors:servers',
  hypervisorsStatistics: 'os_compute_api:os-hypervisors:statistics',
  /** Our own extension; namespaced like Nova's rules so the 403 reads the same. */
  emulatorHosts: 'os_compute_api:os-emulator-hosts:list',
} as const;
