import { describe, expect } from 'vitest';
import { http, type Session, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { expectKeystoneError, forbiddenMessage } from './identity-helpers.js';

let tc: TestCloud;
let admin: Session;
let demo: Session;
const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  admin = adminSession;
  demo = demoSession;
});

interface ServiceEntity {
  id: string;
  type: string;
  name: string;
  enabled: boolean;
  links: { self: string };
}
interface EndpointEntity {
  id: string;
  interface: string;
  region_id: string;
  region: string;
  service_id: string;
  url: string;
  enabled: boolean;
  links: { self: string };
}

describe('services, endpoints and regions (read-only, from the catalog)', () => {
  it('lists the catalog’s services for admins, filtered by type and name, and shows one', async () => {
    const res = await http(tc, 'GET', '/identity/v3/services', { token: admin.token });
    expect(res.status).toBe(200);
    const services = res.body.services as ServiceEntity[];
    expect(services.map((s) => `${s.type}:${s.name}`).sort()).toEqual([
      'block-storage:cinder',
      'compute:nova',
      'identity:keystone',
      'image:glance',
      'network:neutron',
      'volumev3:cinderv3',
    ]);
    expect(res.body.links).toEqual({ next: null, self: `${tc.url}/identity/v3/services`, previous: null });
    const nova = services.find((s) => s.type === 'compute')!;
    expect(nova).toEqual({
      id: nova.id,
      type: 'compute',
      name: 'nova',
      enabled: true,
      links: { self: `${tc.url}/identity/v3/services/${nova.id}` },
    });
    const byType = await http(tc, 'GET', '/identity/v3/services?type=compute', { token: admin.token });
    expect(byType.body.services).toEqual([nova]);
    const byName = await http(tc, 'GET', '/identity/v3/services?name=nosuch', { token: admin.token });
    expect(byName.body.services).toEqual([]);
    const shown = await http(tc, 'GET', `/identity/v3/services/${nova.id}`, { token: admin.token });
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({ service: nova });
    expectKeystoneError(
      await http(tc, 'GET', '/identity/v3/services/nosuch', { token: admin.token }),
      404,
      'Could not find service: nosuch.',
    );
  });

  it('refuses services and endpoints to non-admins, before looking the id up', async () => {
    for (const [path, action] of [
      ['/identity/v3/services', 'list_services'],
      ['/identity/v3/services/nosuch', 'get_service'],
      ['/identity/v3/endpoints', 'list_endpoints'],
      ['/identity/v3/endpoints/nosuch', 'get_endpoint'],
    ] as const) {
      expectKeystoneError(await http(tc, 'GET', path, { token: demo.token }), 403, forbiddenMessage(action));
    }
    const anonymous = await http(tc, 'GET', '/identity/v3/endpoints');
    expect(anonymous.status).toBe(401);
  });

  it('lists three endpoints per service in RegionOne, Cinder’s with the project template', async () => {
    const services = (await http(tc, 'GET', '/identity/v3/services', { token: admin.token })).body
      .services as ServiceEntity[];
    const res = await http(tc, 'GET', '/identity/v3/endpoints', { token: admin.token });
    expect(res.status).toBe(200);
    const endpoints = res.body.endpoints as EndpointEntity[];
    expect(endpoints).toHaveLength(services.length * 3);
    const cinder = services.find((s) => s.type === 'volumev3')!;
    const publicVolume = endpoints.find((e) => e.service_id === cinder.id && e.interface === 'public')!;
    expect(publicVolume).toEqual({
      id: publicVolume.id,
      interface: 'public',
      region_id: 'RegionOne',
      service_id: cinder.id,
      url: `${tc.url}/volume/v3/%(project_id)s`,
      enabled: true,
      region: 'RegionOne',
      links: { self: `${tc.url}/identity/v3/endpoints/${publicVolume.id}` },
    });
    // The token's catalog carries the same endpoint ids, the project filled in.
    const catalog = (await http(tc, 'GET', '/identity/v3/auth/catalog', { token: demo.token })).body
      .catalog as { id: string; endpoints: { id: string; url: string }[] }[];
    const inCatalog = catalog
      .find((s) => s.id === cinder.id)!
      .endpoints.find((e) => e.id === publicVolume.id)!;
    expect(inCatalog.url).toBe(`${tc.url}/volume/v3/${demo.projectId}`);

    const filtered = await http(
      tc,
      'GET',
      `/identity/v3/endpoints?service_id=${cinder.id}&interface=public&region_id=RegionOne`,
      { token: admin.token },
    );
    expect(filtered.body.endpoints).toEqual([publicVolume]);
    const shown = await http(tc, 'GET', `/identity/v3/endpoints/${publicVolume.id}`, { token: admin.token });
    expect(shown.body).toEqual({ endpoint: publicVolume });
    expectKeystoneError(
      await http(tc, 'GET', '/identity/v3/endpoints/nosuch', { token: admin.token }),
      404,
      'Could not find endpoint: nosuch.',
    );
  });

  it('shows RegionOne to any token; 404 for another region', async () => {
    const region = {
      id: 'RegionOne',
      description: '',
      parent_region_id: null,
      links: { self: `${tc.url}/identity/v3/regions/RegionOne` },
    };
    const listed = await http(tc, 'GET', '/identity/v3/regions', { token: demo.token });
    expect(listed.status).toBe(200);
    expect(listed.body.regions).toEqual([region]);
    const shown = await http(tc, 'GET', '/identity/v3/regions/RegionOne', { token: demo.token });
    expect(shown.body).toEqual({ region });
    expectKeystoneError(
      await http(tc, 'GET', '/identity/v3/regions/Nowhere', { token: demo.token }),
      404,
      'Could not find region: Nowhere.',
    );
  });
});
