import type { Store } from '../../platform/db/store.js';
import { badRequest, policyForbidden } from '../../platform/http/errors.js';
import type { Microversion } from '../../platform/http/microversion.js';
import { volumesStore } from '../store/volumes.store.js';
import { BACKEND, poolCapabilities, poolSatisfies } from './backend.js';
import type { Caller } from './caller.js';
import { boolParam, type QueryParams } from './paging.js';
import type { TypesService } from './types.service.js';

export interface Pool {
  name: string;
  capabilities: Record<string, unknown>;
}

/** scheduler_stats get_pools: the emulated backend's one pool, for admins. */
export function createPoolsService(store: Store, types: TypesService) {
  return {
    async list(
      caller: Caller,
      version: Microversion,
      params: QueryParams,
    ): Promise<{ pools: Pool[]; detail: boolean }> {
      if (!caller.isAdmin) throw policyForbidden('scheduler_extension:scheduler_stats:get_pools');
      const detail = boolParam('detail', params.get('detail'));
      let filters = params.without('detail').toRecord();
      if (version.atLeast('3.33')) {
        // Filters are checked for pools even for admins (resource_filters.json `pool`).
        const invalid = Object.keys(filters).filter(
          (k) => !['name', 'volume_type'].includes(k) && k !== 'all_tenants',
        );
        if (invalid.length > 0)
          throw badRequest(`Invalid filters ${invalid.join(',')} are found in query options.`);
      } else if (version.below('3.28')) {
        filters = {};
      }
      if (version.below('3.35')) delete filters['volume_type'];
      const usage = await volumesStore.usageOnHost(store.db, BACKEND.host);
      const pool: Pool = { name: BACKEND.host, capabilities: poolCapabilities(usage) };
      let pools = [pool];
      for (const [key, value] of Object.entries(filters)) {
        if (key === 'volume_type') continue;
        pools = pools.filter((p) => key === 'name' && p.name === value);
      }
      const typeFilter = filters['volume_type'];
      if (typeFilter) {
        const t = await types.byNameOrId(caller, typeFilter);
        pools = pools.filter((p) => poolSatisfies(t.extraSpecs, p.capabilities));
      }
      return { pools, detail };
    },
  };
}

export type PoolsService = ReturnType<typeof createPoolsService>;
