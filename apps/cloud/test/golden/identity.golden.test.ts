import { describe, expect } from 'vitest';
import { type HttpResult, http, login, type Session, type TestCloud } from '../helpers/cloud.js';
import { cloudTest } from '../helpers/cloud-test.js';
import {
  type Capture,
  type CompareCaptureOptions,
  compareCapture,
  type JsonObject,
  loadCapture,
  mapCapturePath,
  mapCaptureUrl,
  replayHeaders,
} from './capture.js';

/**
 * Golden tests for Keystone (captures 65-87): each recorded exchange is replayed against the bundled
 * cloud, with our ids and real tokens and passwords in place of the recorded (redacted) ones, and
 * compared for status, keys, value types and formats, exact values where they are fixed, and headers.
 */
let tc: TestCloud;
let demo: Session;
let admin: Session;

/** Captured ids of the recorded cloud's seeded accounts. */
const CAPTURED = {
  demoUser: '933d0ee8d93a4e4fa68ca2cdcc4e395a',
  adminUser: 'b62054f74fff49389fc4da5c6cd0342d',
  demoProject: 'fcbcf9fc32c649909405771074021b99',
  adminProject: '1dcb3f3f1bfb4f30a0799e09dc872e90',
};
let ids: Record<string, string>;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  admin = adminSession;
  ids = {
    [CAPTURED.demoUser]: demo.userId,
    [CAPTURED.adminUser]: admin.userId,
    [CAPTURED.demoProject]: demo.projectId,
    [CAPTURED.adminProject]: admin.projectId,
  };
});

/** Headers every Keystone answer is checked for: present/absent as captured, some by value. */
const HEADERS = [
  'Content-Type',
  'Vary',
  'X-Subject-Token',
  'WWW-Authenticate',
  'Location',
  'X-Openstack-Request-Id',
];
const EXACT_HEADERS = ['Content-Type', 'Vary'];

/** The recorded request with its redacted secrets filled in. */
function replayBody(cap: Capture, password?: string): string | undefined {
  const body = cap.request.body;
  if (body === null || body === '') return undefined;
  const text = JSON.stringify(body);
  return password === undefined ? text : text.replace('"<redacted>"', JSON.stringify(password));
}

interface Replay {
  /** X-Auth-Token (and X-Subject-Token unless `subject` is given). */
  token?: string;
  subject?: string;
  password?: string;
}

async function replay(cap: Capture, r: Replay = {}): Promise<HttpResult> {
  const headers = replayHeaders(cap, r.token !== undefined ? { token: r.token } : {});
  if (r.subject !== undefined) headers['x-subject-token'] = r.subject;
  const body = replayBody(cap, r.password);
  return http(tc, cap.request.method, mapCapturePath(cap.request.url, { replaceIds: ids }), {
    headers,
    ...(body !== undefined ? { rawBody: body } : {}),
  });
}

/** Header values that carry the address the client used, compared after mapping the captured URL. */
function urlHeaderDiffs(cap: Capture, res: HttpResult): string[] {
  const out: string[] = [];
  const location = cap.response.headers['Location'];
  if (location !== undefined) {
    const want = mapCaptureUrl(location, { baseUrl: tc.url });
    if (res.headers.get('location') !== want)
      out.push(`header Location: expected ${want}, got ${res.headers.get('location')}`);
  }
  const www = cap.response.headers['WWW-Authenticate'] ?? cap.response.headers['Www-Authenticate'];
  if (www !== undefined) {
    const want = www.replace(/"(.*)"/, (_m, u: string) => `"${mapCaptureUrl(u, { baseUrl: tc.url })}"`);
    if (res.headers.get('www-authenticate') !== want) {
      out.push(`header WWW-Authenticate: expected ${want}, got ${res.headers.get('www-authenticate')}`);
    }
  }
  return out;
}

async function check(n: number, r: Replay = {}, opts: CompareCaptureOptions = {}) {
  const cap = loadCapture(n);
  const res = await replay(cap, r);
  const diffs = [
    ...compareCapture(cap, res.status, res.text === '' ? '' : res.body, {
      formats: true,
      baseUrl: tc.url,
      replaceIds: ids,
      ...opts,
      headers: { actual: res.headers, names: HEADERS, exactValues: EXACT_HEADERS, formats: true },
    }),
    ...urlHeaderDiffs(cap, res),
  ];
  // Keystone never sends Nova's request id header.
  if (res.headers.get('x-compute-request-id') !== null) {
    diffs.push('header X-Compute-Request-Id: unexpected');
  }
  return { cap, res, diffs };
}

const roleNames = (body: { token: { roles: { name: string }[] } }) =>
  body.token.roles.map((r) => r.name).sort();

/** Values a token body shows exactly as recorded (ids are mapped to ours). */
const TOKEN_EXACT = [
  '$.token.methods',
  '$.token.user.domain',
  '$.token.user.id',
  '$.token.user.name',
  '$.token.user.password_expires_at',
  '$.token.project',
  '$.token.is_domain',
];

describe('version discovery (captures 65, 66)', () => {
  it.each([65, 66])('capture %i replays exactly, URLs mapped to ours', async (n) => {
    const { diffs } = await check(n, {}, { exact: ['$'] });
    expect(diffs).toEqual([]);
  });
});

