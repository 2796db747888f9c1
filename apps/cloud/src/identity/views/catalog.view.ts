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
  name: string;
}

export interface CatalogEndpoint {
  id: string;
  serviceId: string;
  interface: (typeof INTERFACES)[number];
  region: string;
  /** As registered: Cinder's holds `%(project_id)s`, filled in per token in the catalog. */
  url: string;
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
    service: { id: stableId('service', e.type), type: e.type, name: e.name },
    url: e.url,
  }));
}

/** Keystone's service entities (`/v3/services`). */
export const catalogServices = (base: string): CatalogService[] => registered(base).map((r) => r.service);

/** Keystone's endpoint entities (`/v3/endpoints`): one per service and interface, all in RegionOne. */
export function catalogEndpoints(base: string): CatalogEndpoint[] {
  return registered(base).flatMap((r) =>
    INTERFACES.map((iface) => ({
      id: stableId('endpoint', r.service.type, iface),
      serviceId: r.service.id,
      interface: iface,
      region: REGION,
      url: r.url,
    })),
  );
}

/** The catalog inside a token: the endpoints grouped by service, the project filled into the URLs. */
export function catalogView(base: string, projectId: string) {
  const endpoints = catalogEndpoints(base);
  return catalogServices(base).map((s) => ({
    endpoints: endpoints
      .filter((e) => e.serviceId === s.id)
      .map((e) => ({
        id: e.id,
        interface: e.interface,
        region_id: e.region,
        url: e.url.replace(PROJECT_TEMPLATE, projectId),
        region: e.region,
      })),
    id: s.id,
    type: s.type,
    name: s.name,
  }));
}

export function serviceView(s: CatalogService, base: string) {
  return {
    id: s.id,
    type: s.type,
    name: s.name,
    enabled: true,
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
    enabled: true,
    region: e.region,
    links: { self: v3Url(base, `endpoints/${e.id}`) },
  };
}

export function regionView(id: string, base: string) {
  return { id, description: '', parent_region_id: null, links: { self: v3Url(base, `regions/${id}`) } };
}
