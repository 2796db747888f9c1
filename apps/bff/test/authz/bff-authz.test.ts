import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_IMAGE_ID } from '../../../cloud/src/image/seed.js';
import {
  type AuthzWorld,
  buildAuthzWorld,
  ROLES,
  type Role,
  type SignedInRole,
  uniqueName,
} from '../../../cloud/test/authz/authz-world.js';
import { type Allowance, type Exchange, leaksIn, secretsOf } from '../../../cloud/test/authz/leaks.js';
import { servedRoutes } from '../../../cloud/test/authz/route-inventory.js';
import { createBffApp } from '../../src/app.js';
import { createLogger } from '../../src/platform/logger.js';
import { SESSION_COOKIE } from '../../src/platform/session.js';
import { MemorySessionStore } from '../../src/platform/session-store.js';
import { type DocumentedRoute, documentedRoutes } from '../helpers/documented-routes.js';
import { waitForLaunch } from '../helpers/launch.js';
import { type ApiClient, type ApiResult, startStack, type TestStack } from '../helpers/stack.js';
import {
  adminView,
  type ApiExpect,
  type ApiExpectations,
  captureIssuedTokens,
  cloudPolicy,
  demos,
  everyone,
  expectApi,
  missing,
  ok,
  peekStream,
  rawRequest,
  signedIn,
} from './bff-authz.js';

/**
 * Every /api route against every role, through the BFF as a browser uses it (session cookie, CSRF
 * header), on the real cloud: anonymous callers are told to sign in, the reader-only user is
 * refused every change with the cloud's own 403, the other project's member gets 404 for demo's
 * things, and no response ever carries a Keystone token or another project's names or ids.
 */

interface Probe {
  path: string;
  body?: unknown;
  /** A client of its own (signing in or out, switching project), instead of the role's. */
  client?: ApiClient;
}

interface Row {
  /** `METHOD /api/path/:param`, as the route table declares it. */
  route: string;
  expect: ApiExpectations;
  probe(role: Role): Probe | Promise<Probe>;
  /** Runs after the cell, e.g. to see a background job through. */
  after?(role: Role, res: ApiResult): Promise<void>;
}

let stack: TestStack;
let w: AuthzWorld;
let issuedTokens: Set<string>;
/** The route table, read from the OpenAPI document generated from it. */
let apiRoutes: DocumentedRoute[];
const clients = {} as Record<Role, ApiClient>;
const exchanges: Exchange[] = [];
const setCookies: string[] = [];
/** Launch ids by the role that started them. */
const launches = new Map<Role, string>();

const CREDENTIALS: Record<SignedInRole, [string, string]> = {
  reader: ['authz-reader', 'demo'],
  member: ['demo', 'demo'],
  other: ['authz-other-member', 'authz-other'],
  admin: ['admin', 'admin'],
};
const credentialsOf = (role: Role) => CREDENTIALS[role === 'anonymous' ? 'member' : role];
const spends = (role: Role) => role === 'member' || role === 'admin';

async function signIn(role: Role): Promise<ApiClient> {
  const [user, project] = credentialsOf(role);
  const c = await stack.signIn(user, project);
  return c;
}

const launchRequest = (role: Role, dataVolumes: { volumeId: string }[] = []) => ({
  name: uniqueName(`authz-launch-${role}`),
  count: 1,
  flavorId: '42',
  boot: { source: 'image', imageId: SEED_IMAGE_ID },
  dataVolumes,
});

