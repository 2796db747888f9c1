import { describe, expect } from 'vitest';
import { http, login, type Session, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';

let tc: TestCloud;
let demo: Session;
let admin: Session;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: d, admin: a }) => {
  tc = cloud;
  demo = d;
  admin = a;
});

const N = '/network/v2.0';
const neutronError = (type: string, message: string) => ({ NeutronError: { type, message, detail: '' } });

describe('discovery and the catalog', () => {
  it('lists v2.0 at /network/ without a token, and the catalog names the network service', async () => {
    const root = await http(tc, 'GET', '/network/');
    expect(root.status).toBe(200);
    expect(root.body.versions).toEqual([
      {
        id: 'v2.0',
        status: 'CURRENT',
        links: [{ href: expect.stringMatching(/\/network\/v2\.0\/$/), rel: 'self' }],
      },
    ]);
    const token = await http(tc, 'GET', '/identity/v3/auth/tokens', {
      token: demo.token,
      headers: { 'X-Subject-Token': demo.token },
    });
    const network = token.body.token.catalog.find((s: { type: string }) => s.type === 'network');
    expect(network).toMatchObject({ name: 'neutron' });
    expect(network.endpoints[0].url).toMatch(/\/network$/);
    const ext = await http(tc, 'GET', `${N}/extensions/security-group`, { token: demo.token });
    expect(ext.body.extension.alias).toBe('security-group');
  });

  it('answers 401 without a token and NeutronError 404 for an unknown path', async () => {
    expect((await http(tc, 'GET', `${N}/networks`)).status).toBe(401);
    const res = await http(tc, 'GET', `${N}/routers`, { token: demo.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(neutronError('HTTPNotFound', 'The resource could not be found.'));
  });
});

describe('networks and subnets', () => {
  it('seeds a private network and subnet for demo, which only demo and the admin see', async () => {
    const nets = await http(tc, 'GET', `${N}/networks`, { token: demo.token });
    expect(nets.status).toBe(200);
    expect(nets.body.networks).toHaveLength(1);
    const net = nets.body.networks[0];
    expect(net).toMatchObject({
      name: 'private',
      project_id: demo.projectId,
      tenant_id: demo.projectId,
      shared: false,
      'router:external': false,
      status: 'ACTIVE',
      admin_state_up: true,
      mtu: 1442,
    });
    expect(net['provider:network_type']).toBeUndefined();
    const subnets = await http(tc, 'GET', `${N}/subnets?network_id=${net.id}`, { token: demo.token });
    expect(subnets.body.subnets).toEqual([
      expect.objectContaining({
        name: 'private-subnet',
        cidr: '10.0.0.0/22',
        gateway_ip: '10.0.0.1',
        allocation_pools: [{ start: '10.0.0.2', end: '10.0.3.254' }],
        ip_version: 4,
      }),
    ]);
    expect(net.subnets).toEqual([subnets.body.subnets[0].id]);
    const all = await http(tc, 'GET', `${N}/networks`, { token: admin.token });
    expect(all.body.networks.length).toBeGreaterThanOrEqual(2);
    expect(all.body.networks[0]['provider:network_type']).toBe('geneve');
    const other = await http(
      tc,
      'GET',
      `${N}/networks/${all.body.networks.find((n: { project_id: string }) => n.project_id === admin.projectId).id}`,
      { token: demo.token },
    );
    expect(other.status).toBe(404);
    expect(other.body.NeutronError.type).toBe('NetworkNotFound');
  });

  it('creates, filters, pages, updates and deletes, with Neutron’s refusals', async () => {
    const created = [];
    for (const name of ['n-a', 'n-b', 'n-c']) {
      const res = await http(tc, 'POST', `${N}/networks`, { token: demo.token, body: { network: { name } } });
      expect(res.status).toBe(201);
      created.push(res.body.network);
    }
    const byName = await http(tc, 'GET', `${N}/networks?name=n-b&fields=id&fields=name`, {
      token: demo.token,
    });
    expect(byName.body.networks).toEqual([{ id: created[1].id, name: 'n-b' }]);
    const page = await http(tc, 'GET', `${N}/networks?sort_key=name&sort_dir=desc&limit=2`, {
      token: demo.token,
    });
    expect(page.body.networks.map((n: { name: string }) => n.name)).toEqual(['private', 'n-c']);
    expect(page.body.networks_links[0].rel).toBe('next');
    const next = await http(tc, 'GET', page.body.networks_links[0].href.replace(/^https?:\/\/[^/]+/, ''), {
      token: demo.token,
    });
    expect(next.body.networks.map((n: { name: string }) => n.name)).toEqual(['n-b', 'n-a']);

    const bad = await http(tc, 'POST', `${N}/networks`, { token: demo.token, body: { network: { foo: 1 } } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(neutronError('HTTPBadRequest', "Unrecognized attribute(s) 'foo'"));
    const shared = await http(tc, 'POST', `${N}/networks`, {
      token: demo.token,
      body: { network: { shared: true } },
    });
    expect(shared.status).toBe(403);
    expect(shared.body).toEqual(
      neutronError(
        'PolicyNotAuthorized',
        '(rule:create_network and rule:create_network:shared) is disallowed by policy',
      ),
    );
    const noBody = await http(tc, 'POST', `${N}/networks`, { token: demo.token, body: { net: {} } });
    expect(noBody.body).toEqual(neutronError('HTTPBadRequest', "Unable to find 'network' in request body"));

    const sub = await http(tc, 'POST', `${N}/subnets`, {
      token: demo.token,
      body: { subnet: { network_id: created[0].id, ip_version: 4, cidr: '192.168.5.0/29' } },
    });
    expect(sub.status).toBe(201);
    expect(sub.body.subnet).toMatchObject({
      gateway_ip: '192.168.5.1',
      allocation_pools: [{ start: '192.168.5.2', end: '192.168.5.6' }],
    });
    const overlap = await http(tc, 'POST', `${N}/subnets`, {
      token: demo.token,
      body: { subnet: { network_id: created[0].id, ip_version: 4, cidr: '192.168.5.0/30' } },
    });
    expect(overlap.status).toBe(400);
    const port = await http(tc, 'POST', `${N}/ports`, {
      token: demo.token,
      body: { port: { network_id: created[0].id } },
    });
    expect(port.status).toBe(201);
    expect(port.body.port.fixed_ips).toEqual([{ subnet_id: sub.body.subnet.id, ip_address: '192.168.5.2' }]);
    expect(port.body.port.mac_address).toMatch(/^fa:16:3e(:[0-9a-f]{2}){3}$/);
    expect(port.body.port.status).toBe('DOWN');
    const taken = await http(tc, 'POST', `${N}/ports`, {
      token: demo.token,
      body: { port: { network_id: created[0].id, fixed_ips: [{ ip_address: '192.168.5.2' }] } },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.NeutronError).toEqual({
      type: 'IpAddressInUse',
      message: `Unable to complete operation for network ${created[0].id}. The IP address 192.168.5.2 is in use.`,
      detail: '',
    });
    const inUse = await http(tc, 'DELETE', `${N}/networks/${created[0].id}`, { token: demo.token });
    expect(inUse.status).toBe(409);
    expect(inUse.body.NeutronError.type).toBe('NetworkInUse');
    const subInUse = await http(tc, 'DELETE', `${N}/subnets/${sub.body.subnet.id}`, { token: demo.token });
    expect(subInUse.body.NeutronError.type).toBe('SubnetInUse');
    const renamed = await http(tc, 'PUT', `${N}/ports/${port.body.port.id}`, {
      token: demo.token,
      body: { port: { name: 'p1' } },
    });
    expect(renamed.body.port).toMatchObject({ name: 'p1', revision_number: 2 });
    const ro = await http(tc, 'PUT', `${N}/ports/${port.body.port.id}`, {
      token: demo.token,
      body: { port: { network_id: created[1].id } },
    });
    expect(ro.body).toEqual(neutronError('HTTPBadRequest', 'Cannot update read-only attribute network_id'));
    expect((await http(tc, 'DELETE', `${N}/ports/${port.body.port.id}`, { token: demo.token })).status).toBe(
      204,
    );
    expect((await http(tc, 'DELETE', `${N}/networks/${created[0].id}`, { token: demo.token })).status).toBe(
      204,
    );
    const gone = await http(tc, 'GET', `${N}/subnets/${sub.body.subnet.id}`, { token: demo.token });
    expect(gone.status).toBe(404);
  });
});

describe('security groups', () => {
  it('makes the project’s default group on first use, with its four rules', async () => {
    const other = await login(tc, 'admin');
    const res = await http(tc, 'GET', `${N}/security-groups`, { token: demo.token });
    expect(res.status).toBe(200);
    const def = res.body.security_groups.find((g: { name: string }) => g.name === 'default');
    expect(def).toMatchObject({
      description: 'Default security group',
      project_id: demo.projectId,
      stateful: true,
    });
    expect(def.security_group_rules).toHaveLength(4);
    expect(
      def.security_group_rules
        .map(
          (r: { direction: string; ethertype: string; remote_group_id: string | null }) =>
            `${r.direction}/${r.ethertype}/${r.remote_group_id === def.id ? 'self' : r.remote_group_id}`,
        )
        .sort(),
    ).toEqual(['egress/IPv4/null', 'egress/IPv6/null', 'ingress/IPv4/self', 'ingress/IPv6/self']);
    const again = await http(tc, 'GET', `${N}/security-groups?name=default`, { token: demo.token });
    expect(again.body.security_groups.map((g: { id: string }) => g.id)).toEqual([def.id]);
    const del = await http(tc, 'DELETE', `${N}/security-groups/${def.id}`, { token: demo.token });
    expect(del.status).toBe(409);
    expect(del.body).toEqual(
      neutronError(
        'SecurityGroupCannotRemoveDefault',
        'Insufficient rights for removing default security group.',
      ),
    );
    const stranger = await http(tc, 'GET', `${N}/security-groups/${def.id}`, { token: other.token });
    expect(stranger.status).toBe(200);
  });

  it('creates groups and rules, and refuses duplicates and bad ranges', async () => {
    const g = await http(tc, 'POST', `${N}/security-groups`, {
      token: demo.token,
      body: { security_group: { name: 'web' } },
    });
    expect(g.status).toBe(201);
    expect(g.body.security_group.security_group_rules).toHaveLength(2);
    const body = {
      security_group_rule: {
        security_group_id: g.body.security_group.id,
        direction: 'ingress',
        protocol: 'tcp',
        port_range_min: 80,
        port_range_max: 80,
      },
    };
    const r = await http(tc, 'POST', `${N}/security-group-rules`, { token: demo.token, body });
    expect(r.status).toBe(201);
    expect(r.body.security_group_rule).toMatchObject({
      protocol: 'tcp',
      port_range_min: 80,
      ethertype: 'IPv4',
    });
    const dup = await http(tc, 'POST', `${N}/security-group-rules`, { token: demo.token, body });
    expect(dup.status).toBe(409);
    expect(dup.body.NeutronError.message).toBe(
      `Security group rule already exists. Rule id is ${r.body.security_group_rule.id}.`,
    );
    const range = await http(tc, 'POST', `${N}/security-group-rules`, {
      token: demo.token,
      body: { security_group_rule: { ...body.security_group_rule, port_range_min: 90, port_range_max: 80 } },
    });
    expect(range.status).toBe(400);
    expect(
      (
        await http(tc, 'DELETE', `${N}/security-group-rules/${r.body.security_group_rule.id}`, {
          token: demo.token,
        })
      ).status,
    ).toBe(204);
    expect(
      (await http(tc, 'DELETE', `${N}/security-groups/${g.body.security_group.id}`, { token: demo.token }))
        .status,
    ).toBe(204);
  });
});
