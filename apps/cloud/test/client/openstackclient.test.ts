import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCloud, type TestCloud } from '../helpers/cloud.js';

/**
 * A real client against the bundled cloud: Debian's python3-openstackclient (installed by
 * .ci/run). It stops at compute 2.93, so 2.105 is covered by the HTTP tests; this proves
 * the standard calls are indistinguishable from a real cloud for the client that people use.
 */
const run = promisify(execFile);
let tc: TestCloud;
let dir: string;

async function osc(...args: string[]): Promise<string> {
  const { stdout } = await run('openstack', ['--os-cloud', 'demo', ...args], {
    env: { ...process.env, OS_CLIENT_CONFIG_FILE: join(dir, 'clouds.yaml') },
    timeout: 60_000,
  });
  return stdout;
}
const oscJson = async <T>(...args: string[]): Promise<T> => JSON.parse(await osc(...args, '-f', 'json')) as T;

beforeAll(async () => {
  tc = await startCloud();
  dir = mkdtempSync(join(tmpdir(), 'osc-'));
  writeFileSync(
    join(dir, 'clouds.yaml'),
    [
      'clouds:',
      '  demo:',
      '    auth:',
      `      auth_url: ${tc.url}/identity/v3`,
      '      username: demo',
      '      password: demo',
      '      project_name: demo',
      '      user_domain_name: Default',
      '      project_domain_name: Default',
      '    region_name: RegionOne',
      '    identity_api_version: 3',
      '    interface: public',
      // --- C2: tenancy --- the admin, for quota set.
      '  admin:',
      '    auth:',
      `      auth_url: ${tc.url}/identity/v3`,
      '      username: admin',
      '      password: admin',
      '      project_name: admin',
      '      user_domain_name: Default',
      '      project_domain_name: Default',
      '    region_name: RegionOne',
      '    identity_api_version: 3',
      '    interface: public',
      '',
    ].join('\n'),
  );
});
afterAll(async () => {
  await tc?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface VolumeAttachmentRow {
  Device: string;
  'Server ID': string;
  'Volume ID': string;
  'Attachment ID'?: string;
}

describe('python-openstackclient against the bundled cloud', () => {
  it('boots two servers from one multiattach volume, shares a second volume between them, and cleans up', async () => {
    const root = await oscJson<{ id: string; multiattach: boolean }>(
      'volume',
      'create',
      '--size',
      '1',
      '--type',
      'multiattach',
      'osc-root',
    );
    expect(root.multiattach).toBe(true);
    await tc.settle();
    await osc('volume', 'set', '--bootable', 'osc-root');
    const shown = await oscJson<{ bootable: string; status: string }>('volume', 'show', 'osc-root');
    expect(shown).toMatchObject({ bootable: 'true', status: 'available' });

    const servers: { id: string; status: string }[] = [];
    for (const name of ['osc-a', 'osc-b']) {
      const created = await oscJson<{ id: string }>(
        '--os-compute-api-version',
        '2.60',
        'server',
        'create',
        '--flavor',
        'm1.tiny',
        '--volume',
        'osc-root',
        '--network',
        'none',
        name,
      );
      await tc.settle();
      servers.push(await oscJson<{ id: string; status: string }>('server', 'show', created.id));
    }
    expect(servers.map((s) => s.status)).toEqual(['ACTIVE', 'ACTIVE']);

    for (const s of servers) {
      const rows = await oscJson<VolumeAttachmentRow[]>(
        '--os-compute-api-version',
        '2.89',
        'server',
        'volume',
        'list',
        s.id,
      );
      expect(rows).toEqual([
        expect.objectContaining({ 'Server ID': s.id, 'Volume ID': root.id, Device: '/dev/vda' }),
      ]);
      expect(rows[0]?.['Attachment ID']).toMatch(/^[0-9a-f-]{36}$/);
      const attachment = await oscJson<Record<string, unknown>>(
        '--os-volume-api-version',
        '3.54',
        'volume',
        'attachment',
        'show',
        String(rows[0]?.['Attachment ID']),
      );
      expect(attachment).toMatchObject({
        'Volume ID': root.id,
        'Instance ID': s.id,
        Status: 'attached',
        'Attach Mode': 'rw',
      });
    }
    const rootAfter = await oscJson<{ status: string; attachments: unknown[] }>('volume', 'show', 'osc-root');
    expect(rootAfter.status).toBe('in-use');
    expect(rootAfter.attachments).toHaveLength(2);

    const data = await oscJson<{ id: string }>(
      'volume',
      'create',
      '--size',
      '1',
      '--type',
      'multiattach',
      'osc-data',
    );
    await tc.settle();
    for (const s of servers) {
      const added = await oscJson<VolumeAttachmentRow>(
        '--os-compute-api-version',
        '2.60',
        'server',
        'add',
        'volume',
        s.id,
        data.id,
      );
      expect(added).toMatchObject({ 'Server ID': s.id, 'Volume ID': data.id, Device: '/dev/vdb' });
    }
    await tc.settle();
    const shared = await oscJson<{ status: string; attachments: { server_id: string }[] }>(
      'volume',
      'show',
      data.id,
    );
    expect(shared.status).toBe('in-use');
    expect(shared.attachments.map((a) => a.server_id).sort()).toEqual(servers.map((s) => s.id).sort());

    for (const s of servers)
      await osc('--os-compute-api-version', '2.60', 'server', 'remove', 'volume', s.id, data.id);
    await tc.settle();
    expect((await oscJson<{ status: string }>('volume', 'show', data.id)).status).toBe('available');

    await osc('server', 'delete', ...servers.map((s) => s.id));
    await tc.settle();
    expect(await oscJson<unknown[]>('server', 'list')).toEqual([]);
    expect((await oscJson<{ status: string }>('volume', 'show', 'osc-root')).status).toBe('available');
  }, 180_000);

  // --- C1: the server's own API ---
  it('renames a server and sets a property, locks, pauses, suspends it, and lists its events', async () => {
    await oscJson('volume', 'create', '--size', '1', 'osc-own-root');
    await tc.settle();
    await osc('volume', 'set', '--bootable', 'osc-own-root');
    const created = await oscJson<{ id: string }>(
      '--os-compute-api-version',
      '2.60',
      'server',
      'create',
      '--flavor',
      'm1.tiny',
      '--volume',
      'osc-own-root',
      '--network',
      'none',
      'osc-own',
    );
    await tc.settle();
    await osc('server', 'set', '--name', 'osc-own-renamed', '--property', 'role=db', created.id);
    const renamed = await oscJson<{ name: string; properties: unknown }>('server', 'show', created.id);
    expect(renamed.name).toBe('osc-own-renamed');
    expect(JSON.stringify(renamed.properties)).toContain('db');

    await osc('--os-compute-api-version', '2.73', 'server', 'lock', '--reason', 'osc', created.id);
    const locked = await oscJson<{ locked: unknown; locked_reason?: string }>(
      '--os-compute-api-version',
      '2.73',
      'server',
      'show',
      created.id,
    );
    expect(String(locked.locked)).toMatch(/true/i);
    await expect(osc('server', 'pause', created.id)).rejects.toThrow(/is locked/);
    await osc('server', 'unlock', created.id);

    const status = async () => (await oscJson<{ status: string }>('server', 'show', created.id)).status;
    await osc('server', 'pause', created.id);
    await tc.settle();
    expect(await status()).toBe('PAUSED');
    await osc('server', 'unpause', created.id);
    await tc.settle();
    await osc('server', 'suspend', created.id);
    await tc.settle();
    expect(await status()).toBe('SUSPENDED');
    await osc('server', 'resume', created.id);
    await tc.settle();
    expect(await status()).toBe('ACTIVE');

    const events = await oscJson<{ Action: string }[]>('server', 'event', 'list', created.id);
    expect(events.map((e) => e.Action)).toEqual([
      'resume',
      'suspend',
      'unpause',
      'pause',
      'unlock',
      'lock',
      'create',
    ]);
    await osc('server', 'delete', created.id);
    await tc.settle();
  }, 300_000);
});

describe('the network service through openstackclient', () => {
  it('lists networks, subnets, security groups, a server’s ports and the availability zones', async () => {
    const networks = await oscJson<{ Name: string; Subnets: string[] | string }[]>('network', 'list');
    expect(networks.map((n) => n.Name)).toEqual(['private']);
    const subnets = await oscJson<{ Name: string; Subnet: string }[]>('subnet', 'list');
    expect(subnets).toEqual([expect.objectContaining({ Name: 'private-subnet', Subnet: '10.0.0.0/22' })]);
    const groups = await oscJson<{ Name: string; Description: string }[]>('security', 'group', 'list');
    expect(groups).toEqual([
      expect.objectContaining({ Name: 'default', Description: 'Default security group' }),
    ]);

    const server = await oscJson<{ id: string }>(
      'server',
      'create',
      '--flavor',
      '1',
      '--image',
      'cirros-0.6.2-x86_64-disk',
      '--network',
      'private',
      '--wait',
      'osc-net',
    );
    const ports = await oscJson<{ 'Fixed IP Addresses': unknown; 'MAC Address': string }[]>(
      'port',
      'list',
      '--server',
      server.id,
    );
    expect(ports).toHaveLength(1);
    expect(ports[0]!['MAC Address']).toMatch(/^fa:16:3e:/);
    expect(JSON.stringify(ports[0]!['Fixed IP Addresses'])).toContain('10.0.0.');
    const shown = await oscJson<{ addresses: unknown }>('server', 'show', server.id);
    expect(JSON.stringify(shown.addresses)).toContain('private');

    const zones = await oscJson<{ 'Zone Name': string }[]>('availability', 'zone', 'list');
    expect(zones.map((z) => z['Zone Name'])).toEqual(expect.arrayContaining(['nova', 'az2']));
    await osc('server', 'delete', '--wait', server.id);
    expect(await oscJson<unknown[]>('port', 'list')).toEqual([]);
  }, 180_000);
});

// --- V1: block storage everyday commands ---
describe('python-openstackclient: volume properties and snapshots', () => {
  it('sets and unsets volume properties, snapshots a volume, makes a volume from the snapshot, and cleans up', async () => {
    await oscJson<{ id: string }>('volume', 'create', '--size', '1', 'osc-props');
    await tc.settle();
    await osc(
      'volume',
      'set',
      '--property',
      'tier=gold',
      '--property',
      'owner=osc',
      '--name',
      'osc-props-2',
      'osc-props',
    );
    const shown = await oscJson<{ name: string; properties: Record<string, string> | string }>(
      'volume',
      'show',
      'osc-props-2',
    );
    expect(shown.name).toBe('osc-props-2');
    expect(JSON.stringify(shown.properties)).toContain('gold');
    await osc('volume', 'unset', '--property', 'tier', 'osc-props-2');
    const unset = await oscJson<{ properties: Record<string, string> | string }>(
      'volume',
      'show',
      'osc-props-2',
    );
    expect(JSON.stringify(unset.properties)).not.toContain('gold');
    expect(JSON.stringify(unset.properties)).toContain('osc');

    const snap = await oscJson<{ id: string; status: string; volume_id: string }>(
      'volume',
      'snapshot',
      'create',
      '--volume',
      'osc-props-2',
      '--property',
      'kind=test',
      'osc-snap',
    );
    expect(snap.status).toBe('creating');
    await tc.settle();
    const list = await oscJson<{ ID: string; Name: string; Status: string; Size: number }[]>(
      'volume',
      'snapshot',
      'list',
    );
    expect(list.find((s) => s.ID === snap.id)).toMatchObject({
      Name: 'osc-snap',
      Status: 'available',
      Size: 1,
    });
    const show = await oscJson<{ id: string; status: string; properties: unknown }>(
      'volume',
      'snapshot',
      'show',
      'osc-snap',
    );
    expect(show).toMatchObject({ id: snap.id, status: 'available' });
    expect(JSON.stringify(show.properties)).toContain('test');

    const fromSnap = await oscJson<{ id: string; snapshot_id: string; size: number }>(
      'volume',
      'create',
      '--snapshot',
      'osc-snap',
      '--size',
      '1',
      'osc-from-snap',
    );
    expect(fromSnap).toMatchObject({ snapshot_id: snap.id, size: 1 });
    await tc.settle();
    expect((await oscJson<{ status: string }>('volume', 'show', 'osc-from-snap')).status).toBe('available');

    // A volume with a snapshot stays until the snapshot goes.
    await expect(osc('volume', 'delete', 'osc-props-2')).rejects.toThrow(
      /must not be migrating, attached, belong to a group, have snapshots/,
    );
    await osc('volume', 'delete', 'osc-from-snap');
    await osc('volume', 'snapshot', 'delete', 'osc-snap');
    await tc.settle();
    expect(await oscJson<unknown[]>('volume', 'snapshot', 'list')).toEqual([]);
    await osc('volume', 'delete', 'osc-props-2');
    await tc.settle();
  }, 300_000);
});

// --- C2: tenancy ---
async function oscAdmin(...args: string[]): Promise<string> {
  const { stdout } = await run('openstack', ['--os-cloud', 'admin', ...args], {
    env: { ...process.env, OS_CLIENT_CONFIG_FILE: join(dir, 'clouds.yaml') },
    timeout: 60_000,
  });
  return stdout;
}

describe('python-openstackclient: key pairs, limits and quotas', () => {
  it('creates, lists, shows and deletes key pairs', async () => {
    const created = await osc('keypair', 'create', 'osc-key');
    expect(created).toMatch(/^-----BEGIN RSA PRIVATE KEY-----/);
    const listed = await oscJson<{ Name: string; Fingerprint: string }[]>('keypair', 'list');
    expect(listed.map((k) => k.Name)).toContain('osc-key');
    const shown = await oscJson<{ name: string; fingerprint: string; type: string }>(
      'keypair',
      'show',
      'osc-key',
    );
    expect(shown).toMatchObject({ name: 'osc-key', type: 'ssh' });
    expect(shown.fingerprint).toMatch(/^([0-9a-f]{2}:){15}[0-9a-f]{2}$/);
    const pub = await osc('keypair', 'show', '--public-key', 'osc-key');
    expect(pub.trim()).toMatch(/^ssh-rsa AAAA\S+ Generated-by-Nova$/);
    await osc('keypair', 'delete', 'osc-key');
    const after = await oscJson<{ Name: string }[]>('keypair', 'list');
    expect(after.map((k) => k.Name)).not.toContain('osc-key');
    // Each `openstack` call is a few seconds of Python start-up, more while the other suites run.
  }, 120_000);

  it('shows absolute limits and quotas, and sets a quota as the admin', async () => {
    const limits = await oscJson<{ Name: string; Value: number }[]>('limits', 'show', '--absolute');
    const byName = Object.fromEntries(limits.map((l) => [l.Name, l.Value]));
    // Compute's and Cinder's absolute limits, merged by the client.
    for (const name of ['maxTotalInstances', 'maxTotalCores', 'maxTotalKeypairs', 'maxTotalVolumes']) {
      expect(Object.keys(byName)).toContain(name);
    }
    await oscAdmin('quota', 'set', '--instances', '7', '--volumes', '8', 'demo');
    const quota = await oscJson<Record<string, unknown>>('quota', 'show');
    const text = JSON.stringify(quota);
    expect(text).toMatch(/"instances": ?7/);
    expect(text).toMatch(/"volumes": ?8/);
    await oscAdmin('quota', 'set', '--instances', '10', '--volumes', '10', 'demo');
  }, 120_000);
});

// --- cloud14v: identity catalog ---
describe('python-openstackclient: the service catalog for admins', () => {
  it('lists services and endpoints, and shows a service', async () => {
    const services = JSON.parse(await oscAdmin('service', 'list', '-f', 'json')) as {
      ID: string;
      Name: string;
      Type: string;
    }[];
    expect(services.map((s) => `${s.Type} ${s.Name}`).sort()).toEqual([
      'block-storage cinder',
      'compute nova',
      'identity keystone',
      'image glance',
      'network neutron',
      'volumev3 cinderv3',
    ]);
    const endpoints = JSON.parse(
      await oscAdmin('endpoint', 'list', '--service', 'compute', '--interface', 'public', '-f', 'json'),
    ) as Record<string, unknown>[];
    expect(endpoints).toEqual([
      {
        ID: expect.any(String),
        Region: 'RegionOne',
        'Service Name': 'nova',
        'Service Type': 'compute',
        Enabled: true,
        Interface: 'public',
        URL: `${tc.url}/compute/v2.1`,
      },
    ]);
    const all = JSON.parse(await oscAdmin('endpoint', 'list', '-f', 'json')) as unknown[];
    expect(all).toHaveLength(18);
    const shown = JSON.parse(await oscAdmin('service', 'show', 'nova', '-f', 'json')) as Record<
      string,
      unknown
    >;
    expect(shown).toMatchObject({ name: 'nova', type: 'compute', enabled: true });
    // Not for a member: Keystone's 403.
    await expect(osc('endpoint', 'list')).rejects.toThrow(/identity:list_endpoints/);
  }, 180_000);
});

// --- cloud14v: volume backups (read-only) ---
describe('python-openstackclient: volume backups', () => {
  it('lists no backups (no backup service runs) and says so for a missing one', async () => {
    const listed = JSON.parse(await osc('volume', 'backup', 'list', '-f', 'json')) as unknown[];
    expect(listed).toEqual([]);
    await expect(osc('volume', 'backup', 'show', 'nosuch')).rejects.toThrow(
      /No volumebackup with a name or ID of 'nosuch' exists/,
    );
  }, 120_000);
});
