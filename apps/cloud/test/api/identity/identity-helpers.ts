import { expect } from 'vitest';
import { type HttpResult, http, type RequestOptions, type TestCloud } from '../../helpers/cloud.js';

/** Keystone's `{"error": {...}}` fault with its exact message. */
export function expectKeystoneError(res: HttpResult, code: number, message: string): void {
  const titles: Record<number, string> = {
    400: 'Bad Request',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    405: 'Method Not Allowed',
    409: 'Conflict',
  };
  expect({ status: res.status, body: res.body }).toEqual({
    status: code,
    body: { error: { code, message, title: titles[code] } },
  });
}

export const forbiddenMessage = (action: string) =>
  `You are not authorized to perform the requested action: identity:${action}.`;

export const AUTH_REQUIRED = 'The request you have made requires authentication.';

export const NOT_COMPLY =
  'The server could not comply with the request since it is either malformed or otherwise incorrect. The client is assumed to be in error.';

type Scope = Record<string, unknown> | 'unscoped' | undefined;

/** A password auth request; `user` is sent as given (name+domain or id). */
export function passwordAuth(
  user: Record<string, unknown>,
  scope?: Scope,
): { auth: Record<string, unknown> } {
  return {
    auth: {
      identity: { methods: ['password'], password: { user } },
      ...(scope !== undefined ? { scope } : {}),
    },
  };
}

export const byName = (name: string, password: string) => ({ name, domain: { name: 'Default' }, password });

export const projectScope = (name: string) => ({ project: { name, domain: { name: 'Default' } } });

export async function issue(tc: TestCloud, body: unknown): Promise<HttpResult> {
  return http(tc, 'POST', '/identity/v3/auth/tokens', { body });
}

/** Issues a token and returns its text (fails the test on anything but 201). */
export async function tokenFor(tc: TestCloud, body: unknown): Promise<string> {
  const res = await issue(tc, body);
  expect(res.status, res.text).toBe(201);
  return res.headers.get('x-subject-token') ?? '';
}

/** An admin-made project, user (with password) and member grant: a throwaway account. */
export async function throwawayAccount(
  tc: TestCloud,
  adminToken: string,
  suffix: string,
): Promise<{ projectId: string; userId: string; memberRoleId: string; name: string; password: string }> {
  const name = `tmp-${suffix}`;
  const password = `pw-${suffix}`;
  const opts = (body: unknown): RequestOptions => ({ token: adminToken, body });
  const p = await http(
    tc,
    'POST',
    '/identity/v3/projects',
    opts({ project: { name, domain_id: 'default' } }),
  );
  expect(p.status, p.text).toBe(201);
  const u = await http(
    tc,
    'POST',
    '/identity/v3/users',
    opts({ user: { name, password, domain_id: 'default' } }),
  );
  expect(u.status, u.text).toBe(201);
  const roles = await http(tc, 'GET', '/identity/v3/roles?name=member', { token: adminToken });
  const memberRoleId = roles.body.roles[0].id as string;
  const g = await http(
    tc,
    'PUT',
    `/identity/v3/projects/${p.body.project.id}/users/${u.body.user.id}/roles/${memberRoleId}`,
    { token: adminToken },
  );
  expect(g.status, g.text).toBe(204);
  return { projectId: p.body.project.id, userId: u.body.user.id, memberRoleId, name, password };
}

/** Moves a token's expiry into the past, through the store (tokens are kept by sha256). */
export async function expireToken(tc: TestCloud, token: string): Promise<void> {
  const { createHash } = await import('node:crypto');
  const id = createHash('sha256').update(token).digest('hex');
  await tc.cloud.deps.store.db
    .updateTable('tokens')
    .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
    .where('id', '=', id)
    .execute();
}
