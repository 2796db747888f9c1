import type { Store } from '../../platform/db/store.js';
import type { AuthContext } from '../../platform/http/context.js';
import { newHexId } from '../../platform/ids.js';
import {
  conflict,
  expectingToFind,
  forbiddenNotSecurity,
  immutable,
  notFound,
  validationMessage,
} from '../errors.js';
import {
  endpointCreateSchema,
  endpointUpdateSchema,
  regionCreateSchema,
  regionUpdateSchema,
  serviceCreateSchema,
  serviceUpdateSchema,
} from '../schemas/catalog.schemas.js';
import { validated } from '../schemas/validation.js';
import { catalogStore, type EndpointRow, type RegionRow, type ServiceRow } from '../store/catalog.store.js';
import { type Db, isUniqueViolation } from '../store/db.js';
import {
  builtInEndpoints,
  builtInServices,
  type CatalogEndpoint,
  type CatalogEntries,
  type CatalogRegion,
  type CatalogService,
  REGION,
} from '../views/catalog.view.js';
import { enforce, enforceAdmin } from './policy.js';
import { type Query, requireMatchingId } from './projects.service.js';

const serviceNotFound = (id: string) => notFound(`Could not find service: ${id}.`);
const endpointNotFound = (id: string) => notFound(`Could not find endpoint: ${id}.`);
const regionNotFound = (id: string) => notFound(`Could not find region: ${id}.`);

const storedService = (r: ServiceRow): CatalogService => ({
  id: r.id,
  type: r.type,
  name: r.name,
  description: r.description,
  enabled: r.enabled === 1,
  builtIn: false,
});
const storedEndpoint = (r: EndpointRow): CatalogEndpoint => ({
  id: r.id,
  serviceId: r.service_id,
  interface: r.interface,
  region: r.region_id,
  url: r.url,
  enabled: r.enabled === 1,
  builtIn: false,
});
const regionOf = (r: RegionRow): CatalogRegion => ({
  id: r.id,
  description: r.description,
  parentRegionId: r.parent_region_id,
});

/** Keystone reads `enabled: null` as enabled. */
const enabledFlag = (v: boolean | null | undefined): 0 | 1 => (v === false ? 0 : 1);

/** Every service and endpoint: the cloud's own (derived from `base`), then the stored ones. */
export async function catalogEntries(db: Db, base: string): Promise<CatalogEntries> {
  const [services, endpoints] = await Promise.all([catalogStore.services(db), catalogStore.endpoints(db)]);
  return {
    services: [...builtInServices(base), ...services.map(storedService)],
    endpoints: [...builtInEndpoints(base), ...endpoints.map(storedEndpoint)],
  };
}

/**
 * Services, endpoints and regions (Keystone's catalog API). The cloud's own services and endpoints
 * are derived from its URL and cannot be changed (refused as immutable); what admins add is stored
 * and shows in tokens' catalogs. Keystone's defaults: services and endpoints are for admins (checked
 * before the lookup, so a reader gets 403 for a missing id too); regions are read by anyone.
 */
