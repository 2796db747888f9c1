import type { RoleRow } from '../store/roles.store.js';
import { v3Url } from './links.view.js';

/** `keystone-manage bootstrap` makes its three roles immutable. */
export const BOOTSTRAP_ROLES = ['admin', 'member', 'reader'];

export const isImmutableRole = (r: RoleRow) => BOOTSTRAP_ROLES.includes(r.name);

export function roleView(r: RoleRow, base: string) {
  return {
    id: r.id,
    name: r.name,
    domain_id: null,
    description: r.description,
    options: isImmutableRole(r) ? { immutable: true } : {},
    links: { self: v3Url(base, `roles/${r.id}`) },
  };
}
