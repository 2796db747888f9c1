import { expect } from 'vitest';
import type { HttpResult } from '../helpers/cloud.js';
import type { Role } from './authz-world.js';

/**
 * What one cell of the authorization table expects: a status and, for a refusal, the fault's key
 * (`forbidden`, `itemNotFound`, `badRequest`; `error` for Keystone's format) and exact message.
 */
export interface Expect {
  status: number;
  fault?: { key: string; message: string };
}

export type Expectations = Record<Role, Expect>;

export const AUTH_REQUIRED = 'The request you have made requires authentication.';

export const pass = (status: number): Expect => ({ status });

/** oslo.policy's refusal as Nova and Cinder word it (captures 105, 180, 275, 286). */
export const policy = (rule: string): Expect => ({
  status: 403,
  fault: { key: 'forbidden', message: `Policy doesn't allow ${rule} to be performed.` },
});

/** Keystone's ForbiddenAction (captures 84, 85). */
export const keystonePolicy = (action: string): Expect => ({
  status: 403,
  fault: {
    key: 'error',
    message: `You are not authorized to perform the requested action: identity:${action}.`,
  },
});

export const notFound = (message: string): Expect => ({
  status: 404,
  fault: { key: 'itemNotFound', message },
});

export const instanceNotFound = (id: string) => notFound(`Instance ${id} could not be found.`);
export const volumeNotFound = (id: string) => notFound(`Volume ${id} could not be found.`);
export const snapshotNotFound = (id: string) => notFound(`Snapshot ${id} could not be found.`);
export const attachmentNotFound = (id: string) =>
  notFound(`Volume attachment could not be found with filter: attachment_id = ${id}.`);

/** Cinder's wsgi check of the URL's project against the token's (capture 38). */
export const MALFORMED_URL: Expect = {
  status: 400,
  fault: { key: 'badRequest', message: 'Malformed request url' },
};

/** The anonymous column: refused with a 401, or, for public routes, answered like anyone. */
const refused: Expect = { status: 401, fault: { key: 'error', message: AUTH_REQUIRED } };

/** Needs no token: everyone, anonymous included, gets the same answer. */
export const everyone = (status: number): Expectations => ({
  anonymous: pass(status),
  reader: pass(status),
  member: pass(status),
  other: pass(status),
  admin: pass(status),
});

/** Any project-scoped token. */
export const anyToken = (status: number): Expectations => ({ ...everyone(status), anonymous: refused });

/**
 * A resource of project demo (or demo's user, for identity), probed by each role: the reader and the
 * member own it, the admin sees everything, the other project's member gets `stranger`.
 */
export const demosToRead = (status: number, stranger: Expect): Expectations => ({
  ...anyToken(status),
  other: stranger,
});

/** A change to a resource of project demo: the reader is refused `rule`, the stranger `stranger`. */
export const demosToChange = (status: number, rule: string, stranger: Expect): Expectations => ({
  ...demosToRead(status, stranger),
  reader: policy(rule),
});

/** Creating in one's own project: only the reader is refused. */
export const ownToCreate = (status: number, rule: string): Expectations => ({
  ...anyToken(status),
  reader: policy(rule),
});

/** Admin-only: every non-admin gets `refusal`; the admin `admin` (a status, or a whole answer). */
export const adminOnly = (admin: number | Expect, refusal: Expect): Expectations => ({
  anonymous: refused,
  reader: refusal,
  member: refusal,
  other: refusal,
  admin: typeof admin === 'number' ? pass(admin) : admin,
});

/** The fault's key and message, in Nova/Cinder's `{"<key>": {...}}` or Keystone's `{"error": {...}}`. */
export function faultOf(body: unknown): { key: string; message: unknown } | null {
  if (!body || typeof body !== 'object') return null;
  const entries = Object.entries(body as Record<string, unknown>);
  if (entries.length !== 1) return null;
  const [key, value] = entries[0] as [string, unknown];
  if (!value || typeof value !== 'object' || !('message' in value)) return null;
  return { key, message: (value as { message: unknown }).message };
}

/** Checks one answer against its cell; `label` names the cell in a failure. */
export function expectCell(res: HttpResult, want: Expect, label: string): void {
  const got = { status: res.status, fault: want.fault ? faultOf(res.body) : undefined };
  expect(got, `${label}: ${res.text.slice(0, 300)}`).toEqual({
    status: want.status,
    fault: want.fault,
  });
  if (want.status === 401) {
    // keystonemiddleware's (or Keystone's) 401: Keystone's error body and where to authenticate.
    expect(res.body, label).toEqual({ error: { code: 401, title: 'Unauthorized', message: AUTH_REQUIRED } });
    expect(res.headers.get('www-authenticate'), label).toMatch(
      /^Keystone uri="http:\/\/[^"]+\/identity\/v3"$/,
    );
    expect(res.headers.get('openstack-api-version'), label).toBeNull();
  }
}