const rows: Row[] = [
  { route: 'GET /api/health', expect: everyone(200), probe: () => ({ path: '/api/health' }) },
  { route: 'GET /api/openapi.json', expect: everyone(200), probe: () => ({ path: '/api/openapi.json' }) },
  {
    // A fresh browser for each: signing in again is the next describe's business.
    route: 'POST /api/session',
    expect: everyone(201),
    probe: (role) => {
      const [username, project] = credentialsOf(role);
      return {
        path: '/api/session',
        body: { username, password: username, project },
        client: stack.client(),
      };
    },
  },
  { route: 'GET /api/session', expect: signedIn(200), probe: () => ({ path: '/api/session' }) },
  {
    route: 'DELETE /api/session',
    expect: signedIn(204),
    probe: async (role) => ({
      path: '/api/session',
      client: role === 'anonymous' ? stack.client() : await signIn(role),
    }),
  },
  {
    // One's own project is fine; demo's, for the other project's member, is not its to switch to.
    route: 'PUT /api/session/project',
    expect: { ...signedIn(200), other: { status: 400, code: 'unknown_project' } },
    probe: async (role) => ({
      path: '/api/session/project',
      body: {
        projectId:
          role === 'other'
            ? w.actors.member.projectId
            : w.actors[role === 'anonymous' ? 'member' : role].projectId,
      },
      client: role === 'anonymous' ? stack.client() : await signIn(role),
    }),
  },
  { route: 'GET /api/capabilities', expect: signedIn(200), probe: () => ({ path: '/api/capabilities' }) },
  { route: 'GET /api/volumes', expect: signedIn(200), probe: () => ({ path: '/api/volumes' }) },
  {
    route: 'POST /api/volumes',
    expect: { ...signedIn(201), reader: cloudPolicy('volume:create') },
    probe: (role) => ({
      path: '/api/volumes',
      body: { name: uniqueName(`authz-${role}-bffvol`), sizeGb: 1 },
    }),
  },
  {
    route: 'GET /api/volumes/:id',
    expect: demos(200, missing),
    probe: () => ({ path: `/api/volumes/${w.demo.plain}` }),
  },
  {
    route: 'DELETE /api/volumes/:id',
    expect: demos(202, missing, cloudPolicy('volume:delete')),
    probe: async (role) => ({
      path: `/api/volumes/${spends(role) ? await w.freshVolume('member') : w.demo.plain}`,
    }),
  },
  { route: 'GET /api/volume-types', expect: signedIn(200), probe: () => ({ path: '/api/volume-types' }) },
  { route: 'GET /api/servers', expect: signedIn(200), probe: () => ({ path: '/api/servers' }) },
  {
    route: 'GET /api/servers/:id',
    expect: demos(200, missing),
    probe: () => ({ path: `/api/servers/${w.demo.server}` }),
  },
  {
    route: 'DELETE /api/servers/:id',
    expect: demos(202, missing, cloudPolicy('os_compute_api:servers:delete')),
    probe: async (role) => ({
      path: `/api/servers/${spends(role) ? await w.freshServer('member') : w.demo.server}`,
    }),
  },
  {
    route: 'POST /api/servers/:id/attachments',
    expect: demos(201, missing, cloudPolicy('os_compute_api:os-volumes-attachments:create')),
    probe: async (role) => ({
      path: `/api/servers/${w.demo.server}/attachments`,
      body: {
        volumeId: spends(role)
          ? await w.freshVolume('member', { shared: true })
          : role === 'other'
            ? w.other.volume
            : w.demo.plain,
      },
    }),
  },
  {
    route: 'DELETE /api/servers/:id/attachments/:volumeId',
    expect: demos(202, missing, cloudPolicy('os_compute_api:os-volumes-attachments:delete')),
    probe: async (role) => {
      const { serverId, volumeId } = spends(role)
        ? await w.freshNovaAttachment()
        : { serverId: w.demo.server, volumeId: w.demo.shared };
      return { path: `/api/servers/${serverId}/attachments/${volumeId}` };
    },
  },
  { route: 'GET /api/flavors', expect: signedIn(200), probe: () => ({ path: '/api/flavors' }) },
  { route: 'GET /api/images', expect: signedIn(200), probe: () => ({ path: '/api/images' }) },
  {
    route: 'GET /api/availability-zones',
    expect: signedIn(200),
    probe: () => ({ path: '/api/availability-zones' }),
  },
  {
    route: 'GET /api/hosts',
    expect: {
      ...signedIn(200),
      ...Object.fromEntries(
        (['reader', 'member', 'other'] as const).map((r) => [
          r,
          adminView('Only administrators can see compute hosts.'),
        ]),
      ),
    },
    probe: () => ({ path: '/api/hosts' }),
  },
  {
    route: 'GET /api/preflight/attach',
    expect: demos(200, missing),
    probe: () => ({ path: `/api/preflight/attach?volumeId=${w.demo.shared}` }),
  },
  {
    // Creates nothing, so a reader may ask what a launch would do.
    route: 'POST /api/launches/plan',
    expect: signedIn(200),
    probe: (role) => ({ path: '/api/launches/plan', body: launchRequest(role) }),
  },
  {
    // The other project's member names demo's volume: "not found in this project", before anything starts.
    route: 'POST /api/launches',
    expect: { ...signedIn(202), other: { status: 400, code: 'launch_not_possible' } },
    probe: (role) => ({
      path: '/api/launches',
      body: launchRequest(role, role === 'other' ? [{ volumeId: w.demo.shared }] : []),
    }),
    async after(role, res) {
      if (res.status === 202) {
        launches.set(role, res.body.id);
        await waitForLaunch(clients[role], res.body.id);
      }
    },
  },
  { route: 'GET /api/launches', expect: signedIn(200), probe: () => ({ path: '/api/launches' }) },
  {
    // A launch is its project's: demo's reader reads the member's; the admin works in project admin.
    route: 'GET /api/launches/:id',
    expect: { ...demos(200, missing), admin: missing },
    probe: () => ({ path: `/api/launches/${launches.get('member')}` }),
  },
  // --- M: actions on a launch's failed servers ---
  {
    // The member's launch succeeded: nothing to act on (409); another project's launch is missing.
    route: 'POST /api/launches/:id/delete-failed',
    expect: { ...demos(409, missing), admin: missing },
    probe: () => ({ path: `/api/launches/${launches.get('member')}/delete-failed` }),
  },
  {
    route: 'POST /api/launches/:id/retry-failed',
    expect: { ...demos(409, missing), admin: missing },
    probe: () => ({ path: `/api/launches/${launches.get('member')}/retry-failed` }),
  },
  { route: 'GET /api/topology', expect: signedIn(200), probe: () => ({ path: '/api/topology' }) },
  { route: 'GET /api/events', expect: signedIn(200), probe: () => ({ path: '/api/events' }) },
  // --- L: paged lists and project names ---
  { route: 'GET /api/lists/servers', expect: signedIn(200), probe: () => ({ path: '/api/lists/servers' }) },
  { route: 'GET /api/lists/volumes', expect: signedIn(200), probe: () => ({ path: '/api/lists/volumes' }) },
  { route: 'GET /api/projects', expect: signedIn(200), probe: () => ({ path: '/api/projects' }) },
  // --- Q: volume actions ---
  {
    route: 'POST /api/volumes/:id/extend',
    expect: demos(202, missing, cloudPolicy('volume:extend')),
    probe: async (role) => ({
      path: `/api/volumes/${spends(role) ? await w.freshVolume('member') : w.demo.plain}/extend`,
      body: { sizeGb: 2 },
    }),
  },
  {
    route: 'POST /api/volumes/:id/retype',
    expect: demos(202, missing, cloudPolicy('volume:retype')),
    probe: async (role) => ({
      path: `/api/volumes/${spends(role) ? await w.freshVolume('member') : w.demo.plain}/retype`,
      body: { type: 'multiattach' },
    }),
  },
  {
    route: 'PUT /api/volumes/:id/bootable',
    expect: demos(200, missing, cloudPolicy('volume:update')),
    probe: async (role) => ({
      path: `/api/volumes/${spends(role) ? await w.freshVolume('member') : w.demo.plain}/bootable`,
      body: { bootable: true },
    }),
  },
  // --- 15: what a launch picks from (key pairs are each user's own, so every signed-in role may) ---
  { route: 'GET /api/networks', expect: signedIn(200), probe: () => ({ path: '/api/networks' }) },
  {
    route: 'GET /api/security-groups',
    expect: signedIn(200),
    probe: () => ({ path: '/api/security-groups' }),
  },
  { route: 'GET /api/key-pairs', expect: signedIn(200), probe: () => ({ path: '/api/key-pairs' }) },
  {
    route: 'POST /api/key-pairs',
    expect: signedIn(201),
    probe: (role) => ({ path: '/api/key-pairs', body: { name: uniqueName(`authz-key-${role}`) } }),
  },
  {
    route: 'DELETE /api/key-pairs/:name',
    expect: signedIn(204),
    probe: async (role) => {
      const name = uniqueName(`authz-gone-${role}`);
      if (role !== 'anonymous') await clients[role].post('/api/key-pairs', { name });
      return { path: `/api/key-pairs/${name}` };
    },
  },
  { route: 'GET /api/quotas', expect: signedIn(200), probe: () => ({ path: '/api/quotas' }) },
];

