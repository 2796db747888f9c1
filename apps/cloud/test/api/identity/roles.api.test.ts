import { describe, expect } from 'vitest';
import { http, login, type Session, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { expectKeystoneError, throwawayAccount } from './identity-helpers.js';

let tc: TestCloud;
let admin: Session;
const it = cloudTest();
it.beforeAll(async ({ tc: cloud, admin: adminSession }) => {
  tc = cloud;
  admin = adminSession;
});

const asAdmin = (method: string, path: string, body?: unknown) =>
  http(tc, method, `/identity/v3${path}`, { token: admin.token, ...(body !== undefined ? { body } : {}) });

describe('roles', () => {
  it('lists the bootstrap roles, immutable, and the service role', async () => {
    const res = await asAdmin('GET', '/roles');
    expect(res.status).toBe(200);
    const byName = Object.fromEntries(res.body.roles.map((r: { name: string }) => [r.name, r]));
    expect(Object.keys(byName).sort()).toEqual(['admin', 'member', 'reader', 'service']);
    expect(byName.admin).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      name: 'admin',
      domain_id: null,
      description: null,
      options: { immutable: true },
      links: { self: `${tc.url}/identity/v3/roles/${byName.admin.id}` },
    });
    expect(byName.service.options).toEqual({});
    const filtered = await asAdmin('GET', '/roles?name=reader');
    expect(filtered.body.roles.map((r: { name: string }) => r.name)).toEqual(['reader']);
    expect(filtered.body.links.self).toBe(`${tc.url}/identity/v3/roles?name=reader`);
  });

  it('creates (201), shows, renames and deletes (204) a role', async () => {
    const res = await asAdmin('POST', '/roles', { role: { name: 'observer', description: 'looks' } });
    expect(res.status).toBe(201);
    const role = res.body.role;
    expect(role).toMatchObject({ name: 'observer', description: 'looks', domain_id: null, options: {} });
    expect((await asAdmin('GET', `/roles/${role.id}`)).body).toEqual({ role });
    const renamed = await asAdmin('PATCH', `/roles/${role.id}`, { role: { name: 'watcher' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.role.name).toBe('watcher');
    expect((await asAdmin('DELETE', `/roles/${role.id}`)).status).toBe(204);
    expectKeystoneError(await asAdmin('GET', `/roles/${role.id}`), 404, `Could not find role: ${role.id}.`);
    expectKeystoneError(
      await asAdmin('DELETE', `/roles/${role.id}`),
      404,
      `Could not find role: ${role.id}.`,
    );
  });

  it('refuses a duplicate name, a bad body and deleting an immutable role', async () => {
    expectKeystoneError(
      await asAdmin('POST', '/roles', { role: { name: 'member' } }),
      409,
      'Conflict occurred attempting to store role - Duplicate entry found with name member.',
    );
    const bad = await asAdmin('POST', '/roles', { role: { name: '' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^Invalid input for field 'name': '' is too short/);
    const reader = (await asAdmin('GET', '/roles?name=reader')).body.roles[0];
    expectKeystoneError(
      await asAdmin('DELETE', `/roles/${reader.id}`),
      403,
      `Unable to delete immutable role resource: \`${reader.id}. Set resource option "immutable" to false first.`,
    );
    expectKeystoneError(
      await asAdmin('PATCH', `/roles/${reader.id}`, { role: { description: 'x' } }),
      403,
      `Unable to update immutable role resource: \`${reader.id}. Set resource option "immutable" to false first.`,
    );
  });

  it('deleting a role removes its grants, and the tokens that relied on them', async () => {
    const acct = await throwawayAccount(tc, admin.token, 'role');
    const extra = (await asAdmin('POST', '/roles', { role: { name: 'extra' } })).body.role;
    await asAdmin('DELETE', `/projects/${acct.projectId}/users/${acct.userId}/roles/${acct.memberRoleId}`);
    expect(
      (await asAdmin('PUT', `/projects/${acct.projectId}/users/${acct.userId}/roles/${extra.id}`)).status,
    ).toBe(204);
    const session = await login(tc, acct.name, { password: acct.password, project: acct.name });
    expect((await http(tc, 'GET', '/identity/v3/auth/projects', { token: session.token })).status).toBe(200);
    expect((await asAdmin('DELETE', `/roles/${extra.id}`)).status).toBe(204);
    expect((await http(tc, 'GET', '/identity/v3/auth/projects', { token: session.token })).status).toBe(401);
    expect((await asAdmin('GET', `/role_assignments?role.id=${extra.id}`)).body.role_assignments).toEqual([]);
  });
});
