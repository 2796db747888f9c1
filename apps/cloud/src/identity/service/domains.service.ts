import type { Schema } from '../../platform/db/schema.js';
import type { Store } from '../../platform/db/store.js';
import type { AuthContext } from '../../platform/http/context.js';
import { domainNotFound } from '../errors.js';
import { queryBool } from '../store/db.js';
import { domainsStore } from '../store/domains.store.js';
import { projectsStore } from '../store/projects.store.js';
import { enforce, enforceAdmin, isAdmin } from './policy.js';
import type { Query } from './projects.service.js';

export const domainsService = {
  async list(store: Store, caller: AuthContext, q: Query): Promise<Schema['domains'][]> {
    enforceAdmin(caller, 'list_domains');
    return domainsStore.list(store.db, {
      ...(q.name !== undefined ? { name: q.name } : {}),
      ...(q.enabled !== undefined ? { enabled: queryBool(q.enabled) } : {}),
    });
  },

  /** Admins, and tokens scoped to a project of that domain. */
  async get(store: Store, caller: AuthContext, id: string): Promise<Schema['domains']> {
    const domain = await domainsStore.byId(store.db, id);
    const own = caller.projectId ? await projectsStore.byId(store.db, caller.projectId) : undefined;
    enforce('get_domain', isAdmin(caller) || (domain !== undefined && own?.domain_id === domain.id));
    if (!domain) throw domainNotFound(id);
    return domain;
  },
};