/** One call as a role, kept for the token, cookie and leak checks. */
async function send(role: Role, method: string, probe: Probe): Promise<ApiResult> {
  const client = probe.client ?? clients[role];
  const res =
    probe.path === '/api/events'
      ? await peekStream(stack, client, probe.path)
      : await client.request(method, probe.path, probe.body);
  record(role, method, probe.path, JSON.stringify(probe.body ?? null), res);
  return res;
}

function record(role: Role, method: string, path: string, request: string, res: ApiResult): void {
  exchanges.push({ role, method, path, request, res });
  setCookies.push(...res.headers.getSetCookie());
}

beforeAll(async () => {
  stack = await startStack();
  issuedTokens = captureIssuedTokens(stack);
  w = await buildAuthzWorld(stack.cloud);
  clients.anonymous = stack.client();
  for (const role of ['reader', 'member', 'other', 'admin'] as const) clients[role] = await signIn(role);
  apiRoutes = documentedRoutes((await stack.client().get('/api/openapi.json')).body);
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('the BFF authorization table', () => {
  it('has a row for every /api route, and none for a route the BFF does not serve', () => {
    const table = rows.map((r) => r.route);
    const listed = apiRoutes.map((r) => r.key);
    const app = createBffApp({
      config: { ...stack.config, webDist: '/nonexistent' },
      logger: createLogger('silent'),
      sessions: new MemorySessionStore(),
    });
    const served = servedRoutes(app).filter((r) => r.split(' ')[1]?.startsWith('/api/'));
    expect(new Set(table).size).toBe(table.length);
    expect(
      listed.filter((r) => !table.includes(r)),
      'in the route table but missing here',
    ).toEqual([]);
    expect(
      served.filter((r) => !table.includes(r)),
      'served but missing here',
    ).toEqual([]);
    expect(
      table.filter((r) => !listed.includes(r)),
      'here but not an /api route',
    ).toEqual([]);
  });

  for (const row of rows) {
    it(row.route, async () => {
      const method = row.route.split(' ')[0] as string;
      for (const role of ROLES) {
        const probe = await row.probe(role);
        const res = await send(role, method, probe);
        expectApi(res, row.expect[role], `${row.route} as ${role}`);
        await row.after?.(role, res);
      }
      if (row.route === 'GET /api/events') {
        const stream = exchanges.filter((e) => e.path === '/api/events' && e.res.status === 200);
        for (const e of stream) expect(e.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      }
      await stack.cloud.settle();
    });
  }

  it('keeps the whole-cloud views for admins', async () => {
    for (const path of ['/api/volumes?all=1', '/api/servers?all=1']) {
      for (const role of ['reader', 'member', 'other'] as const) {
        expectApi(
          await send(role, 'GET', { path }),
          adminView('Only administrators can list every project.'),
          `${path} as ${role}`,
        );
      }
      const all = await send('admin', 'GET', { path });
      expectApi(all, ok(200), `${path} as admin`);
      const ids = (all.body.volumes ?? all.body.servers).map((x: { id: string }) => x.id);
      expect(ids).toEqual(
        expect.arrayContaining(
          path.startsWith('/api/volumes') ? [w.demo.plain, w.other.volume] : [w.demo.server, w.other.server],
        ),
      );
    }
  });

  it('shows a reader’s launch failing with the cloud’s refusal, and nothing made', async () => {
    const id = launches.get('reader');
    expect(id).toBeDefined();
    const done = await send('reader', 'GET', { path: `/api/launches/${id}` });
    expect(done.body.status).toBe('failed');
    for (const s of done.body.servers) {
      expect(s.serverId).toBeNull();
      expect(s.error).toBe("Policy doesn't allow os_compute_api:servers:create to be performed.");
    }
    const servers = (await send('reader', 'GET', { path: '/api/servers' })).body.servers;
    expect(servers.map((s: { name: string }) => s.name)).not.toContain(done.body.request.name);
  });
});

describe('another project’s ids in a body or a query', () => {
  it('finds nothing of theirs for demo’s member (and the leak check below reads every answer)', async () => {
    const them = w.actors.other.projectId;
    const cases: [string, string, string, unknown, ApiExpect][] = [
      [
        'GET',
        `/api/topology?project=${them}`,
        'their topology',
        undefined,
        adminView('You can only see the topology of your own project.'),
      ],
      ['GET', `/api/topology?volume=${w.other.volume}`, 'their volume’s topology', undefined, ok(200)],
      [
        'GET',
        `/api/preflight/attach?serverId=${w.other.server}`,
        'preflight for their server',
        undefined,
        missing,
      ],
      [
        'GET',
        `/api/preflight/attach?volumeId=${w.other.volume}`,
        'preflight for their volume',
        undefined,
        missing,
      ],
      [
        'POST',
        `/api/servers/${w.demo.server}/attachments`,
        'attach their volume',
        { volumeId: w.other.volume },
        missing,
      ],
      [
        'POST',
        '/api/launches',
        'boot from their volume',
        { ...launchRequest('member'), boot: { source: 'volume', volumeId: w.other.volume } },
        { status: 400, code: 'launch_not_possible' },
      ],
      [
        'PUT',
        '/api/session/project',
        'switch to their project',
        { projectId: them },
        { status: 400, code: 'unknown_project' },
      ],
    ];
    for (const [method, path, label, body, want] of cases) {
      expectApi(await send('member', method, { path, body }), want, label);
    }
    expect((await clients.member.get('/api/session')).body.project.id).toBe(w.actors.member.projectId);
  });
});

describe('sessions and CSRF', () => {
  /** What the cloud holds, to show a refused call changed nothing there. */
  async function cloudState(): Promise<string> {
    await stack.cloud.settle();
    const admin = w.actors.admin;
    const volumes = await w.must(admin, 'GET', `${admin.volumeBase}/volumes/detail?all_tenants=1`);
    const servers = await w.must(admin, 'GET', '/compute/v2.1/servers/detail?all_tenants=1');
    return JSON.stringify({
      volumes: volumes.body.volumes
        .map((v: { id: string; status: string; size: number; attachments: unknown[] }) => [
          v.id,
          v.status,
          v.size,
          v.attachments.length,
        ])
        .sort(),
      servers: servers.body.servers.map((s: { id: string; status: string }) => [s.id, s.status]).sort(),
      launches: (await clients.member.get('/api/launches')).body.launches.length,
    });
  }

  it('sets the session cookie HttpOnly, SameSite and for the whole site, every time', () => {
    const ours = setCookies.filter((c) => c.startsWith(`${SESSION_COOKIE}=`));
    expect(ours.length).toBeGreaterThan(8);
    for (const c of ours) {
      expect(c).toMatch(/;\s*HttpOnly/i);
      expect(c).toMatch(/;\s*SameSite=(Lax|Strict)/i);
      expect(c).toMatch(/;\s*Path=\/(;|$)/i);
    }
  });

  it('refuses every change without the CSRF header, with a wrong one, or with another session’s, and changes nothing', async () => {
    const mutations = rows.filter((r) => !r.route.startsWith('GET ') && r.route !== 'POST /api/session');
    expect(mutations.length).toBe(apiRoutes.filter((r) => r.method !== 'get' && r.session).length);
    const member = clients.member;
    const foreignToken = (await clients.reader.get('/api/session')).body.csrfToken as string;
    for (const row of mutations) {
      const method = row.route.split(' ')[0] as string;
      const probe = await row.probe('member');
      const client = probe.client ?? member;
      const before = await cloudState();
      const session = (await client.get('/api/session')).body;
      for (const csrf of [null, 'not-the-token', foreignToken, '']) {
        const res = await rawRequest(stack, client, method, probe.path, { body: probe.body, csrf });
        record('member', method, probe.path, JSON.stringify(probe.body ?? null), res);
        expectApi(
          res,
          { status: 403, code: 'csrf_failed' },
          `${row.route} with CSRF ${JSON.stringify(csrf)}`,
        );
      }
      expect(await cloudState(), `${row.route} changed the cloud`).toBe(before);
      // The session is still there, still in the same project.
      const after = await client.get('/api/session');
      expect(after.status).toBe(200);
      expect(after.body.project).toEqual(session.project);
    }
  });

  it('takes a sign-in only as JSON, so a cross-site form cannot log a browser into another account', async () => {
    const jsonLooking = JSON.stringify({
      username: 'authz-reader',
      password: 'authz-reader',
      project: 'demo',
    });
    const attempts = [
      { contentType: 'text/plain', rawBody: jsonLooking },
      {
        contentType: 'application/x-www-form-urlencoded',
        rawBody: 'username=authz-reader&password=authz-reader',
      },
      {
        contentType: 'multipart/form-data; boundary=x',
        rawBody: '--x\r\nContent-Disposition: form-data; name="username"\r\n\r\nauthz-reader\r\n--x--',
      },
    ];
    for (const a of attempts) {
      const res = await rawRequest(stack, stack.client(), 'POST', '/api/session', { ...a, csrf: null });
      record('anonymous', 'POST', '/api/session', a.rawBody, res);
      expect(res.status, a.contentType).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
      expect(res.headers.getSetCookie(), a.contentType).toEqual([]);
    }
    // Nor may another site send the JSON itself: the BFF answers no CORS preflight.
    const preflight = await fetch(`${stack.bffUrl}/api/session`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://evil.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('does not let a request swap the session of a signed-in browser without its CSRF token', async () => {
    const victim = await signIn('member');
    const before = (await victim.get('/api/session')).body;
    const res = await rawRequest(stack, victim, 'POST', '/api/session', {
      body: { username: 'authz-reader', password: 'authz-reader', project: 'demo' },
      csrf: null,
    });
    record('member', 'POST', '/api/session', 'swap', res);
    expectApi(res, { status: 403, code: 'csrf_failed' }, 'sign-in over a session without CSRF');
    expect(res.headers.getSetCookie()).toEqual([]);
    expect((await victim.get('/api/session')).body.user).toEqual(before.user);
  });

  it('forgets a cookie it does not know, and answers as to anyone signed out', async () => {
    const stranger = stack.client();
    stranger.cookie = `${SESSION_COOKIE}=made-up`;
    const res = await stranger.get('/api/volumes');
    record('anonymous', 'GET', '/api/volumes', 'made-up cookie', res);
    expectApi(res, { status: 401, code: 'not_authenticated' }, 'made-up cookie');
    expect(res.headers.getSetCookie().join()).toMatch(new RegExp(`^${SESSION_COOKIE}=;`));
  });
});

/** What OpenStack shows across projects, and the BFF with it (see the cloud's table). */
function crossProjectAllowances(w: AuthzWorld): Allowance[] {
  const volumeViews = /^\/api\/(volumes|preflight\/attach|topology)(\/|\?|$)/;
  const serverViews = /^\/api\/(servers|topology)(\/|\?|$)/;
  return [
    ...(['reader', 'member'] as const).map((role) => ({
      role,
      value: w.cross.server,
      path: volumeViews,
      why: 'Cinder shows a volume’s owner every server holding it (not its name)',
    })),
    {
      role: 'other',
      value: w.cross.volume,
      path: serverViews,
      why: 'Nova shows a server’s owner its volumes',
    },
    { role: 'other', value: w.cross.attachment, path: serverViews, why: 'and their Cinder attachment ids' },
    // --- L: the paged lists show what the whole lists show ---
    ...(['reader', 'member'] as const).map((role) => ({
      role,
      value: w.cross.server,
      path: /^\/api\/lists\/volumes(\?|$)/,
      why: 'Cinder shows a volume’s owner every server holding it (not its name)',
    })),
    {
      role: 'other',
      value: w.cross.volume,
      path: /^\/api\/lists\/servers(\?|$)/,
      why: 'Nova shows a server’s owner its volumes',
    },
    {
      role: 'other',
      value: w.cross.attachment,
      path: /^\/api\/lists\/servers(\?|$)/,
      why: 'and their Cinder attachment ids',
    },
  ];
}

describe('what leaves the BFF', () => {
  it('never a Keystone token, in any body or header', () => {
    // Every exchange recorded above, anonymous and admin ones too.
    expect(exchanges.length).toBeGreaterThan(150);
    expect(issuedTokens.size).toBeGreaterThan(10);
    for (const e of exchanges) {
      const seen = `${[...e.res.headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n')}\n${e.res.text}`;
      for (const token of issuedTokens) {
        expect(seen.includes(token), `${e.method} ${e.path} as ${e.role} shows a token`).toBe(false);
      }
    }
  });

  it('never another project’s names or ids to demo’s reader and member, or to the other project’s member', async () => {
    const leaks = leaksIn(exchanges, await secretsOf(w), w, crossProjectAllowances(w));
    expect(leaks).toEqual([]);
    for (const role of ['reader', 'member', 'other'] as const) {
      expect(exchanges.filter((e) => e.role === role).length).toBeGreaterThan(25);
    }
  });
});
