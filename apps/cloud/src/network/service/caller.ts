import type { AuthContext } from '../../platform/http/context.js';
import { mayWriteToProject } from '../../platform/http/policy.js';
import { policyNotAuthorized } from '../errors.js';

/** Who asks the network service: a user's token, or Nova acting for one. */
export interface Caller {
  projectId: string;
  isAdmin: boolean;
  /** Empty for in-process callers (Nova), which pass every role check. */
  roles: readonly string[];
}

export const callerOf = (auth: AuthContext): Caller => ({
  projectId: auth.projectId ?? '',
  isAdmin: auth.isAdmin,
  roles: auth.roles,
});

/**
 * Neutron's secure-RBAC defaults for a project's resources: a reader-only token reads and
 * changes nothing; the rule in the message is the one oslo.policy evaluated.
 */
export function assertWriter(caller: Caller, rule: string): void {
  if (caller.roles.length > 0 && !mayWriteToProject(caller.roles)) throw policyNotAuthorized(rule);
}

/** `rule:<action>_<resource>` and, when the body sets attributes with rules of their own, those too. */
export function ruleFor(action: string, resource: string, attrs: readonly string[] = []): string {
  const base = `rule:${action}_${resource}`;
  if (attrs.length === 0) return base;
  return `(${[base, ...attrs.map((a) => `${base}:${a}`)].join(' and ')})`;
}
