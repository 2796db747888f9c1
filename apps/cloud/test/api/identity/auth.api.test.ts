import { request } from 'node:http';
import { describe, expect } from 'vitest';
import { http, type Session, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import {
  AUTH_REQUIRED,
  byName,
  expectKeystoneError,
  expireToken,
  forbiddenMessage,
  issue,
  NOT_COMPLY,
  passwordAuth,
  projectScope,
  tokenFor,
} from './identity-helpers.js';

let tc: TestCloud;
let demo: Session;
let admin: Session;
const it = cloudTest({ tokenTtlSeconds: 60 });
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  admin = adminSession;
});

/** A POST through node:http, which lets the test choose the Host header. */
function rawPost(
  path: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ token: { catalog: { type: string; endpoints: { url: string }[] }[] } }> {
  const url = new URL(tc.url);
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => resolve(JSON.parse(text)));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

const validate = (token: string, subject: string, query = '') =>
  http(tc, 'GET', `/identity/v3/auth/tokens${query}`, { token, headers: { 'X-Subject-Token': subject } });

describe('version discovery', () => {
  it('GET / answers 300 with the v3 document and a Location built from the request address', async () => {
    const res = await http(tc, 'GET', '/identity/');
    expect(res.status).toBe(300);
    expect(res.headers.get('location')).toBe(`${tc.url}/identity/v3/`);
    expect(res.headers.get('vary')).toBe('X-Auth-Token');
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.body.versions.values).toEqual([
      {
        id: 'v3.14',
        status: 'stable',
        updated: '2020-04-07T00:00:00Z',
        links: [{ rel: 'self', href: `${tc.url}/identity/v3/` }],
        'media-types': [{ base: 'application/json', type: 'application/vnd.openstack.identity-v3+json' }],
      },
    ]);
  });

  it('GET /v3 and /v3/ answer the version alone, without a token', async () => {
    for (const path of ['/identity/v3', '/identity/v3/']) {
      const res = await http(tc, 'GET', path);
      expect(res.status).toBe(200);
      expect(res.body.version.id).toBe('v3.14');
      expect(res.headers.get('x-compute-request-id')).toBeNull();
      expect(res.headers.get('x-openstack-request-id')).toMatch(/^req-/);
    }
  });

  it('answers an unknown path with 404 and an unknown method with 405, Keystone style', async () => {
    expectKeystoneError(
      await http(tc, 'GET', '/identity/v3/nothing-here'),
      404,
      'The resource could not be found.',
    );
    expectKeystoneError(
      await http(tc, 'PUT', '/identity/v3/auth/tokens', { token: demo.token }),
      405,
      'The method is not allowed for the requested URL.',
    );
    expectKeystoneError(
      await http(tc, 'POST', '/identity/v3', { body: {} }),
      405,
      'The method is not allowed for the requested URL.',
    );
    const options = await http(tc, 'OPTIONS', '/identity/v3/auth/tokens');
    expect(options.status).toBe(200);
    expect(options.headers.get('allow')).toBe('DELETE, GET, HEAD, OPTIONS, POST');
  });
});