export const catalogService = {
  async listServices(store: Store, caller: AuthContext, base: string, q: Query): Promise<CatalogService[]> {
    enforceAdmin(caller, 'list_services');
    const { services } = await catalogEntries(store.db, base);
    return services.filter(
      (s) => (q.type === undefined || s.type === q.type) && (q.name === undefined || s.name === q.name),
    );
  },

  async getService(store: Store, caller: AuthContext, base: string, id: string): Promise<CatalogService> {
    enforceAdmin(caller, 'get_service');
    const found = (await catalogEntries(store.db, base)).services.find((s) => s.id === id);
    if (!found) throw serviceNotFound(id);
    return found;
  },

  async createService(store: Store, caller: AuthContext, input: unknown): Promise<CatalogService> {
    enforceAdmin(caller, 'create_service');
    const body = validated(serviceCreateSchema, input);
    const row: ServiceRow = {
      id: newHexId(),
      type: body.type ?? '',
      name: body.name ?? null,
      description: typeof body.description === 'string' ? body.description : null,
      enabled: enabledFlag(body.enabled),
    };
    await catalogStore.insertService(store.db, row);
    return storedService(row);
  },

  async updateService(
    store: Store,
    caller: AuthContext,
    base: string,
    id: string,
    input: unknown,
  ): Promise<CatalogService> {
    enforceAdmin(caller, 'update_service');
    const body = validated(serviceUpdateSchema, input);
    requireMatchingId(body, id);
    return store.transaction(async (tx) => {
      const row = await catalogStore.serviceById(tx, id);
      if (!row) {
        if (builtInServices(base).some((s) => s.id === id)) throw immutable('update', 'service', id);
        throw serviceNotFound(id);
      }
      const patch: Partial<ServiceRow> = {
        ...(body.type !== undefined ? { type: body.type } : {}),
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(typeof body.description === 'string' ? { description: body.description } : {}),
        ...(body.enabled !== undefined ? { enabled: enabledFlag(body.enabled) } : {}),
      };
      if (Object.keys(patch).length > 0) await catalogStore.updateService(tx, id, patch);
      return storedService({ ...row, ...patch });
    });
  },

  /** Deleting a service deletes its endpoints. */
  async deleteService(store: Store, caller: AuthContext, base: string, id: string): Promise<void> {
    enforceAdmin(caller, 'delete_service');
    await store.transaction(async (tx) => {
      if (!(await catalogStore.serviceById(tx, id))) {
        if (builtInServices(base).some((s) => s.id === id)) throw immutable('delete', 'service', id);
        throw serviceNotFound(id);
      }
      await catalogStore.deleteService(tx, id);
    });
  },

  async listEndpoints(store: Store, caller: AuthContext, base: string, q: Query): Promise<CatalogEndpoint[]> {
    enforceAdmin(caller, 'list_endpoints');
    return (await catalogEntries(store.db, base)).endpoints.filter(
      (e) =>
        (q.interface === undefined || e.interface === q.interface) &&
        (q.service_id === undefined || e.serviceId === q.service_id) &&
        (q.region_id === undefined || e.region === q.region_id),
    );
  },

  async getEndpoint(store: Store, caller: AuthContext, base: string, id: string): Promise<CatalogEndpoint> {
    enforceAdmin(caller, 'get_endpoint');
    const found = (await catalogEntries(store.db, base)).endpoints.find((e) => e.id === id);
    if (!found) throw endpointNotFound(id);
    return found;
  },

  /** The service and the region must exist; `region` is the older name of `region_id`. */
  async createEndpoint(
    store: Store,
    caller: AuthContext,
    base: string,
    input: unknown,
  ): Promise<CatalogEndpoint> {
    enforceAdmin(caller, 'create_endpoint');
    const body = validated(endpointCreateSchema, input);
    return store.transaction(async (tx) => {
      const row: EndpointRow = {
        id: newHexId(),
        service_id: body.service_id ?? '',
        interface: body.interface ?? 'public',
        region_id: body.region_id ?? body.region ?? null,
        url: body.url ?? '',
        enabled: enabledFlag(body.enabled),
      };
      await assertEndpointRefs(tx, base, row);
      await catalogStore.insertEndpoint(tx, row);
      return storedEndpoint(row);
    });
  },

  async updateEndpoint(
    store: Store,
    caller: AuthContext,
    base: string,
    id: string,
    input: unknown,
  ): Promise<CatalogEndpoint> {
    enforceAdmin(caller, 'update_endpoint');
    const body = validated(endpointUpdateSchema, input);
    requireMatchingId(body, id);
    return store.transaction(async (tx) => {
      const row = await catalogStore.endpointById(tx, id);
      if (!row) {
        if (builtInEndpoints(base).some((e) => e.id === id)) throw immutable('update', 'endpoint', id);
        throw endpointNotFound(id);
      }
      const regionId = body.region_id ?? body.region;
      const patch: Partial<EndpointRow> = {
        ...(body.service_id !== undefined ? { service_id: body.service_id } : {}),
        ...(body.interface !== undefined ? { interface: body.interface } : {}),
        ...(regionId !== undefined ? { region_id: regionId } : {}),
        ...(body.url !== undefined ? { url: body.url } : {}),
        ...(body.enabled !== undefined ? { enabled: enabledFlag(body.enabled) } : {}),
      };
      const updated = { ...row, ...patch };
      await assertEndpointRefs(tx, base, updated);
      if (Object.keys(patch).length > 0) await catalogStore.updateEndpoint(tx, id, patch);
      return storedEndpoint(updated);
    });
  },

  async deleteEndpoint(store: Store, caller: AuthContext, base: string, id: string): Promise<void> {
    enforceAdmin(caller, 'delete_endpoint');
    await store.transaction(async (tx) => {
      if (!(await catalogStore.endpointById(tx, id))) {
        if (builtInEndpoints(base).some((e) => e.id === id)) throw immutable('delete', 'endpoint', id);
        throw endpointNotFound(id);
      }
      await catalogStore.deleteEndpoint(tx, id);
    });
  },

  async listRegions(store: Store, _caller: AuthContext, q: Query): Promise<CatalogRegion[]> {
    enforce('list_regions', true);
    return (await catalogStore.regions(store.db))
      .map(regionOf)
      .filter((r) => q.parent_region_id === undefined || r.parentRegionId === q.parent_region_id);
  },

  async getRegion(store: Store, _caller: AuthContext, id: string): Promise<CatalogRegion> {
    enforce('get_region', true);
    const row = await catalogStore.regionById(store.db, id);
    if (!row) throw regionNotFound(id);
    return regionOf(row);
  },

  /** POST (id optional, a new hex id otherwise) and PUT /v3/regions/{id}: the parent must exist. */
  async createRegion(
    store: Store,
    caller: AuthContext,
    input: unknown,
    urlId?: string,
  ): Promise<CatalogRegion> {
    enforceAdmin(caller, 'create_region');
    const body = validated(regionCreateSchema, input);
    if (urlId !== undefined) requireMatchingId(body, urlId);
    const row: RegionRow = {
      id: urlId ?? body.id ?? newHexId(),
      description: body.description ?? '',
      parent_region_id: body.parent_region_id ?? null,
    };
    const duplicate = () => conflict('region', `Duplicate ID, ${row.id}.`);
    try {
      await store.transaction(async (tx) => {
        if (row.parent_region_id !== null && !(await catalogStore.regionById(tx, row.parent_region_id))) {
          throw regionNotFound(row.parent_region_id);
        }
        if (await catalogStore.regionById(tx, row.id)) throw duplicate();
        await catalogStore.insertRegion(tx, row);
      });
    } catch (err) {
      // A simultaneous create of the same id got there first.
      if (isUniqueViolation(err)) throw duplicate();
      throw err;
    }
    return regionOf(row);
  },

  async updateRegion(store: Store, caller: AuthContext, id: string, input: unknown): Promise<CatalogRegion> {
    enforceAdmin(caller, 'update_region');
    const body = validated(regionUpdateSchema, input);
    requireMatchingId(body, id);
    return store.transaction(async (tx) => {
      const row = await catalogStore.regionById(tx, id);
      if (!row) throw regionNotFound(id);
      const parent = body.parent_region_id;
      if (parent !== undefined && parent !== null) {
        if (!(await catalogStore.regionById(tx, parent))) throw regionNotFound(parent);
        if (await descendsFrom(tx, parent, id)) {
          throw validationMessage(`Circular reference or a repeated entry found in region tree - ${id}.`);
        }
      }
      const patch: Partial<RegionRow> = {
        ...(body.description !== undefined ? { description: body.description ?? '' } : {}),
        ...(parent !== undefined ? { parent_region_id: parent } : {}),
      };
      if (Object.keys(patch).length > 0) await catalogStore.updateRegion(tx, id, patch);
      return regionOf({ ...row, ...patch });
    });
  },

  /**
   * Deleting a region deletes the regions under it, as Keystone does, and is refused while any of
   * them holds an endpoint (asked of the reference cloud); RegionOne holds the cloud's own.
   */
  async deleteRegion(store: Store, caller: AuthContext, id: string): Promise<void> {
    enforceAdmin(caller, 'delete_region');
    await store.transaction(async (tx) => {
      if (!(await catalogStore.regionById(tx, id))) throw regionNotFound(id);
      const all = await catalogStore.regions(tx);
      const doomed = [id];
      for (let i = 0; i < doomed.length; i++) {
        for (const r of all)
          if (r.parent_region_id === doomed[i] && !doomed.includes(r.id)) doomed.push(r.id);
      }
      // The cloud's own endpoints are all in RegionOne.
      const inUse =
        doomed.includes(REGION) ||
        (await catalogStore.endpoints(tx)).some((e) => e.region_id !== null && doomed.includes(e.region_id));
      if (inUse) {
        throw forbiddenNotSecurity(
          `Unable to delete region ${id} because it or its child regions have associated endpoints.`,
        );
      }
      await catalogStore.deleteRegions(tx, doomed);
    });
  },
};

/** Whether `regionId` is `ancestorId` or sits somewhere under it. */
async function descendsFrom(db: Db, regionId: string, ancestorId: string): Promise<boolean> {
  const seen = new Set<string>();
  let at: string | null = regionId;
  while (at !== null && !seen.has(at)) {
    if (at === ancestorId) return true;
    seen.add(at);
    at = (await catalogStore.regionById(db, at))?.parent_region_id ?? null;
  }
  return false;
}

/** Keystone's referential checks, worded as its ValidationError (asked of the reference cloud). */
async function assertEndpointRefs(db: Db, base: string, row: EndpointRow): Promise<void> {
  const serviceKnown =
    builtInServices(base).some((s) => s.id === row.service_id) ||
    (await catalogStore.serviceById(db, row.service_id)) !== undefined;
  if (!serviceKnown) throw expectingToFind('endpoint service_id', 'service table');
  if (row.region_id !== null && !(await catalogStore.regionById(db, row.region_id))) {
    throw expectingToFind('endpoint region_id', 'region table');
  }
}
