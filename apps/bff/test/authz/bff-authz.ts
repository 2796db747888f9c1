import { expect } from 'vitest';
import type { Role } from '../../../cloud/test/authz/authz-world.js';
import type { ApiClient, ApiResult, TestStack } from '../helpers/stack.js';

/**
 * Helpers for the BFF's authorization tests: what a cell expects, a raw request that sends
 * exactly the CSRF header it is given (or none), a look at an event stream without reading it
 * to the end, and every Keystone token the cloud hands out.
 */

export interface ApiExpect {
  status: number;
  /** The typed error's `code`. */
  code?: string;
  /** Its exact message, when it matters (the cloud's policy text). */
  message?: string;
}

export type ApiExpectations = Record<Role, ApiExpect>;

export const ok = (status: number): ApiExpect => ({ status });
export const signInFirst: ApiExpect = {
  status: 401,
  code: 'not_authenticated',
  message: 'Sign in to continue.',
};
/** The cloud's 403, passed on with its own words. */
export const cloudPolicy = (rule: string): ApiExpect => ({
  status: 403,
  code: 'forbidden',
  message: `Policy doesn't allow ${rule} to be performed.`,
});
/** The BFF's own refusal of an admin-only view. */
export const adminView = (message: string): ApiExpect => ({ status: 403, code: 'forbidden', message });
export const missing: ApiExpect = { status: 404, code: 'not_found' };

export const everyone = (status: number): ApiExpectations => ({
  anonymous: ok(status),
  reader: ok(status),
  member: ok(status),
  other: ok(status),
  admin: ok(status),
});
export const signedIn = (status: number): ApiExpectations => ({
  ...everyone(status),
  anonymous: signInFirst,
});
/** Demo's resource: the other project's member gets `stranger` (404), the reader `readerGets`. */
export const demos = (
  status: number,
  stranger: ApiExpect,
  readerGets: ApiExpect = ok(status),
): ApiExpectations => ({
  ...signedIn(status),
  reader: readerGets,
  other: stranger,
});

export function expectApi(res: ApiResult, want: ApiExpect, label: string): void {
  const got = {
    status: res.status,
    ...(want.code !== undefined ? { code: res.body?.error?.code } : {}),
    ...(want.message !== undefined ? { message: res.body?.error?.message } : {}),
  };
  expect(got, `${label}: ${res.text.slice(0, 300)}`).toEqual(want);
  if (want.status === 403 && want.message?.startsWith('Policy')) {
    // Typed, and saying where it came from: the cloud's own refusal.
    expect(res.body.error.details, label).toMatchObject({ status: 403, fault: 'forbidden' });
  }
}

/**
 * A request with exactly the CSRF header given (`null`: none at all), with the client's cookie.
 * The test client adds its own token otherwise, which is what these probes must avoid.
 */
export async function rawRequest(
  stack: TestStack,
  client: ApiClient,
  method: string,
  path: string,
  opts: { body?: unknown; csrf: string | null; contentType?: string; rawBody?: string },
): Promise<ApiResult> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (client.cookie) headers.Cookie = client.cookie;
  if (opts.csrf !== null) headers['X-CSRF-Token'] = opts.csrf;
  const body = opts.rawBody ?? (opts.body !== undefined ? JSON.stringify(opts.body) : undefined);
  if (body !== undefined) headers['Content-Type'] = opts.contentType ?? 'application/json';
  const res = await fetch(stack.bffUrl + path, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** Opens an event stream, keeps its status and headers and what arrived in `ms`, then hangs up. */
export async function peekStream(
  stack: TestStack,
  client: ApiClient,
  path: string,
  ms = 100,
): Promise<ApiResult> {
  const abort = new AbortController();
  const headers: Record<string, string> = { Accept: 'text/event-stream' };
  if (client.cookie) headers.Cookie = client.cookie;
  const res = await fetch(stack.bffUrl + path, { headers, signal: abort.signal });
  let text = '';
  if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
    const reader = res.body?.getReader();
    const decoder = new TextDecoder();
    const until = Date.now() + ms;
    while (reader && Date.now() < until) {
      const chunk = await Promise.race([
        reader.read(),
        new Promise<null>((r) => setTimeout(() => r(null), Math.max(1, until - Date.now()))),
      ]);
      if (!chunk || chunk.done) break;
      text += decoder.decode(chunk.value);
    }
    abort.abort();
  } else {
    text = await res.text();
  }
  let parsed: unknown;
  try {
    parsed = text && !text.startsWith('retry') ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/**
 * Records every token Keystone issues from now on (password logins, rescopes), by wrapping the
 * cloud's token service where its `/v3/auth/tokens` route calls it.
 */
export function captureIssuedTokens(stack: TestStack): Set<string> {
  const tokens = new Set<string>();
  const service = stack.cloud.cloud.identity.tokens;
  const authenticate = service.authenticate.bind(service);
  service.authenticate = async (body: unknown) => {
    const issued = await authenticate(body);
    tokens.add(issued.token);
    return issued;
  };
  return tokens;
}
