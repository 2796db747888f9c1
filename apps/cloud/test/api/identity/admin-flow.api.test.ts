import { describe, expect } from 'vitest';
import { http, login, type Session, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { AUTH_REQUIRED, expectKeystoneError, forbiddenMessage } from './identity-helpers.js';

let tc: TestCloud;
let admin: Session;
let demo: Session;
let memberRoleId: string;
const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  admin = adminSession;
  demo = demoSession;
  const roles = await http(tc, 'GET', '/identity/v3/roles?name=member', { token: admin.token });
  memberRoleId = roles.body.roles[0].id;
});

describe('a throwaway account, end to end', () => {
  it('admin makes a project and a user, grants member; the user logs in; deleting the user ends its token', async () => {
    const a = (method: string, path: string, body?: unknown) =>
      http(tc, method, `/identity/v3${path}`, {
        token: admin.token,
        ...(body !== undefined ? { body } : {}),
      });

    const project = await a('POST', '/projects', {
      project: { name: 'tempest-p1', domain_id: 'default', enabled: true },
    });
    expect(project.status).toBe(201);
    const pid = project.body.project.id;
    const user = await a('POST', '/users', {
      user: { name: 'tempest-u1', password: 'tp-1', domain_id: 'default', default_project_id: pid },
    });
    expect(user.status).toBe(201);
    expect(user.body.user.default_project_id).toBe(pid);
    const uid = user.body.user.id;
    expect((await a('PUT', `/projects/${pid}/users/${uid}/roles/${memberRoleId}`)).status).toBe(204);

    const session = await login(tc, 'tempest-u1', { password: 'tp-1', project: 'tempest-p1' });
    expect(session.projectId).toBe(pid);
    const mine = await http(tc, 'GET', '/identity/v3/auth/projects', { token: session.token });
    expect(mine.status).toBe(200);
    expect(mine.body.projects.map((p: { id: string }) => p.id)).toEqual([pid]);
    const own = await http(tc, 'GET', `/identity/v3/projects/${pid}`, { token: session.token });
    expect(own.body.project.name).toBe('tempest-p1');
    const self = await http(tc, 'GET', `/identity/v3/users/${uid}`, { token: session.token });
    expect(self.body.user.name).toBe('tempest-u1');

    expect((await a('DELETE', `/users/${uid}`)).status).toBe(204);
    expectKeystoneError(
      await http(tc, 'GET', '/identity/v3/auth/tokens', {
        token: admin.token,
        headers: { 'X-Subject-Token': session.token },
      }),
      404,
      'Failed to validate token',
    );
    expectKeystoneError(
      await http(tc, 'GET', '/identity/v3/auth/projects', { token: session.token }),
      401,
      AUTH_REQUIRED,
    );

    // Deleting the project ends the tokens scoped to it too.
    const u2 = await a('POST', '/users', { user: { name: 'tempest-u2', password: 'tp-2' } });
    await a('PUT', `/projects/${pid}/users/${u2.body.user.id}/roles/${memberRoleId}`);
    const s2 = await login(tc, 'tempest-u2', { password: 'tp-2', project: 'tempest-p1' });
    expect((await a('DELETE', `/projects/${pid}`)).status).toBe(204);
    expectKeystoneError(
      await http(tc, 'GET', '/identity/v3/auth/projects', { token: s2.token }),
      401,
      AUTH_REQUIRED,
    );
    expect((await a('GET', `/role_assignments?scope.project.id=${pid}`)).body.role_assignments).toEqual([]);
  });
});

describe('a member is refused every admin call with the policy action', () => {
  const cases: [string, () => string, string, unknown?][] = [
    ['GET', () => '/projects', 'list_projects'],
    ['POST', () => '/projects', 'create_project', { project: { name: 'x' } }],
    ['PATCH', () => `/projects/${demo.projectId}`, 'update_project', { project: { description: 'x' } }],
    ['DELETE', () => `/projects/${demo.projectId}`, 'delete_project'],
    ['GET', () => `/projects/${admin.projectId}`, 'get_project'],
    ['GET', () => '/users', 'list_users'],
    ['POST', () => '/users', 'create_user', { user: { name: 'x' } }],
    ['GET', () => `/users/${admin.userId}`, 'get_user'],
    ['PATCH', () => `/users/${demo.userId}`, 'update_user', { user: { description: 'x' } }],
    ['DELETE', () => `/users/${admin.userId}`, 'delete_user'],
    ['GET', () => '/roles', 'list_roles'],
    ['POST', () => '/roles', 'create_role', { role: { name: 'x' } }],
    ['GET', () => `/roles/${memberRoleId}`, 'get_role'],
    ['PATCH', () => `/roles/${memberRoleId}`, 'update_role', { role: { description: 'x' } }],
    ['DELETE', () => `/roles/${memberRoleId}`, 'delete_role'],
    ['PUT', () => `/projects/${demo.projectId}/users/${demo.userId}/roles/${memberRoleId}`, 'create_grant'],
    ['GET', () => `/projects/${demo.projectId}/users/${demo.userId}/roles/${memberRoleId}`, 'check_grant'],
    [
      'DELETE',
      () => `/projects/${demo.projectId}/users/${demo.userId}/roles/${memberRoleId}`,
      'revoke_grant',
    ],
    ['GET', () => `/projects/${demo.projectId}/users/${demo.userId}/roles`, 'list_grants'],
    ['GET', () => '/role_assignments', 'list_role_assignments'],
    ['GET', () => '/domains', 'list_domains'],
    ['GET', () => `/users/${admin.userId}/projects`, 'list_user_projects'],
  ];
  it.each(cases)('%s %s → 403 identity:%s', async (method, path, action, body) => {
    const res = await http(tc, method, `/identity/v3${path()}`, {
      token: demo.token,
      ...(body !== undefined ? { body } : {}),
    });
    expectKeystoneError(res, 403, forbiddenMessage(action));
    expect(res.headers.get('vary')).toBe('X-Auth-Token');
  });

  it('and policy comes before validation: a member with a bad body still gets 403', async () => {
    const res = await http(tc, 'POST', '/identity/v3/projects', {
      token: demo.token,
      body: { project: { name: 5 } },
    });
    expectKeystoneError(res, 403, forbiddenMessage('create_project'));
  });

  it('an unscoped token has no roles: refused as well', async () => {
    const res = await http(tc, 'POST', '/identity/v3/auth/tokens', {
      body: {
        auth: {
          identity: {
            methods: ['password'],
            password: { user: { name: 'admin', domain: { name: 'Default' }, password: 'admin' } },
          },
        },
      },
    });
    const token = res.headers.get('x-subject-token') ?? '';
    expectKeystoneError(
      await http(tc, 'GET', '/identity/v3/projects', { token }),
      403,
      forbiddenMessage('list_projects'),
    );
  });
});
