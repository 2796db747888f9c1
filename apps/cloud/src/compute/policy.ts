import type { RequestContext } from '../platform/http/context.js';
import { authOf } from '../platform/http/context.js';
import { policyForbidden } from '../platform/http/errors.js';

export { assertProjectWriter } from '../platform/http/policy.js';

/**
 * Nova's policy checks as the recorded cloud enforced them (Zed defaults, new defaults off):
 * the admin-API rules need the admin role; everything else any role on the project may do,
 * except that a reader-only token changes nothing (`assertProjectWriter`, platform/http/policy.ts).
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
  // Project-member rules: what a reader-only token is refused (nova/policies/servers.py,
  // shelve.py, volumes_attachments.py).
  serverCreate: 'os_compute_api:servers:create',
  serverDelete: 'os_compute_api:servers:delete',
  attachmentCreate: 'os_compute_api:os-volumes-attachments:create',
  attachmentUpdate: 'os_compute_api:os-volumes-attachments:update',
  attachmentDelete: 'os_compute_api:os-volumes-attachments:delete',
  // --- cloud14v: flavor extra specs ---
  flavorExtraSpecsCreate: 'os_compute_api:os-flavor-extra-specs:create',
  flavorExtraSpecsUpdate: 'os_compute_api:os-flavor-extra-specs:update',
  flavorExtraSpecsDelete: 'os_compute_api:os-flavor-extra-specs:delete',
} as const;

/** The rule `POST /servers/{id}/action` checks for each action this cloud implements. */
export const SERVER_ACTION_RULES = {
  'os-stop': 'os_compute_api:servers:stop',
  'os-start': 'os_compute_api:servers:start',
  reboot: 'os_compute_api:servers:reboot',
  shelve: 'os_compute_api:os-shelve:shelve',
  shelveOffload: 'os_compute_api:os-shelve:shelve_offload',
  unshelve: 'os_compute_api:os-shelve:unshelve',
  resize: 'os_compute_api:servers:resize',
  confirmResize: 'os_compute_api:servers:confirm_resize',
  revertResize: 'os_compute_api:servers:revert_resize',
  // --- C1 ---
  lock: 'os_compute_api:os-lock-server:lock',
  unlock: 'os_compute_api:os-lock-server:unlock',
  pause: 'os_compute_api:os-pause-server:pause',
  unpause: 'os_compute_api:os-pause-server:unpause',
  suspend: 'os_compute_api:os-suspend-server:suspend',
  resume: 'os_compute_api:os-suspend-server:resume',
  // --- end C1 ---
  // --- cloudc2: admin-only actions ---
  'os-resetState': 'os_compute_api:os-admin-actions:reset_state',
  forceDelete: 'os_compute_api:os-deferred-delete:force',
  restore: 'os_compute_api:os-deferred-delete:restore',
  changePassword: 'os_compute_api:os-admin-password',
  // --- end cloudc2 ---
} as const;

export const UNLOCK_OVERRIDE_RULE = 'os_compute_api:os-lock-server:unlock:unlock_override';
