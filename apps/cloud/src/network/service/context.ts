import type { Store } from '../../platform/db/store.js';
import { policyNotAuthorized } from '../errors.js';
import type { Caller } from './caller.js';
import { ruleFor } from './caller.js';

export type { Caller } from './caller.js';

/** What the network service's rules are built from. */
export interface NetworkCtx {
  store: Store;
}

/** Whose resources a caller's lists show: everyone's for an admin (null), else its project's. */
export const scopeOf = (c: Caller): string | null => (c.isAdmin ? null : c.projectId);

/**
 * A change to a resource the caller can see: owners and admins pass; anyone else gets the
 * policy's 403 (a resource they cannot see was already a 404).
 */
export function assertOwner(c: Caller, ownerProject: string, action: string, resource: string): void {
  if (!c.isAdmin && ownerProject !== c.projectId) throw policyNotAuthorized(ruleFor(action, resource));
}

export const bool = (v: unknown, fallback: boolean): 0 | 1 =>
  (
    v === undefined
      ? fallback
      : v === true || v === 1 || (typeof v === 'string' && ['true', '1'].includes(v.toLowerCase()))
  )
    ? 1
    : 0;
