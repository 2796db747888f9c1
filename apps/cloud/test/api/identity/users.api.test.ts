import { describe, expect } from 'vitest';
import { http, login, type Session, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import {
  AUTH_REQUIRED,
  byName,
  expectKeystoneError,
  forbiddenMessage,
  issue,
  passwordAuth,
  projectScope,
  throwawayAccount,
} from './identity-helpers.js';

let tc: TestCloud;
let admin: Session;
let demo: Session;
const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  admin = adminSession;
  demo = demoSession;
});

const asAdmin = (method: string, path: string, body?: unknown) =>
  http(tc, method, `/identity/v3${path}`, { token: admin.token, ...(body !== undefined ? { body } : {}) });

describe('users', () => {
  it('creates a user with a password (201) and never shows the password', async () => {
    const res = await asAdmin('POST', '/users', {
      user: { name: 'alice', password: 's3cret', email: 'alice@example.com', description: 'Alice' },
    });
    expect(res.status).toBe(201);
    const u = res.body.user;
    expect(u).toEqual({
      email: 'alice@example.com',
      description: 'Alice',
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      name: 'alice',
      domain_id: 'default',
      enabled: true,
      password_expires_at: null,
      options: {},
      links: { self: `${tc.url}/identity/v3/users/${u.id}` },
    });
    expect(res.text).not.toContain('s3cret');
    expect(res.text).not.toContain('scrypt');
    const token = await issue(tc, passwordAuth(byName('alice', 's3cret')));
    expect(token.status).toBe(201);
  });

  it('lists users (with the name filter) and shows one', async () => {
    const all = await asAdmin('GET', '/users');
    expect(all.status).toBe(200);
    expect(all.body.users.map((u: { name: string }) => u.name)).toEqual(
      expect.arrayContaining(['admin', 'demo', 'alice']),
    );
    expect(all.body.links).toEqual({ next: null, self: `${tc.url}/identity/v3/users`, previous: null });
    expect(all.text).not.toContain('password_hash');
    const one = await asAdmin('GET', '/users?name=demo');
    expect(one.body.users).toHaveLength(1);
    expect(one.body.users[0]).toEqual({
      id: demo.userId,
      name: 'demo',
      domain_id: 'default',
      enabled: true,
      password_expires_at: null,
      options: {},
      links: { self: `${tc.url}/identity/v3/users/${demo.userId}` },
    });
    const show = await asAdmin('GET', `/users/${demo.userId}`);
    expect(show.body).toEqual({ user: one.body.users[0] });
    expect((await asAdmin('GET', '/users?name=nobody')).body.users).toEqual([]);
  });

  it('refuses a duplicate name with Keystone 409 and validates the body', async () => {
    expectKeystoneError(
      await asAdmin('POST', '/users', { user: { name: 'alice', password: 'x' } }),
      409,
      'Conflict occurred attempting to store user - Duplicate entry found with name alice at domain ID default.',
    );
    const bad = await asAdmin('POST', '/users', { user: { name: 'bob', password: 5 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(
      /^Invalid input for field 'password': 5 is not of type 'string', 'null'/,
    );
    expectKeystoneError(
      await asAdmin('POST', '/users', { user: { name: 'bob', domain_id: 'nosuch' } }),
      404,
      'Could not find domain: nosuch.',
    );
  });

  it('lets a user read themself but not others; 404 for admins on a missing user', async () => {
    const self = await http(tc, 'GET', `/identity/v3/users/${demo.userId}`, { token: demo.token });
    expect(self.status).toBe(200);
    expect(self.body.user.name).toBe('demo');
    expectKeystoneError(
      await http(tc, 'GET', `/identity/v3/users/${admin.userId}`, { token: demo.token }),
      403,
      forbiddenMessage('get_user'),
    );
    expectKeystoneError(await asAdmin('GET', '/users/nosuch'), 404, 'Could not find user: nosuch.');
  });

  it('changes a password with PATCH: old tokens end, the new password works', async () => {
    const acct = await throwawayAccount(tc, admin.token, 'pw');
    const session = await login(tc, acct.name, { password: acct.password, project: acct.name });
    const res = await asAdmin('PATCH', `/users/${acct.userId}`, {
      user: { password: 'newpass', email: 'n@example.com' },
    });
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe('n@example.com');
    expect(res.text).not.toContain('newpass');
    expectKeystoneError(
      await http(tc, 'GET', '/identity/v3/auth/projects', { token: session.token }),
      401,
      AUTH_REQUIRED,
    );
    expectKeystoneError(await issue(tc, passwordAuth(byName(acct.name, acct.password))), 401, AUTH_REQUIRED);
    expect(
      (await issue(tc, passwordAuth(byName(acct.name, 'newpass'), projectScope(acct.name)))).status,
    ).toBe(201);
  });

  it('disabling a user refuses logins and ends their tokens', async () => {
    const acct = await throwawayAccount(tc, admin.token, 'off');
    const session = await login(tc, acct.name, { password: acct.password, project: acct.name });
    expect(
      (await asAdmin('PATCH', `/users/${acct.userId}`, { user: { enabled: false } })).body.user.enabled,
    ).toBe(false);
    expect((await http(tc, 'GET', '/identity/v3/auth/projects', { token: session.token })).status).toBe(401);
    expectKeystoneError(await issue(tc, passwordAuth(byName(acct.name, acct.password))), 401, AUTH_REQUIRED);
  });

  it('renames with PATCH and refuses a taken name', async () => {
    const acct = await throwawayAccount(tc, admin.token, 'ren');
    const res = await asAdmin('PATCH', `/users/${acct.userId}`, { user: { name: 'renamed' } });
    expect(res.body.user.name).toBe('renamed');
    expectKeystoneError(
      await asAdmin('PATCH', `/users/${acct.userId}`, { user: { name: 'demo' } }),
      409,
      'Conflict occurred attempting to store user - Duplicate entry found with name demo.',
    );
    expectKeystoneError(
      await asAdmin('PATCH', '/users/nosuch', { user: { name: 'x' } }),
      404,
      'Could not find user: nosuch.',
    );
  });

  it('lets a user change their own password with the old one, without a token', async () => {
    const acct = await throwawayAccount(tc, admin.token, 'self');
    const path = `/identity/v3/users/${acct.userId}/password`;
    expectKeystoneError(
      await http(tc, 'POST', path, { body: { user: { original_password: 'wrong', password: 'x1' } } }),
      401,
      AUTH_REQUIRED,
    );
    const ok = await http(tc, 'POST', path, {
      body: { user: { original_password: acct.password, password: 'x1' } },
    });
    expect(ok.status).toBe(204);
    expect((await issue(tc, passwordAuth(byName(acct.name, 'x1')))).status).toBe(201);
  });

  it('deletes a user (204): assignments go, tokens stop validating, 404 afterwards', async () => {
    const acct = await throwawayAccount(tc, admin.token, 'del');
    const session = await login(tc, acct.name, { password: acct.password, project: acct.name });
    expect((await asAdmin('DELETE', `/users/${acct.userId}`)).status).toBe(204);
    expectKeystoneError(
      await http(tc, 'GET', '/identity/v3/auth/tokens', {
        token: admin.token,
        headers: { 'X-Subject-Token': session.token },
      }),
      404,
      'Failed to validate token',
    );
    expectKeystoneError(
      await asAdmin('GET', `/users/${acct.userId}`),
      404,
      `Could not find user: ${acct.userId}.`,
    );
    const left = await asAdmin('GET', `/role_assignments?user.id=${acct.userId}`);
    expect(left.body.role_assignments).toEqual([]);
    expectKeystoneError(
      await asAdmin('DELETE', `/users/${acct.userId}`),
      404,
      `Could not find user: ${acct.userId}.`,
    );
  });
});
