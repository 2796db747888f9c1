import { createHash } from 'node:crypto';
import { v3Url } from './links.view.js';

export const REGION = 'RegionOne';
const INTERFACES = ['public', 'internal', 'admin'] as const;

/** Keystone's URL template for the token's project, as Cinder's endpoints are registered (capture 751). */
const PROJECT_TEMPLATE = '%(project_id)s';

/** Stable ids, so a catalog looks the same on every call and in every process. */
const stableId = (...parts: string[]) =>
  createHash('sha256').update(parts.join('/')).digest('hex').slice(0, 32);

export interface CatalogService {
  id: string;
  type: string;
  name: string | null;
  description: string | null;
  enabled: boolean;
  /** The cloud's own services are derived from its URL; admins cannot change them. */
  builtIn: boolean;
}

export interface CatalogEndpoint {
  id: string;
  serviceId: string;
  interface: string;
  region: string | null;
  /** As registered: Cinder's holds `%(project_id)s`, filled in per token in the catalog. */
  url: string;
  enabled: boolean;
  builtIn: boolean;
}

export interface CatalogRegion {
  id: string;
  description: string;
  parentRegionId: string | null;
}

/** Every service and endpoint: the cloud's own, then what admins added. */
export interface CatalogEntries {
  services: CatalogService[];
  endpoints: CatalogEndpoint[];
}

/** The services this cloud serves, on its one port with devstack-style prefixes. */
function registered(base: string): { service: CatalogService; url: string }[] {
  const entries = [
    { type: 'identity', name: 'keystone', url: `${base}/identity/v3/` },
    { type: 'compute', name: 'nova', url: `${base}/compute/v2.1` },
    { type: 'block-storage', name: 'cinder', url: `${base}/volume/v3/${PROJECT_TEMPLATE}` },
    { type: 'volumev3', name: 'cinderv3', url: `${base}/volume/v3/${PROJECT_TEMPLATE}` },
    { type: 'image', name: 'glance', url: `${base}/image` },
    { type: 'network', name: 'neutron', url: `${base}/network` },
  ];
  return entries.map((e) => ({
    service: {
      id: stableId('service', e.type),
      type: e.type,
      name: e.name,
      description: null,
      enabled: true,
      builtIn: true,
    },
    url: e.url,
  }));
}

/** The cloud's own service entities (`/v3/services`). */
export const builtInServices = (base: string): CatalogService[] => registered(base).map((r) => r.service);

/** The cloud's own endpoints: one per service and interface, all in RegionOne. */
export function builtInEndpoints(base: string): CatalogEndpoint[] {
  return registered(base).flatMap((r) =>
    INTERFACES.map((iface) => ({
      id: stableId('endpoint', r.service.type, iface),
      serviceId: r.service.id,
      interface: iface,
      region: REGION,
      url: r.url,
      enabled: true,
      builtIn: true,
    })),
  );
}

/**
 * The catalog inside a token: every enabled service with its enabled endpoints, the project filled
 * into the URLs; a service without a name shows `""` (Keystone's sql `get_v3_catalog`).
 */
export function catalogView(entries: CatalogEntries, projectId: string) {
  return entries.services
    .filter((s) => s.enabled)
    .map((s) => ({
      endpoints: entries.endpoints
        .filter((e) => e.serviceId === s.id && e.enabled)
        .map((e) => ({
          id: e.id,
          interface: e.interface,
          region_id: e.region,
          url: e.url.replace(PROJECT_TEMPLATE, projectId),
          region: e.region,
        })),
      id: s.id,
      type: s.type,
      name: s.name ?? '',
    }));
}

export function serviceView(s: CatalogService, base: string) {
  return {
    id: s.id,
    type: s.type,
    ...(s.name !== null ? { name: s.name } : {}),
    ...(s.description !== null ? { description: s.description } : {}),
    enabled: s.enabled,
    links: { self: v3Url(base, `services/${s.id}`) },
  };
}

export function endpointView(e: CatalogEndpoint, base: string) {
  return {
    id: e.id,
    interface: e.interface,
    region_id: e.region,
    service_id: e.serviceId,
    url: e.url,
    enabled: e.enabled,
    region: e.region,
    links: { self: v3Url(base, `endpoints/${e.id}`) },
  };
}

export function regionView(r: CatalogRegion, base: string) {
  return {
    id: r.id,
    description: r.description,
    parent_region_id: r.parentRegionId,
    links: { self: v3Url(base, `regions/${r.id}`) },
  };
}
