import type { Schema } from '../../platform/db/schema.js';
import type { AuthContext } from '../../platform/http/context.js';
import { keystoneTime } from '../../platform/time.js';
import { catalogView } from './catalog.view.js';

const DEFAULT_DOMAIN_NAMES: Record<string, string> = { default: 'Default' };

export interface TokenViewInput {
  auth: AuthContext;
  methods: string[];
  auditId: string;
  issuedAt: string;
  domainName: string;
  projectDomain?: { id: string; name: string };
  roles: { id: string; name: string }[];
  catalog: boolean;
  base: string;
}

export function tokenView(t: TokenViewInput) {
  const token: Record<string, unknown> = {
    methods: t.methods,
    user: {
      domain: { id: t.auth.domainId, name: t.domainName },
      id: t.auth.userId,
      name: t.auth.userName,
      password_expires_at: null,
    },
    audit_ids: [t.auditId],
    expires_at: keystoneTime(t.auth.expiresAt),
    issued_at: keystoneTime(t.issuedAt),
  };
  if (t.auth.projectId) {
    token.project = {
      domain: t.projectDomain ?? { id: 'default', name: DEFAULT_DOMAIN_NAMES.default },
      id: t.auth.projectId,
      name: t.auth.projectName,
    };
    token.is_domain = false;
    token.roles = t.roles.map((r) => ({ id: r.id, name: r.name }));
    if (t.catalog) token.catalog = catalogView(t.base, t.auth.projectId);
  }
  return { token };
}

export function projectView(p: Schema['projects'], base: string) {
  return {
    id: p.id,
    name: p.name,
    domain_id: p.domain_id,
    description: p.description,
    enabled: p.enabled === 1,
    parent_id: p.parent_id ?? p.domain_id,
    is_domain: false,
    tags: [] as string[],
    options: {},
    links: { self: `${base}/identity/v3/projects/${p.id}` },
  };
}

export function collectionLinks(base: string, path: string) {
  return { next: null, self: `${base}/identity/v3/${path}`, previous: null };
}

const VERSION_UPDATED = '2020-04-07T00:00:00Z';

export function v3VersionView(base: string) {
  return {
    id: 'v3.14',
    status: 'stable',
    updated: VERSION_UPDATED,
    links: [{ rel: 'self', href: `${base}/identity/v3/` }],
    'media-types': [{ base: 'application/json', type: 'application/vnd.openstack.identity-v3+json' }],
  };
}
