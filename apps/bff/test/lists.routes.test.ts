import { http } from '../../cloud/test/helpers/cloud.js';
import { describe, expect, it, test } from './helpers/fixtures.js';

interface Item {
  id: string;
  name: string;
  status: string;
  projectId: string | null;
  sizeGb?: number;
  shared?: boolean;
  attachments: unknown[];
}

const names = (body: { servers?: Item[]; volumes?: Item[] }) =>
  (body.servers ?? body.volumes ?? []).map((x) => x.name);

let failedFlavor = '';

test.beforeAll(async ({ inv, stack }) => {
  await inv.modernHostsOnly();
  const admin = await inv.as('admin');
  const demo = await inv.as('demo');
  // A flavor no host fits: servers made with it end in ERROR (No valid host was found).
  const flavor = await http(stack.cloud, 'POST', '/compute/v2.1/flavors', {
    token: admin.token,
    body: { flavor: { name: 'lst-huge', ram: 50_000_000, vcpus: 1, disk: 1 } },
  });
  expect(flavor.status).toBe(200);
  failedFlavor = flavor.body.flavor.id;
  const many = async (name: string, count: number, flavorRef = '1') => {
    const res = await http(stack.cloud, 'POST', '/compute/v2.1/servers', {
      token: demo.token,
      version: 'compute 2.60',
      body: {
        server: {
          name,
          flavorRef,
          imageRef: inv.imageId,
          networks: 'none',
          min_count: count,
          max_count: count,
        },
      },
    });
    expect(res.status).toBe(202);
  };
  await many('lstsrv', 7);
  await many('lstbad', 3, failedFlavor);
  await stack.cloud.settle();
});

