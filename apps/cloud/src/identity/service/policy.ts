import type { AuthContext } from '../../platform/http/context.js';
import { forbiddenAction } from '../errors.js';

/**
 * Keystone's default policy as a project-scoped cloud sees it (Zed, new and deprecated rules OR'ed):
 * `admin_required` is the admin role on the token's project; a few reads also let the subject in.
 */
export function enforce(action: string, allowed: boolean): void {
  if (!allowed) throw forbiddenAction(`identity:${action}`);
}

export const isAdmin = (caller: AuthContext): boolean => caller.isAdmin;

export function enforceAdmin(caller: AuthContext, action: string): void {
  enforce(action, isAdmin(caller));
}