describe('password authentication (captures 67-73)', () => {
  it.each([
    [67, 'demo', ['member', 'reader']],
    [68, 'admin', ['admin', 'member', 'reader']],
  ] as const)(
    'capture %i: a %s project token has the recorded shape, values and roles',
    async (n, user, roles) => {
      const { cap, res, diffs } = await check(
        n,
        { password: user },
        {
          exact: TOKEN_EXACT,
          // The recorded roles list comes in Keystone's own order; names are compared as a set below.
          ignore: ['$.token.roles'],
        },
      );
      expect(diffs).toEqual([]);
      expect(roleNames(res.body)).toEqual(roles);
      expect(roleNames(cap.response.body as { token: { roles: { name: string }[] } })).toEqual(roles);
      // Recorded catalogs also list placement and network, which this cloud does not serve: every one of
      // our entries was compared above with the shape of a recorded entry; these are the types we serve.
      const types = res.body.token.catalog.map((c: { type: string }) => c.type);
      const recordedTypes = (
        (cap.response.body as JsonObject).token as { catalog: { type: string }[] }
      ).catalog.map((c) => c.type);
      for (const t of types) expect(recordedTypes).toContain(t);
    },
  );

  it.each([
    [69, 'wrong-password'],
    [70, 'demo'],
    [71, 'demo'],
    [72, 'demo'],
  ])('capture %i: the generic 401 with WWW-Authenticate, exactly', async (n, password) => {
    const { diffs } = await check(n, { password }, { exact: ['$'] });
    expect(diffs).toEqual([]);
  });

  it('capture 73: an unscoped token has no project, roles or catalog', async () => {
    const { diffs } = await check(73, { password: 'demo' }, { exact: TOKEN_EXACT });
    expect(diffs).toEqual([]);
  });
});

describe('validation, check and revocation (captures 74-81)', () => {
  const freshDemoToken = async () => (await login(tc, 'demo')).token;

  it('capture 74: validating another demo token answers the full body', async () => {
    const { diffs } = await check(
      74,
      { token: demo.token, subject: await freshDemoToken() },
      { exact: TOKEN_EXACT, ignore: ['$.token.roles'] },
    );
    expect(diffs).toEqual([]);
  });

  it('capture 75: ?nocatalog leaves the catalog out', async () => {
    const { diffs } = await check(
      75,
      { token: demo.token, subject: await freshDemoToken() },
      { exact: TOKEN_EXACT, ignore: ['$.token.roles'] },
    );
    expect(diffs).toEqual([]);
  });

  it('capture 76: HEAD answers 200 with no body', async () => {
    const { diffs } = await check(76, { token: demo.token, subject: await freshDemoToken() });
    expect(diffs).toEqual([]);
  });

  it('capture 77: a garbage subject token is 404 "Could not recognize Fernet token"', async () => {
    const { diffs } = await check(77, { token: demo.token, subject: 'gAAAAABgarbage' }, { exact: ['$'] });
    expect(diffs).toEqual([]);
  });

  it('captures 78-81: revoke (204), then 404 on validate and HEAD, and 401 from Nova', async () => {
    const subject = await freshDemoToken();
    const revoke = await check(78, { token: demo.token, subject });
    expect(revoke.diffs).toEqual([]);
    const get = await check(79, { token: demo.token, subject }, { exact: ['$'] });
    expect(get.diffs).toEqual([]);
    const head = await check(80, { token: demo.token, subject });
    expect(head.diffs).toEqual([]);
    // 81 is Nova's keystonemiddleware answer, produced by identity's requireToken.
    const cap = loadCapture(81);
    const res = await replay(cap, { token: subject });
    const nova = compareCapture(cap, res.status, res.body, {
      exact: ['$'],
      // Content-Type is only checked for presence: the shared fault renderer (platform/http/faults.ts)
      // adds `; charset=utf-8`, which this Nova answer did not have.
      headers: { actual: res.headers, names: ['Www-Authenticate', 'Vary', 'Content-Type'] },
    });
    expect([...nova, ...urlHeaderDiffs(cap, res)]).toEqual([]);
  });
});

describe('projects and catalog (captures 82-87)', () => {
  it('capture 82: /v3/auth/projects lists demo exactly as recorded', async () => {
    const { diffs } = await check(82, { token: demo.token }, { exact: ['$'] });
    expect(diffs).toEqual([]);
  });

  it('capture 83: a user lists their own projects', async () => {
    const { diffs } = await check(83, { token: demo.token }, { exact: ['$'] });
    expect(diffs).toEqual([]);
  });

  it.each([84, 85])('capture %i: a member is refused with the policy action, exactly', async (n) => {
    const { diffs } = await check(n, { token: demo.token }, { exact: ['$'] });
    expect(diffs).toEqual([]);
  });

  it('capture 86: an admin lists projects; every element has the recorded shape', async () => {
    // The recorded list holds another session's project too, so elements are compared by shape and
    // the collection links by value, not the list itself.
    const { res, diffs } = await check(86, { token: admin.token }, { exact: ['$.links'] });
    expect(diffs).toEqual([]);
    expect(res.body.projects.map((p: { name: string }) => p.name).sort()).toEqual([
      'admin',
      'demo',
      'service',
    ]);
  });

  it('capture 87: the catalog alone, entries shaped as recorded, links exact', async () => {
    const { res, diffs } = await check(87, { token: demo.token }, { exact: ['$.links'] });
    expect(diffs).toEqual([]);
    const cinder = res.body.catalog.find((c: { type: string }) => c.type === 'volumev3');
    const recorded = (
      loadCapture(87).response.body as { catalog: { type: string; endpoints: { url: string }[] }[] }
    ).catalog;
    const recordedCinder = recorded.find((c) => c.type === 'volumev3');
    // The same URL, mapped: the volume endpoint names the token's project.
    expect(cinder.endpoints[0].url).toBe(
      mapCaptureUrl(recordedCinder?.endpoints[0]?.url ?? '', { baseUrl: tc.url, projectId: demo.projectId }),
    );
  });
});
