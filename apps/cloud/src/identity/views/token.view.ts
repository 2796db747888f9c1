import type { AuthContext } from '../../platform/http/context.js';
import { keystoneTime } from '../../platform/time.js';
import { type CatalogEntries, catalogView } from './catalog.view.js';

export interface TokenViewInput {
  auth: AuthContext;
  methods: string[];
  auditIds: string[];
  issuedAt: string;
  userDomain: { id: string; name: string };
  project?: { id: string; name: string; domain: { id: string; name: string } };
  roles: { id: string; name: string }[];
  /** The services and endpoints to show, or null for `?nocatalog`. */
  catalog: CatalogEntries | null;
}

/** The token body (captures 67, 73, 75): scoped tokens add project, roles and (unless ?nocatalog) the catalog. */
export function tokenView(t: TokenViewInput) {
  return {
    token: {
      methods: t.methods,
      user: {
        domain: t.userDomain,
        id: t.auth.userId,
        name: t.auth.userName,
        password_expires_at: null,
      },
      audit_ids: t.auditIds,
      expires_at: keystoneTime(t.auth.expiresAt),
      issued_at: keystoneTime(t.issuedAt),
      ...(t.project
        ? {
            project: { domain: t.project.domain, id: t.project.id, name: t.project.name },
            is_domain: false,
            roles: t.roles.map((r) => ({ id: r.id, name: r.name })),
            ...(t.catalog ? { catalog: catalogView(t.catalog, t.project.id) } : {}),
          }
        : {}),
    },
  };
}
