import type { ApiErrorCode } from '@sv/shared';
import { ApiError } from '../platform/errors.js';

/** What an OpenStack service answered when it refused, before the BFF translates it. */
export class OpenStackFault extends Error {
  constructor(
    readonly service: string,
    readonly status: number,
    message: string,
    readonly faultName: string | null,
    readonly requestId: string | null,
  ) {
    super(message);
    this.name = 'OpenStackFault';
  }
}

/** Reads Nova/Cinder `{"badRequest": {"code", "message"}}`, Keystone `{"error": {...}}` or webob bodies. */
export function faultFromBody(
  service: string,
  status: number,
  body: unknown,
  requestId: string | null,
): OpenStackFault {
  let message = `The ${service} service answered ${status}.`;
  let name: string | null = null;
  if (body && typeof body === 'object') {
    const entries = Object.entries(body as Record<string, unknown>);
    const [key, value] = entries[0] ?? [];
    if (entries.length === 1 && key && value && typeof value === 'object' && 'message' in value) {
      name = key;
      message = String((value as { message: unknown }).message);
    } else if ('message' in body) {
      message = String((body as { message: unknown }).message).replace(/<br \/>[\s\S]*$/, '');
    }
  }
  return new OpenStackFault(service, status, message, name, requestId);
}

const CODES: Record<number, ApiErrorCode> = {
  400: 'cloud_rejected',
  401: 'session_expired',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'over_limit',
  415: 'cloud_rejected',
};

/** A fault as the web app sees it: the cloud's own message, a stable code, where it came from. */
export function toApiError(fault: OpenStackFault): ApiError {
  const details = {
    service: fault.service,
    status: fault.status,
    fault: fault.faultName,
    requestId: fault.requestId,
  };
  if (fault.status === 401)
    return new ApiError(401, 'session_expired', 'Your session has expired. Sign in again.', details);
  // The service says "not now" (its database is away): the web app may try again, as it would
  // for an unreachable cloud.
  if (fault.status === 503) {
    return new ApiError(
      503,
      'cloud_unavailable',
      `The ${fault.service} service is unavailable right now. Try again in a moment.`,
      details,
    );
  }
  if (fault.status >= 500) {
    return new ApiError(502, 'cloud_error', `The ${fault.service} service failed: ${fault.message}`, details);
  }
  return new ApiError(fault.status, CODES[fault.status] ?? 'cloud_rejected', fault.message, details);
}

/**
 * The cloud did not answer. Which address and which socket error is for the log (http.ts writes it
 * with the request id; the cause rides along for other loggers), not for the browser: people get what
 * happened and the id to quote.
 */
export function cloudUnreachable(service: string, cause?: unknown): ApiError {
  const err = new ApiError(
    503,
    'cloud_unreachable',
    'The cloud cannot be reached right now. Try again in a moment.',
    { service },
  );
  if (cause !== undefined) Object.defineProperty(err, 'cause', { value: cause, enumerable: false });
  return err;
}
