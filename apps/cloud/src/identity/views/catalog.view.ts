import { createHash } from 'node:crypto';

const REGION = 'RegionOne';
const INTERFACES = ['public', 'internal', 'admin'] as const;

/** Stable ids, so a catalog looks the same on every call and in every process. */
const stableId = (...parts: string[]) =>
  createHash('sha256').update(parts.join('/')).digest('hex').slice(0, 32);

interface ServiceEntry {
  type: string;
  name: string;
  url: string;
}

/** The services this cloud serves, on its one port with devstack-style prefixes. */
function services(base: string, projectId: string): ServiceEntry[] {
  return [
    { type: 'identity', name: 'keystone', url: `${base}/identity/v3/` },
    { type: 'compute', name: 'nova', url: `${base}/compute/v2.1` },
    { type: 'block-storage', name: 'cinder', url: `${base}/volume/v3/${projectId}` },
    { type: 'volumev3', name: 'cinderv3', url: `${base}/volume/v3/${projectId}` },
    { type: 'image', name: 'glance', url: `${base}/image` },
    { type: 'network', name: 'neutron', url: `${base}/network` },
  ];
}

export function catalogView(base: string, projectId: string) {
  return services(base, projectId).map((s) => ({
    endpoints: INTERFACES.map((iface) => ({
      id: stableId('endpoint', s.type, iface),
      interface: iface,
      region_id: REGION,
      url: s.url,
      region: REGION,
    })),
    id: stableId('service', s.type),
    type: s.type,
    name: s.name,
  }));
}
