import { policyForbidden } from './errors.js';

/**
 * The one rule Nova and Cinder share about who may change a project's resources. The recorded
 * cloud runs the legacy defaults (any role on the project passes an owner check), except for a
 * token whose only role is `reader`: it gets the secure-RBAC defaults Nova and Cinder enforce with
 * `enforce_new_defaults`, so it may read what its project may read and change nothing. With
 * Keystone's implied roles a member's token also lists `reader`; that token is a member's.
 */
export function mayWriteToProject(roles: readonly string[]): boolean {
  return !(roles.length > 0 && roles.every((r) => r === 'reader'));
}

/**
 * Throws oslo.policy's 403 `Policy doesn't allow <rule> to be performed.` when the caller may only
 * read its project. Call it where the service checks that rule: after the resource lookup (its
 * 404 comes first), before anything changes. Callers without roles (in-process services) pass.
 */
export function assertProjectWriter(caller: { roles?: readonly string[] }, rule: string): void {
  if (caller.roles && !mayWriteToProject(caller.roles)) throw policyForbidden(rule);
}