describe('password authentication', () => {
  it('scopes by project name and domain name: 201, X-Subject-Token, roles with implied ones, the catalog', async () => {
    const res = await issue(tc, passwordAuth(byName('demo', 'demo'), projectScope('demo')));
    expect(res.status).toBe(201);
    expect(res.headers.get('x-subject-token')).toMatch(/^gAAAAAB/);
    expect(res.headers.get('vary')).toBe('X-Auth-Token');
    const t = res.body.token;
    expect(Object.keys(t)).toEqual([
      'methods',
      'user',
      'audit_ids',
      'expires_at',
      'issued_at',
      'project',
      'is_domain',
      'roles',
      'catalog',
    ]);
    expect(t.methods).toEqual(['password']);
    expect(t.user).toEqual({
      domain: { id: 'default', name: 'Default' },
      id: demo.userId,
      name: 'demo',
      password_expires_at: null,
    });
    expect(t.project).toEqual({
      domain: { id: 'default', name: 'Default' },
      id: demo.projectId,
      name: 'demo',
    });
    expect(t.is_domain).toBe(false);
    expect(t.roles.map((r: { name: string }) => r.name).sort()).toEqual(['member', 'reader']);
    expect(t.audit_ids).toHaveLength(1);
    expect(t.expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(Date.parse(t.expires_at) - Date.parse(t.issued_at)).toBeGreaterThanOrEqual(59_000);
  });

  it('builds every catalog URL from the address the client used, with three interfaces in RegionOne', async () => {
    const res = await issue(tc, passwordAuth(byName('demo', 'demo'), projectScope('demo')));
    const byType = Object.fromEntries(
      res.body.token.catalog.map(
        (c: { type: string; endpoints: { url: string; interface: string; region: string }[] }) => [c.type, c],
      ),
    );
    expect(Object.keys(byType).sort()).toEqual([
      'block-storage',
      'compute',
      'identity',
      'image',
      'network',
      'volumev3',
    ]);
    expect(byType.compute.name).toBe('nova');
    expect(byType.volumev3.name).toBe('cinderv3');
    for (const c of Object.values(byType) as {
      endpoints: { interface: string; region: string; region_id: string }[];
    }[]) {
      expect(c.endpoints.map((e) => e.interface).sort()).toEqual(['admin', 'internal', 'public']);
      for (const e of c.endpoints) expect([e.region, e.region_id]).toEqual(['RegionOne', 'RegionOne']);
    }
    expect(byType.compute.endpoints[0].url).toBe(`${tc.url}/compute/v2.1`);
    expect(byType['block-storage'].endpoints[0].url).toBe(`${tc.url}/volume/v3/${demo.projectId}`);
    expect(byType.volumev3.endpoints[0].url).toBe(`${tc.url}/volume/v3/${demo.projectId}`);
    expect(byType.identity.endpoints[0].url).toBe(`${tc.url}/identity/v3/`);
    expect(byType.image.endpoints[0].url).toBe(`${tc.url}/image`);
    expect(byType.network.name).toBe('neutron');
    expect(byType.network.endpoints[0].url).toBe(`${tc.url}/network`);
    // Another Host header gives other URLs: the catalog follows the client (fetch cannot set Host).
    const other = await rawPost(
      '/identity/v3/auth/tokens',
      { Host: 'cloud.example:8780' },
      passwordAuth(byName('demo', 'demo'), projectScope('demo')),
    );
    const compute = other.token.catalog.find((c: { type: string }) => c.type === 'compute');
    expect(compute?.endpoints[0]?.url).toBe('http://cloud.example:8780/compute/v2.1');
  });

  it('scopes by project id, by project name with a domain id, and authenticates a user by id', async () => {
    const byId = await issue(tc, passwordAuth(byName('demo', 'demo'), { project: { id: demo.projectId } }));
    expect(byId.status).toBe(201);
    expect(byId.body.token.project.id).toBe(demo.projectId);
    const byDomainId = await issue(
      tc,
      passwordAuth(
        { name: 'demo', domain: { id: 'default' }, password: 'demo' },
        {
          project: { name: 'demo', domain: { id: 'default' } },
        },
      ),
    );
    expect(byDomainId.status).toBe(201);
    expect(byDomainId.body.token.project.name).toBe('demo');
    const userById = await issue(
      tc,
      passwordAuth({ id: demo.userId, password: 'demo' }, projectScope('demo')),
    );
    expect(userById.status).toBe(201);
    expect(userById.body.token.user.name).toBe('demo');
  });

  it('gives the admin the admin role and its implied roles', async () => {
    const res = await validate(admin.token, admin.token);
    expect(res.body.token.roles.map((r: { name: string }) => r.name).sort()).toEqual([
      'admin',
      'member',
      'reader',
    ]);
  });

  it('issues an unscoped token without project, roles or catalog (no scope, or "unscoped")', async () => {
    for (const scope of [undefined, 'unscoped'] as const) {
      const res = await issue(tc, passwordAuth(byName('demo', 'demo'), scope));
      expect(res.status).toBe(201);
      expect(Object.keys(res.body.token)).toEqual([
        'methods',
        'user',
        'audit_ids',
        'expires_at',
        'issued_at',
      ]);
    }
  });

  it('answers every failed login with the same 401 and WWW-Authenticate (captures 69-72)', async () => {
    const failures = [
      passwordAuth(byName('demo', 'wrong'), projectScope('demo')),
      passwordAuth(byName('nosuchuser', 'demo'), projectScope('demo')),
      passwordAuth(byName('demo', 'demo'), projectScope('nosuchproject')),
      passwordAuth(byName('demo', 'demo'), projectScope('admin')),
      passwordAuth(byName('demo', 'demo'), { project: { id: 'nosuchid' } }),
      passwordAuth({ id: 'nosuchid', password: 'demo' }),
      passwordAuth({ name: 'demo', domain: { name: 'NoSuchDomain' }, password: 'demo' }),
      passwordAuth({ name: 'demo', domain: { id: 'default' } }),
      // Domain and system scopes need grants this cloud never makes.
      passwordAuth(byName('admin', 'admin'), { domain: { id: 'default' } }),
      passwordAuth(byName('admin', 'admin'), { system: { all: true } }),
    ];
    for (const body of failures) {
      const res = await issue(tc, body);
      expectKeystoneError(res, 401, AUTH_REQUIRED);
      expect(res.headers.get('www-authenticate')).toBe(`Keystone uri="${tc.url}/identity/v3"`);
      expect(res.headers.get('vary')).toBe('X-Auth-Token');
      expect(res.headers.get('x-subject-token')).toBeNull();
    }
  });

  it('scopes to the default project when none is asked for, unless "unscoped" is asked', async () => {
    await http(tc, 'PATCH', `/identity/v3/users/${demo.userId}`, {
      token: admin.token,
      body: { user: { default_project_id: demo.projectId } },
    });
    try {
      const res = await issue(tc, passwordAuth(byName('demo', 'demo')));
      expect(res.body.token.project.id).toBe(demo.projectId);
      const unscoped = await issue(tc, passwordAuth(byName('demo', 'demo'), 'unscoped'));
      expect(unscoped.body.token.project).toBeUndefined();
    } finally {
      await http(tc, 'PATCH', `/identity/v3/users/${demo.userId}`, {
        token: admin.token,
        body: { user: { default_project_id: null } },
      });
    }
  });
});

describe('malformed authentication requests (400)', () => {
  it('rejects a body that is not a JSON object', async () => {
    const message = `Expecting to find valid JSON in request body. ${NOT_COMPLY}`;
    expectKeystoneError(
      await http(tc, 'POST', '/identity/v3/auth/tokens', { rawBody: '{"auth": ' }),
      400,
      message,
    );
    expectKeystoneError(await http(tc, 'POST', '/identity/v3/auth/tokens', { rawBody: '[1]' }), 400, message);
    expectKeystoneError(
      await http(tc, 'POST', '/identity/v3/auth/tokens', {
        rawBody: '{}',
        headers: { 'Content-Type': 'text/plain' },
      }),
      400,
      `Expecting to find application/json in Content-Type header. ${NOT_COMPLY}`,
    );
  });

  it('reports schema errors as Keystone does: the field path, then jsonschema text', async () => {
    const missing = await issue(tc, { auth: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(
      /^'identity' is a required property\n\nFailed validating 'required' in schema:\n/,
    );
    const wrongType = await issue(tc, { auth: { identity: { methods: 'password' } } });
    expectKeystoneError(
      wrongType,
      400,
      "Invalid input for field 'identity/methods': 'password' is not of type 'array'\n\n" +
        "Failed validating 'type' in schema['properties']['identity']['properties']['methods']:\n" +
        "    {'items': {'type': 'string'}, 'type': 'array'}\n\n" +
        "On instance['identity']['methods']:\n    'password'",
    );
    expectKeystoneError(
      await issue(tc, passwordAuth({ password: 'x' })),
      400,
      'Invalid input for field identity/password/user: id or name must be present.',
    );
    expectKeystoneError(
      await issue(tc, passwordAuth(byName('demo', 'demo'), { project: { domain: { name: 'Default' } } })),
      400,
      'Invalid input for field scope/project: id or name must be present.',
    );
  });

  it('asks for the data of each method and for the domain of a name', async () => {
    expectKeystoneError(
      await issue(tc, { auth: { identity: { methods: ['password'] } } }),
      400,
      `Expecting to find password in identity. ${NOT_COMPLY}`,
    );
    expectKeystoneError(
      await issue(tc, passwordAuth({ name: 'demo', password: 'demo' })),
      400,
      `Expecting to find domain in user. ${NOT_COMPLY}`,
    );
    expectKeystoneError(
      await issue(tc, passwordAuth(byName('demo', 'demo'), { project: { name: 'demo' } })),
      400,
      `Expecting to find domain in project. ${NOT_COMPLY}`,
    );
    expectKeystoneError(
      await issue(
        tc,
        passwordAuth(byName('demo', 'demo'), { project: { id: demo.projectId }, domain: { id: 'default' } }),
      ),
      400,
      `Expecting to find system, project, domain, OS-TRUST:trust or unscoped in scope. ${NOT_COMPLY}`,
    );
  });

  it('refuses an auth method Keystone does not enable with its own 401 body', async () => {
    const res = await issue(tc, { auth: { identity: { methods: ['totp'], totp: {} } } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      error: {
        code: 401,
        identity: {
          methods: ['external', 'password', 'token', 'oauth1', 'mapped', 'application_credential'],
        },
        message: 'Attempted to authenticate with an unsupported method.',
        title: 'Unauthorized',
      },
    });
  });
});

describe('the token method (rescoping)', () => {
  it('rescopes an unscoped token to a project, keeping its expiry and audit chain', async () => {
    const unscoped = await issue(tc, passwordAuth(byName('demo', 'demo')));
    const original = unscoped.headers.get('x-subject-token') ?? '';
    const res = await issue(tc, {
      auth: {
        identity: { methods: ['token'], token: { id: original } },
        scope: { project: { id: demo.projectId } },
      },
    });
    expect(res.status).toBe(201);
    const t = res.body.token;
    expect(t.project.id).toBe(demo.projectId);
    expect(t.methods).toEqual(['token', 'password']);
    expect(t.expires_at).toBe(unscoped.body.token.expires_at);
    expect(t.audit_ids).toHaveLength(2);
    expect(t.audit_ids[1]).toBe(unscoped.body.token.audit_ids[0]);
  });

  it('rescopes a project token to another project the user was granted', async () => {
    const roles = await http(tc, 'GET', '/identity/v3/roles?name=member', { token: admin.token });
    const member = roles.body.roles[0].id;
    const grantPath = `/identity/v3/projects/${demo.projectId}/users/${admin.userId}/roles/${member}`;
    expect((await http(tc, 'PUT', grantPath, { token: admin.token })).status).toBe(204);
    const adminToken = await tokenFor(tc, passwordAuth(byName('admin', 'admin'), projectScope('admin')));
    const res = await issue(tc, {
      auth: { identity: { methods: ['token'], token: { id: adminToken } }, scope: projectScope('demo') },
    });
    expect(res.status).toBe(201);
    expect(res.body.token.project.name).toBe('demo');
    expect(res.body.token.roles.map((r: { name: string }) => r.name).sort()).toEqual(['member', 'reader']);
    expect((await http(tc, 'DELETE', grantPath, { token: admin.token })).status).toBe(204);
  });

  it('refuses a garbage, revoked or expired token, and a project the user has no role on', async () => {
    const rescope = (id: string, scope: unknown = { project: { id: demo.projectId } }) =>
      issue(tc, { auth: { identity: { methods: ['token'], token: { id } }, scope } });
    expectKeystoneError(await rescope('garbage'), 401, AUTH_REQUIRED);
    const t1 = await tokenFor(tc, passwordAuth(byName('demo', 'demo')));
    expectKeystoneError(await rescope(t1, projectScope('admin')), 401, AUTH_REQUIRED);
    await http(tc, 'DELETE', '/identity/v3/auth/tokens', { token: t1, headers: { 'X-Subject-Token': t1 } });
    expectKeystoneError(await rescope(t1), 401, AUTH_REQUIRED);
    const t2 = await tokenFor(tc, passwordAuth(byName('demo', 'demo')));
    await expireToken(tc, t2);
    expectKeystoneError(await rescope(t2), 401, AUTH_REQUIRED);
  });
});

describe('token validation, check and revocation', () => {
  it('validates with the full body and echoes X-Subject-Token; ?nocatalog leaves the catalog out', async () => {
    const subject = await tokenFor(tc, passwordAuth(byName('demo', 'demo'), projectScope('demo')));
    const res = await validate(demo.token, subject);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-subject-token')).toBe(subject);
    expect(res.body.token.catalog).toHaveLength(6);
    const noCatalog = await validate(demo.token, subject, '?nocatalog');
    expect(noCatalog.status).toBe(200);
    expect(noCatalog.body.token.catalog).toBeUndefined();
    expect(noCatalog.body.token.roles).toHaveLength(2);
  });

  it('checks with HEAD: 200, no body, the GET body length', async () => {
    const res = await http(tc, 'HEAD', '/identity/v3/auth/tokens', {
      token: demo.token,
      headers: { 'X-Subject-Token': demo.token },
    });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(res.headers.get('x-subject-token')).toBe(demo.token);
    const get = await validate(demo.token, demo.token);
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(get.text)));
  });

  it('answers a garbage subject and a missing one with Keystone 404s', async () => {
    expectKeystoneError(await validate(demo.token, 'garbage'), 404, 'Could not recognize Fernet token');
    expectKeystoneError(
      await http(tc, 'GET', '/identity/v3/auth/tokens', { token: admin.token }),
      404,
      'No token in the request',
    );
    expectKeystoneError(
      await http(tc, 'GET', '/identity/v3/auth/tokens', { token: demo.token }),
      403,
      forbiddenMessage('validate_token'),
    );
  });

  it("refuses another user's token to a member, allows it to an admin", async () => {
    expectKeystoneError(await validate(demo.token, admin.token), 403, forbiddenMessage('validate_token'));
    const head = await http(tc, 'HEAD', '/identity/v3/auth/tokens', {
      token: demo.token,
      headers: { 'X-Subject-Token': admin.token },
    });
    // HEAD has no body: only the status shows.
    expect(head.status).toBe(403);
    expectKeystoneError(
      await http(tc, 'DELETE', '/identity/v3/auth/tokens', {
        token: demo.token,
        headers: { 'X-Subject-Token': admin.token },
      }),
      403,
      forbiddenMessage('revoke_token'),
    );
    expect((await validate(admin.token, demo.token)).status).toBe(200);
  });

  it('revokes with 204; the token then fails validation (404) and every authenticated call (401)', async () => {
    const subject = await tokenFor(tc, passwordAuth(byName('demo', 'demo'), projectScope('demo')));
    const del = await http(tc, 'DELETE', '/identity/v3/auth/tokens', {
      token: demo.token,
      headers: { 'X-Subject-Token': subject },
    });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect(del.headers.get('content-type')).toBeNull();
    expectKeystoneError(await validate(demo.token, subject), 404, 'Failed to validate token');
    const head = await http(tc, 'HEAD', '/identity/v3/auth/tokens', {
      token: demo.token,
      headers: { 'X-Subject-Token': subject },
    });
    expect([head.status, head.text]).toEqual([404, '']);
    const after = await http(tc, 'GET', '/identity/v3/auth/projects', { token: subject });
    expectKeystoneError(after, 401, AUTH_REQUIRED);
    expect(after.headers.get('www-authenticate')).toBe(`Keystone uri="${tc.url}/identity/v3"`);
    expectKeystoneError(
      await http(tc, 'DELETE', '/identity/v3/auth/tokens', {
        token: demo.token,
        headers: { 'X-Subject-Token': subject },
      }),
      404,
      'Failed to validate token',
    );
  });

  it('treats an expired token as unknown: 401 as a caller, 404 as a subject', async () => {
    const t = await tokenFor(tc, passwordAuth(byName('demo', 'demo'), projectScope('demo')));
    await expireToken(tc, t);
    expectKeystoneError(
      await http(tc, 'GET', '/identity/v3/auth/projects', { token: t }),
      401,
      AUTH_REQUIRED,
    );
    expectKeystoneError(await validate(demo.token, t), 404, 'Failed to validate token');
  });

  it('answers 401 without a token, or with garbage', async () => {
    for (const token of [undefined, 'garbage']) {
      const res = await http(tc, 'GET', '/identity/v3/auth/projects', token ? { token } : {});
      expectKeystoneError(res, 401, AUTH_REQUIRED);
      expect(res.headers.get('vary')).toBe('X-Auth-Token');
    }
  });
});

describe('what a token may scope to, and its catalog', () => {
  it('lists the projects of the caller (capture 82), also for an unscoped token', async () => {
    const res = await http(tc, 'GET', '/identity/v3/auth/projects', { token: demo.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      projects: [
        {
          id: demo.projectId,
          name: 'demo',
          domain_id: 'default',
          description: '',
          enabled: true,
          parent_id: 'default',
          is_domain: false,
          tags: [],
          options: {},
          links: { self: `${tc.url}/identity/v3/projects/${demo.projectId}` },
        },
      ],
      links: { next: null, self: `${tc.url}/identity/v3/auth/projects`, previous: null },
    });
    const unscoped = await tokenFor(tc, passwordAuth(byName('demo', 'demo')));
    const again = await http(tc, 'GET', '/identity/v3/auth/projects', { token: unscoped });
    expect(again.body.projects.map((p: { id: string }) => p.id)).toEqual([demo.projectId]);
  });

  it("lists a user's projects for the user and for admins, refuses others (captures 83, 84)", async () => {
    const own = await http(tc, 'GET', `/identity/v3/users/${demo.userId}/projects`, { token: demo.token });
    expect(own.status).toBe(200);
    expect(own.body.projects.map((p: { name: string }) => p.name)).toEqual(['demo']);
    expect(own.body.links.self).toBe(`${tc.url}/identity/v3/users/${demo.userId}/projects`);
    expectKeystoneError(
      await http(tc, 'GET', `/identity/v3/users/${admin.userId}/projects`, { token: demo.token }),
      403,
      forbiddenMessage('list_user_projects'),
    );
    const byAdmin = await http(tc, 'GET', `/identity/v3/users/${demo.userId}/projects`, {
      token: admin.token,
    });
    expect(byAdmin.body.projects.map((p: { name: string }) => p.name)).toEqual(['demo']);
  });

  it('returns the catalog of a project token (capture 87), refuses an unscoped token', async () => {
    const res = await http(tc, 'GET', '/identity/v3/auth/catalog', { token: demo.token });
    expect(res.status).toBe(200);
    expect(res.body.links).toEqual({ self: `${tc.url}/identity/v3/auth/catalog` });
    expect(res.body.catalog.map((c: { type: string }) => c.type).sort()).toEqual([
      'block-storage',
      'compute',
      'identity',
      'image',
      'network',
      'volumev3',
    ]);
    const unscoped = await tokenFor(tc, passwordAuth(byName('demo', 'demo')));
    expectKeystoneError(
      await http(tc, 'GET', '/identity/v3/auth/catalog', { token: unscoped }),
      403,
      'You are not authorized to perform the requested action.',
    );
  });
});
