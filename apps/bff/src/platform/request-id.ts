import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Logger } from './logger.js';

/**
 * Every request the BFF serves has an id: the caller's `X-Request-Id` when it is sane (a load balancer
 * or proxy in front may have set one), else a new `req-<uuid>`. It is on the answer, in the error body,
 * on every log line of the request, and, as `X-OpenStack-Request-ID`, on every call to the cloud made
 * for it, which OpenStack services log as the global request id next to their own.
 */

export const REQUEST_ID_HEADER = 'X-Request-Id';
export const OPENSTACK_REQUEST_ID_HEADER = 'X-OpenStack-Request-ID';

/** Bounded and made of characters that cannot break a log line or a header. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@=+/-]{1,128}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** oslo.middleware ignores any global request id not of this form. */
const OPENSTACK_REQUEST_ID = /^req-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const newRequestId = (): string => `req-${randomUUID()}`;

/** The caller's id if it is one we can pass on safely; null means "make one". */
export function acceptedRequestId(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && SANE_REQUEST_ID.test(value) ? value : null;
}

/**
 * The id to send OpenStack for a request: the request id itself when OpenStack accepts it as a global
 * id (always, for ids the BFF made), a caller's bare UUID with the `req-` prefix, else a new one (the
 * access line then carries both).
 */
export function openstackRequestIdFor(requestId: string): string {
  const lower = requestId.toLowerCase();
  if (OPENSTACK_REQUEST_ID.test(lower)) return lower;
  if (UUID.test(lower)) return `req-${lower}`;
  return newRequestId();
}

export interface RequestScope {
  requestId: string;
  openstackRequestId: string;
  /** The request's logger: every line carries the request id. */
  log: Logger;
}

const scopes = new AsyncLocalStorage<RequestScope>();

/** The request being served, wherever in its async work this runs; undefined in background work. */
export const currentRequest = (): RequestScope | undefined => scopes.getStore();

export const runInRequest = <T>(scope: RequestScope, fn: () => T): T => scopes.run(scope, fn);

/** Runs `fn` as work of no request (a poller started by one request but serving many). */
export const outsideRequest = <T>(fn: () => T): T => scopes.exit(fn);

/** A scope of its own for background work (one look of a poller): its calls and lines share a new id. */
export function backgroundScope(log: Logger, task: string): RequestScope {
  const requestId = newRequestId();
  return { requestId, openstackRequestId: requestId, log: log.child({ requestId, task }) };
}
