import type { UserRow } from '../store/users.store.js';
import { v3Url } from './links.view.js';

/**
 * A user as Keystone shows it: the optional attributes (`email`, `description`) first and only when
 * set, `default_project_id` only when set, never the password.
 */
export function userView(u: UserRow, base: string) {
  return {
    ...(u.email !== null ? { email: u.email } : {}),
    ...(u.description !== null ? { description: u.description } : {}),
    id: u.id,
    name: u.name,
    domain_id: u.domain_id,
    enabled: u.enabled === 1,
    ...(u.default_project_id !== null ? { default_project_id: u.default_project_id } : {}),
    password_expires_at: null,
    options: {},
    links: { self: v3Url(base, `users/${u.id}`) },
  };
}