describe('GET /api/lists/servers', () => {
  it('pages by marker: one page, then the next from where it stopped, with the total on the last', async ({
    member,
  }) => {
    const first = await member.get('/api/lists/servers?q=lstsrv&sort=name&dir=asc&limit=3');
    expect(first.status).toBe(200);
    expect(names(first.body)).toEqual(['lstsrv-1', 'lstsrv-2', 'lstsrv-3']);
    const lastOfFirst = first.body.servers[2].id;
    expect(first.body.page).toEqual({ number: 1, size: 3, nextMarker: lastOfFirst, total: null, atLeast: 4 });
    const second = await member.get(
      `/api/lists/servers?q=lstsrv&sort=name&dir=asc&limit=3&page=2&marker=${lastOfFirst}`,
    );
    expect(names(second.body)).toEqual(['lstsrv-4', 'lstsrv-5', 'lstsrv-6']);
    expect(second.body.page.atLeast).toBe(7);
    // Page 3 straight from a link, without a marker: the pages before are skipped on the cloud.
    const third = await member.get('/api/lists/servers?q=lstsrv&sort=name&dir=asc&limit=3&page=3');
    expect(names(third.body)).toEqual(['lstsrv-7']);
    expect(third.body.page).toMatchObject({ number: 3, nextMarker: null, total: 7, atLeast: 7 });
    const beyond = await member.get('/api/lists/servers?q=lstsrv&limit=3&page=9');
    // Past the end: none, and the skipping counted them all.
    expect(beyond.body).toMatchObject({ servers: [], page: { total: 7, atLeast: 7 } });
  });

  it('sorts by status and by name both ways, and filters by status', async ({ member }) => {
    const desc = await member.get('/api/lists/servers?q=lst&sort=name&dir=desc&limit=100');
    expect(names(desc.body)).toEqual([...names(desc.body)].sort().reverse());
    expect(names(desc.body)).toHaveLength(10);
    const byStatus = await member.get('/api/lists/servers?q=lst&sort=status&dir=asc&limit=100');
    const statuses = byStatus.body.servers.map((s: Item) => s.status);
    // vm_state: active before error.
    expect(statuses).toEqual([...Array(7).fill('ACTIVE'), ...Array(3).fill('ERROR')]);
    const failed = await member.get('/api/lists/servers?status=error&limit=100');
    expect(names(failed.body).sort()).toEqual(['lstbad-1', 'lstbad-2', 'lstbad-3']);
    expect(failed.body.servers[0].fault).toMatch(/No valid host/);
  });

  it('finds a server by name (any case, any part, regex characters taken literally) or by id', async ({
    member,
  }) => {
    const part = await member.get('/api/lists/servers?q=SRV-5');
    expect(names(part.body)).toEqual(['lstsrv-5']);
    expect((await member.get('/api/lists/servers?q=lst.rv')).body.servers).toEqual([]);
    const id = part.body.servers[0].id;
    const byId = await member.get(`/api/lists/servers?q=${id}`);
    expect(names(byId.body)).toEqual(['lstsrv-5']);
    expect(byId.body.page).toMatchObject({ total: 1, nextMarker: null });
    expect((await member.get(`/api/lists/servers?q=${id}&status=ERROR`)).body.servers).toEqual([]);
  });

  it('filters by zone and by attached or not', async ({ member, inv }) => {
    const vol = await inv.volume('demo', 'lst-data');
    const srv = (await member.get('/api/lists/servers?q=lstsrv-7')).body.servers[0].id;
    await inv.attach('demo', srv, vol);
    const attached = await member.get('/api/lists/servers?q=lst&attached=yes');
    expect(names(attached.body)).toEqual(['lstsrv-7']);
    expect(attached.body.servers[0].attachments).toEqual([
      expect.objectContaining({ volumeId: vol, volumeName: 'lst-data', mode: 'rw' }),
    ]);
    expect(names((await member.get('/api/lists/servers?q=lstsrv&attached=no&limit=100')).body)).toHaveLength(
      6,
    );
    expect(names((await member.get('/api/lists/servers?q=lstsrv&zone=nova&limit=100')).body)).toHaveLength(7);
    expect((await member.get('/api/lists/servers?q=lstsrv&zone=az2')).body.servers).toEqual([]);
  });

  it("shows an admin every project or one project, and refuses a member's wider view", async ({
    member,
    operator,
    inv,
  }) => {
    const demoProject = (await inv.as('demo')).projectId;
    expect((await operator.get('/api/lists/servers?q=lstsrv')).body.servers).toEqual([]);
    const all = await operator.get('/api/lists/servers?q=lstsrv&all=1&limit=100');
    expect(names(all.body)).toHaveLength(7);
    const one = await operator.get(`/api/lists/servers?project=${demoProject}&limit=100`);
    expect(one.body.servers.every((s: Item) => s.projectId === demoProject)).toBe(true);
    expect(one.body.servers.length).toBeGreaterThanOrEqual(10);
    for (const path of ['/api/lists/servers?all=1', `/api/lists/servers?project=${demoProject}`]) {
      const res = await member.get(path);
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({
        code: 'forbidden',
        message: 'Only administrators can list other projects.',
      });
    }
  });

  it('refuses bad paging with messages for people', async ({ member }) => {
    const cases: [string, string][] = [
      ['limit=0', 'Page size must be between 1 and 100'],
      ['limit=500', 'Page size must be between 1 and 100'],
      ['page=0', 'Page must be 1 or more'],
      ['sort=size', 'Sort by name, status or created'],
      ['dir=up', 'Sort direction must be asc or desc'],
      ['marker=%3Cscript%3E', 'The page marker is not an id'],
    ];
    for (const [query, message] of cases) {
      const res = await member.get(`/api/lists/servers?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
      expect(res.text, query).toContain(message);
    }
    const status = await member.get('/api/lists/servers?status=nonsense');
    expect(status.status).toBe(400);
    expect(status.body.error).toMatchObject({ code: 'cloud_rejected', message: 'Invalid status value' });
  });
});

describe('GET /api/lists/volumes', () => {
  it("pages with Cinder's count, sorts by size, and filters shared and attached here", async ({
    member,
    inv,
  }) => {
    for (let i = 1; i <= 5; i++) await inv.volume('demo', `lstvol-${i}`, { size: i, shared: i % 2 === 1 });
    const first = await member.get('/api/lists/volumes?sort=size&dir=desc&limit=2');
    expect(first.status).toBe(200);
    expect(first.body.volumes.map((v: Item) => v.sizeGb)).toEqual([5, 4]);
    expect(first.body.page.total).toBeGreaterThanOrEqual(5);
    const shared = await member.get('/api/lists/volumes?q=LSTVOL&shared=yes&sort=name');
    expect(names(shared.body)).toEqual(['lstvol-1', 'lstvol-3', 'lstvol-5']);
    expect(shared.body.volumes.every((v: Item) => v.shared)).toBe(true);
    // Filtered here, so the cloud's count does not count these: the total comes with the last page.
    expect(shared.body.page).toMatchObject({ total: 3, nextMarker: null });
    const paged = await member.get('/api/lists/volumes?q=lstvol&sort=name&limit=2&page=2');
    expect(names(paged.body)).toEqual(['lstvol-3', 'lstvol-4']);
    expect(paged.body.page).toMatchObject({ total: null, atLeast: 5 });

    const srv = (await member.get('/api/lists/servers?q=lstsrv-6')).body.servers[0].id;
    const vol = shared.body.volumes[0].id;
    await inv.attach('demo', srv, vol, 'ro');
    const attached = await member.get('/api/lists/volumes?q=lstvol&attached=yes');
    expect(names(attached.body)).toEqual(['lstvol-1']);
    expect(attached.body.volumes[0].attachments).toEqual([
      expect.objectContaining({ serverId: srv, serverName: 'lstsrv-6', mode: 'ro', state: 'attached' }),
    ]);
    expect(names((await member.get('/api/lists/volumes?q=lstvol&attached=no&sort=name')).body)).toEqual([
      'lstvol-2',
      'lstvol-3',
      'lstvol-4',
      'lstvol-5',
    ]);
    const available = await member.get('/api/lists/volumes?status=in-use&limit=100');
    expect(names(available.body)).toContain('lstvol-1');
    expect(names(available.body)).not.toContain('lstvol-2');
    const byId = await member.get(`/api/lists/volumes?q=${vol}`);
    expect(names(byId.body)).toEqual(['lstvol-1']);
  });

  it("refuses a member's wider view and bad input", async ({ member }) => {
    expect((await member.get('/api/lists/volumes?all=1')).status).toBe(403);
    const res = await member.get('/api/lists/volumes?shared=maybe');
    expect(res.status).toBe(400);
    expect(res.text).toContain('shared must be yes or no');
  });
});

describe('GET /api/projects', () => {
  it("gives an admin every project's name and a member their own", async ({ member, operator, inv }) => {
    const demoProject = (await inv.as('demo')).projectId;
    const asAdmin = await operator.get('/api/projects');
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.projects).toEqual(expect.arrayContaining([{ id: demoProject, name: 'demo' }]));
    const asMember = await member.get('/api/projects');
    expect(asMember.body.projects).toEqual([{ id: demoProject, name: 'demo' }]);
  });
});
