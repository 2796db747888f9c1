import type { AuthContext } from '../../platform/http/context.js';
import { notFound } from '../errors.js';
import {
  type CatalogEndpoint,
  type CatalogService,
  catalogEndpoints,
  catalogServices,
  REGION,
} from '../views/catalog.view.js';
import { enforce, enforceAdmin } from './policy.js';
import type { Query } from './projects.service.js';

/**
 * Services, endpoints and regions, read-only: the catalog this cloud serves is fixed by its code, so
 * they are derived from it rather than stored. Keystone's defaults: services and endpoints are for
 * admins (checked before the lookup, so a reader gets 403 for a missing id too); regions for anyone.
 */
export const catalogService = {
  listServices(caller: AuthContext, base: string, q: Query): CatalogService[] {
    enforceAdmin(caller, 'list_services');
    return catalogServices(base).filter(
      (s) => (q.type === undefined || s.type === q.type) && (q.name === undefined || s.name === q.name),
    );
  },

  getService(caller: AuthContext, base: string, id: string): CatalogService {
    enforceAdmin(caller, 'get_service');
    const found = catalogServices(base).find((s) => s.id === id);
    if (!found) throw notFound(`Could not find service: ${id}.`);
    return found;
  },

  listEndpoints(caller: AuthContext, base: string, q: Query): CatalogEndpoint[] {
    enforceAdmin(caller, 'list_endpoints');
    return catalogEndpoints(base).filter(
      (e) =>
        (q.interface === undefined || e.interface === q.interface) &&
        (q.service_id === undefined || e.serviceId === q.service_id) &&
        (q.region_id === undefined || e.region === q.region_id),
    );
  },

  getEndpoint(caller: AuthContext, base: string, id: string): CatalogEndpoint {
    enforceAdmin(caller, 'get_endpoint');
    const found = catalogEndpoints(base).find((e) => e.id === id);
    if (!found) throw notFound(`Could not find endpoint: ${id}.`);
    return found;
  },

  /** The one region; `parent_region_id` filters to none, as RegionOne has no parent. */
  listRegions(_caller: AuthContext, q: Query): string[] {
    enforce('list_regions', true);
    return q.parent_region_id === undefined ? [REGION] : [];
  },

  getRegion(_caller: AuthContext, id: string): string {
    enforce('get_region', true);
    if (id !== REGION) throw notFound(`Could not find region: ${id}.`);
    return id;
  },
};
