import { describe, expect } from 'vitest';
import { http, login, type Session, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { expectKeystoneError, throwawayAccount } from './identity-helpers.js';

let tc: TestCloud;
let admin: Session;
let demo: Session;
let roleIds: Record<string, string>;
const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  admin = adminSession;
  demo = demoSession;
  const roles = await http(tc, 'GET', '/identity/v3/roles', { token: admin.token });
  roleIds = Object.fromEntries(roles.body.roles.map((r: { name: string; id: string }) => [r.name, r.id]));
});

const asAdmin = (method: string, path: string) =>
  http(tc, method, `/identity/v3${path}`, { token: admin.token });
const grantPath = (p: string, u: string, r: string) => `/projects/${p}/users/${u}/roles/${r}`;

describe('role grants on projects', () => {
  it('grants (PUT 204, idempotent), checks (GET/HEAD 204), lists and revokes (DELETE 204)', async () => {
    const acct = await throwawayAccount(tc, admin.token, 'g');
    const path = grantPath(acct.projectId, acct.userId, roleIds.reader!);
    const put = await asAdmin('PUT', path);
    expect([put.status, put.text]).toEqual([204, '']);
    expect((await asAdmin('PUT', path)).status).toBe(204);
    expect((await asAdmin('GET', path)).status).toBe(204);
    expect((await asAdmin('HEAD', path)).status).toBe(204);

    const list = await asAdmin('GET', `/projects/${acct.projectId}/users/${acct.userId}/roles`);
    expect(list.status).toBe(200);
    expect(list.body.roles.map((r: { name: string }) => r.name).sort()).toEqual(['member', 'reader']);
    expect(list.body.roles[0]).toHaveProperty('links.self');
    expect(list.body.links.self).toBe(
      `${tc.url}/identity/v3/projects/${acct.projectId}/users/${acct.userId}/roles`,
    );

    expect((await asAdmin('DELETE', path)).status).toBe(204);
    expectKeystoneError(
      await asAdmin('GET', path),
      404,
      `Could not find role assignment with role: ${roleIds.reader}, user or group: ${acct.userId}, project, domain, or system: ${acct.projectId}.`,
    );
    expectKeystoneError(
      await asAdmin('DELETE', path),
      404,
      `Could not find role assignment with role: ${roleIds.reader}, user or group: ${acct.userId}, project, domain, or system: ${acct.projectId}.`,
    );
  });

  it('names the missing role, user or project, in that order, whoever asks', async () => {
    const member = roleIds.member!;
    expectKeystoneError(
      await asAdmin('PUT', grantPath('nop', 'nou', 'nor')),
      404,
      'Could not find role: nor.',
    );
    expectKeystoneError(
      await asAdmin('PUT', grantPath('nop', 'nou', member)),
      404,
      'Could not find user: nou.',
    );
    expectKeystoneError(
      await asAdmin('PUT', grantPath('nop', demo.userId, member)),
      404,
      'Could not find project: nop.',
    );
    expectKeystoneError(
      await http(tc, 'PUT', `/identity/v3${grantPath(demo.projectId, demo.userId, 'nor')}`, {
        token: demo.token,
      }),
      404,
      'Could not find role: nor.',
    );
  });

  it('revoking a grant ends the tokens of that user on that project', async () => {
    const acct = await throwawayAccount(tc, admin.token, 'rv');
    const session = await login(tc, acct.name, { password: acct.password, project: acct.name });
    expect((await asAdmin('DELETE', grantPath(acct.projectId, acct.userId, acct.memberRoleId))).status).toBe(
      204,
    );
    expect((await http(tc, 'GET', '/identity/v3/auth/projects', { token: session.token })).status).toBe(401);
    // Granted again, a new login works; the revoked token stays revoked.
    expect((await asAdmin('PUT', grantPath(acct.projectId, acct.userId, acct.memberRoleId))).status).toBe(
      204,
    );
    expect((await http(tc, 'GET', '/identity/v3/auth/projects', { token: session.token })).status).toBe(401);
    await login(tc, acct.name, { password: acct.password, project: acct.name });
  });
});

describe('GET /v3/role_assignments', () => {
  it('lists assignments with links, filtered by user.id, scope.project.id and role.id', async () => {
    const all = await asAdmin('GET', '/role_assignments');
    expect(all.status).toBe(200);
    expect(all.body.links).toEqual({
      next: null,
      self: `${tc.url}/identity/v3/role_assignments`,
      previous: null,
    });
    const mine = await asAdmin('GET', `/role_assignments?user.id=${demo.userId}`);
    expect(mine.body.role_assignments).toEqual([
      {
        links: {
          assignment: `${tc.url}/identity/v3/projects/${demo.projectId}/users/${demo.userId}/roles/${roleIds.member}`,
        },
        role: { id: roleIds.member },
        scope: { project: { id: demo.projectId } },
        user: { id: demo.userId },
      },
    ]);
    const onAdminProject = await asAdmin('GET', `/role_assignments?scope.project.id=${admin.projectId}`);
    expect(onAdminProject.body.role_assignments.map((a: { user: { id: string } }) => a.user.id)).toEqual([
      admin.userId,
    ]);
    const admins = await asAdmin('GET', `/role_assignments?role.id=${roleIds.admin}`);
    expect(admins.body.role_assignments).toHaveLength(1);
    const none = await asAdmin('GET', `/role_assignments?user.id=${demo.userId}&role.id=${roleIds.admin}`);
    expect(none.body.role_assignments).toEqual([]);
  });

  it('adds names and domains with include_names', async () => {
    const res = await asAdmin('GET', `/role_assignments?user.id=${demo.userId}&include_names`);
    expect(res.body.role_assignments[0]).toEqual({
      links: {
        assignment: `${tc.url}/identity/v3/projects/${demo.projectId}/users/${demo.userId}/roles/${roleIds.member}`,
      },
      role: { id: roleIds.member, name: 'member' },
      scope: { project: { id: demo.projectId, name: 'demo', domain: { id: 'default', name: 'Default' } } },
      user: { id: demo.userId, name: 'demo', domain: { id: 'default', name: 'Default' } },
    });
    const off = await asAdmin('GET', `/role_assignments?user.id=${demo.userId}&include_names=0`);
    expect(off.body.role_assignments[0].user).toEqual({ id: demo.userId });
  });
});
