import { describe, expect } from 'vitest';
import { SEED_IMAGE_ID } from '../../../src/image/seed.js';
import { http, login, type Session, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';

let tc: TestCloud;
let demo: Session;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: d }) => {
  tc = cloud;
  demo = d;
});

const N = '/network/v2.0';
const create = async (server: Record<string, unknown>, version = '2.1', session = demo) =>
  http(tc, 'POST', '/compute/v2.1/servers', {
    token: session.token,
    version: `compute ${version}`,
    body: { server: { name: 'net', flavorRef: '1', imageRef: SEED_IMAGE_ID, ...server } },
  });
const show = async (id: string, version = '2.1') =>
  (await http(tc, 'GET', `/compute/v2.1/servers/${id}`, { token: demo.token, version: `compute ${version}` }))
    .body.server;
const portsOf = async (id: string) =>
  (await http(tc, 'GET', `${N}/ports?device_id=${id}`, { token: demo.token })).body.ports;
const privateNetwork = async () =>
  (await http(tc, 'GET', `${N}/networks?name=private`, { token: demo.token })).body.networks[0];

describe('a server on the project network', () => {
  it('gets a port there without `networks` (below 2.37): addresses, /ips, os-interface, security groups', async () => {
    const res = await create({});
    expect(res.status).toBe(202);
    const id = res.body.server.id as string;
    await tc.settle();
    const ports = await portsOf(id);
    expect(ports).toHaveLength(1);
    const port = ports[0];
    const net = await privateNetwork();
    expect(port).toMatchObject({ network_id: net.id, device_owner: 'compute:nova', status: 'ACTIVE' });
    const ip = port.fixed_ips[0].ip_address as string;
    expect(ip).toMatch(/^10\.0\.\d+\.\d+$/);

    const server = await show(id);
    expect(server.addresses).toEqual({
      private: [
        { version: 4, addr: ip, 'OS-EXT-IPS:type': 'fixed', 'OS-EXT-IPS-MAC:mac_addr': port.mac_address },
      ],
    });
    expect(server.security_groups).toEqual([{ name: 'default' }]);

    const ips = await http(tc, 'GET', `/compute/v2.1/servers/${id}/ips`, { token: demo.token });
    expect(ips.status).toBe(200);
    expect(ips.body).toEqual({ addresses: { private: [{ version: 4, addr: ip }] } });
    const one = await http(tc, 'GET', `/compute/v2.1/servers/${id}/ips/private`, { token: demo.token });
    expect(one.body).toEqual({ private: [{ version: 4, addr: ip }] });
    const none = await http(tc, 'GET', `/compute/v2.1/servers/${id}/ips/public`, { token: demo.token });
    expect(none.status).toBe(404);
    expect(none.body).toEqual({
      itemNotFound: { code: 404, message: 'Instance is not a member of specified network' },
    });

    const ifaces = await http(tc, 'GET', `/compute/v2.1/servers/${id}/os-interface`, {
      token: demo.token,
      version: 'compute 2.70',
    });
    expect(ifaces.body.interfaceAttachments).toEqual([
      {
        net_id: net.id,
        port_id: port.id,
        mac_addr: port.mac_address,
        port_state: 'ACTIVE',
        fixed_ips: [{ subnet_id: port.fixed_ips[0].subnet_id, ip_address: ip }],
        tag: null,
      },
    ]);
    const iface = await http(tc, 'GET', `/compute/v2.1/servers/${id}/os-interface/${port.id}`, {
      token: demo.token,
    });
    expect(iface.body.interfaceAttachment.port_id).toBe(port.id);
    expect(iface.body.interfaceAttachment.tag).toBeUndefined();

    // Another project's member finds no server.
    const other = await login(tc, 'admin');
    expect((await http(tc, 'GET', `/compute/v2.1/servers/${id}/ips`, { token: other.token })).status).toBe(
      200,
    );

    expect((await http(tc, 'DELETE', `/compute/v2.1/servers/${id}`, { token: demo.token })).status).toBe(204);
    await tc.settle();
    expect(await portsOf(id)).toEqual([]);
  });

  it('gives every server of a multi-create its own port and address; "none" gives none', async () => {
    const res = await create({ min_count: 3, max_count: 3, networks: 'auto' }, '2.37');
    expect(res.status).toBe(202);
    await tc.settle();
    const list = await http(tc, 'GET', '/compute/v2.1/servers/detail', {
      token: demo.token,
    });
    expect(list.status).toBe(200);
    const created = (
      list.body.servers as { name: string; addresses: Record<string, { addr: string }[]> }[]
    ).filter((s) => /^net-\d$/.test(s.name));
    expect(created).toHaveLength(3);
    const addrs = created.map((s) => s.addresses.private?.[0]?.addr);
    expect(new Set(addrs).size).toBe(3);
    const bare = await create({ networks: 'none' }, '2.37');
    await tc.settle();
    expect((await show(bare.body.server.id, '2.37')).addresses).toEqual({});
    expect(await portsOf(bare.body.server.id)).toEqual([]);
  });

  it('takes a network by uuid at a fixed IP, or a port the user made (kept, unbound, when the server goes)', async () => {
    const net = await privateNetwork();
    const fixed = await create({ networks: [{ uuid: net.id, fixed_ip: '10.0.3.200' }] }, '2.37');
    expect(fixed.status).toBe(202);
    await tc.settle();
    expect((await show(fixed.body.server.id)).addresses.private[0].addr).toBe('10.0.3.200');
    const taken = await create({ networks: [{ uuid: net.id, fixed_ip: '10.0.3.200' }] }, '2.37');
    expect(taken.status).toBe(400);
    expect(taken.body.badRequest.message).toBe('Fixed IP address 10.0.3.200 is already in use.');

    const port = (
      await http(tc, 'POST', `${N}/ports`, { token: demo.token, body: { port: { network_id: net.id } } })
    ).body.port;
    const withPort = await create({ networks: [{ port: port.id }] }, '2.37');
    expect(withPort.status).toBe(202);
    await tc.settle();
    const bound = (await http(tc, 'GET', `${N}/ports/${port.id}`, { token: demo.token })).body.port;
    expect(bound).toMatchObject({ device_id: withPort.body.server.id, device_owner: 'compute:nova' });
    const again = await create({ networks: [{ port: port.id }] }, '2.37');
    expect(again.status).toBe(409);
    expect(again.body.conflictingRequest.message).toBe(`Port ${port.id} is still in use.`);
    await http(tc, 'DELETE', `/compute/v2.1/servers/${withPort.body.server.id}`, { token: demo.token });
    await tc.settle();
    const kept = (await http(tc, 'GET', `${N}/ports/${port.id}`, { token: demo.token })).body.port;
    expect(kept).toMatchObject({ device_id: '', device_owner: '' });
  });
});

