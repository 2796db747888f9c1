import { type ApiErrorCode, apiErrorSchema } from '@sv/shared';
import type { z } from 'zod';
import { connectivity } from './connectivity';

/**
 * What a failed call can say: one of the BFF's codes (the shared contract), `network` when the BFF
 * did not answer, `http_error` when something else (a proxy) answered without the BFF's error body.
 */
export type RequestErrorCode = ApiErrorCode | 'network' | 'http_error';

/**
 * An error the BFF returned: the code to branch on, the message to show, field details, and the
 * request id that leads to the BFF's and the cloud's log lines (shown for people to quote).
 */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: RequestErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly requestId?: string,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }

  /** Field-level messages from the BFF's validation, keyed by field path. */
  get fields(): Record<string, string> {
    const f = this.details?.fields;
    return f && typeof f === 'object' ? (f as Record<string, string>) : {};
  }
}

let csrfToken: string | null = null;
export const setCsrfToken = (token: string | null) => {
  csrfToken = token;
};

/**
 * A failure that asking again later may cure: no answer at all (status 0), or the BFF or a proxy
 * saying the part behind it did not answer or failed (502, 503, 504).
 */
export const isTransient = (err: unknown): boolean =>
  err instanceof ApiRequestError &&
  (err.status === 0 || err.status === 502 || err.status === 503 || err.status === 504);

/**
 * Hooks the app sets. `onSessionEnded` runs when the BFF says the session is gone (expired, revoked,
 * signed out in another tab); it returns true when the app asks the user to sign in again, and then
 * must call `sessionGate.settle` once they have (or have given up).
 */
export const apiEvents = { onSessionEnded: (): boolean => false };

let reauth: { promise: Promise<boolean>; resolve: (sameIdentity: boolean) => void } | null = null;

/**
 * Requests that meet an ended session wait here while the user signs in again, then run again once
 * (the BFF refused them before doing anything, so running them again is safe). They fail with the
 * original 401 when the user signs in as someone else, in another project, or gives up.
 */
export const sessionGate = {
  settle(sameIdentity: boolean) {
    const pending = reauth;
    reauth = null;
    pending?.resolve(sameIdentity);
  },
  get waiting() {
    return reauth !== null;
  },
};

function waitForSignIn(): Promise<boolean> {
  if (reauth) return reauth.promise;
  let resolve: (same: boolean) => void = () => undefined;
  const promise = new Promise<boolean>((r) => {
    resolve = r;
  });
  reauth = { promise, resolve };
  if (!apiEvents.onSessionEnded()) {
    reauth = null;
    return Promise.resolve(false);
  }
  return promise;
}

export async function api<S extends z.ZodType>(
  method: string,
  path: string,
  schema: S | null,
  body?: unknown,
): Promise<z.infer<S>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  } catch {
    connectivity.reportFailure();
    throw new ApiRequestError(
      0,
      'network',
      'The dashboard server cannot be reached. Check your connection and try again.',
    );
  }
  const text = await res.text();
  const data: unknown = text ? safeJson(text) : undefined;
  if (!res.ok) {
    const parsed = apiErrorSchema.safeParse(data);
    const requestId =
      (parsed.success ? parsed.data.error.requestId : undefined) ?? res.headers.get('x-request-id');
    const err = parsed.success
      ? new ApiRequestError(
          res.status,
          parsed.data.error.code,
          parsed.data.error.message,
          parsed.data.error.details,
          requestId ?? undefined,
        )
      : new ApiRequestError(
          res.status,
          'http_error',
          `The request failed (${res.status}).`,
          undefined,
          requestId ?? undefined,
        );
    if (res.status === 401 && path !== '/api/session') {
      if (await waitForSignIn()) return api(method, path, schema, body);
    }
    if (isTransient(err)) connectivity.reportFailure();
    throw err;
  }
  if (!schema) return undefined as z.infer<S>;
  return schema.parse(data);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