describe('refusals at create, in Nova’s words', () => {
  it('an unknown network, port or security group is a 400', async () => {
    const missing = '00000000-0000-4000-8000-00000000abcd';
    const net = await create({ networks: [{ uuid: missing }] }, '2.37');
    expect(net.body).toEqual({
      badRequest: { code: 400, message: `Network ${missing} could not be found.` },
    });
    const port = await create({ networks: [{ port: missing }] }, '2.37');
    expect(port.body).toEqual({ badRequest: { code: 400, message: `Port ${missing} could not be found.` } });
    const sg = await create({ security_groups: [{ name: 'nope' }] });
    expect(sg.body).toEqual({ badRequest: { code: 400, message: 'Security group nope not found.' } });
    const bad = await create({ networks: [{ uuid: 'not-a-uuid' }] }, '2.1');
    expect(bad.body.badRequest.message).toBe(
      'Bad networks format: network uuid is not in proper format (not-a-uuid)',
    );
  });

  it('two networks and none named is ambiguous (409); a group is taken by id too', async () => {
    const other = await http(tc, 'POST', `${N}/networks`, {
      token: demo.token,
      body: { network: { name: 'second' } },
    });
    await http(tc, 'POST', `${N}/subnets`, {
      token: demo.token,
      body: { subnet: { network_id: other.body.network.id, ip_version: 4, cidr: '192.168.77.0/24' } },
    });
    const res = await create({});
    expect(res.status).toBe(409);
    expect(res.body.conflictingRequest.message).toBe(
      'Multiple possible networks found, use a Network ID to be more specific.',
    );
    const group = (
      await http(tc, 'POST', `${N}/security-groups`, {
        token: demo.token,
        body: { security_group: { name: 'db' } },
      })
    ).body.security_group;
    const ok = await create({
      networks: [{ uuid: other.body.network.id }],
      security_groups: [{ name: group.id }],
    });
    expect(ok.status).toBe(202);
    await tc.settle();
    const server = await show(ok.body.server.id);
    expect(server.security_groups).toEqual([{ name: 'db' }]);
    expect(server.addresses.second[0].addr).toBe('192.168.77.2');
    await http(tc, 'DELETE', `/compute/v2.1/servers/${ok.body.server.id}`, { token: demo.token });
    await tc.settle();
    const inUse = await http(tc, 'DELETE', `${N}/networks/${other.body.network.id}`, { token: demo.token });
    expect(inUse.status).toBe(204);
  });
});
