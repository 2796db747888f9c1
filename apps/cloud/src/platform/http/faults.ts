import type { ErrorRequestHandler, Response } from 'express';
import { type DatabaseFault, databaseFault, describeDatabaseError } from '../db/unavailable.js';
import type { Logger } from '../logger.js';
import { OpenStackError, WEBOB_BAD_REQUEST } from './errors.js';

/** Nova's `Fault._fault_names`; Cinder uses the same table. Other codes become computeFault. */
const NOVA_FAULT_NAMES: Record<number, string> = {
  400: 'badRequest',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'itemNotFound',
  405: 'badMethod',
  409: 'conflictingRequest',
  413: 'overLimit',
  415: 'badMediaType',
  429: 'overLimit',
  501: 'notImplemented',
  503: 'serviceUnavailable',
};

const HTTP_TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Request Entity Too Large',
  414: 'Request-URI Too Long',
  415: 'Unsupported Media Type',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** How long a client is told to wait before trying again while the database is unavailable. */
export const RETRY_AFTER_SECONDS = 5;

const UNAVAILABLE_BECAUSE: Record<DatabaseFault, string> = {
  'connection-lost': 'its database cannot be reached',
  timeout: 'its database did not answer in time',
  busy: 'its database is busy',
  'disk-full': 'its database is out of space',
  io: 'its database cannot read or write its storage',
};

/**
 * The 503 for a database that is unreachable, too slow, busy or full: the client may try again
 * (Retry-After). Never a 500, and never retried here: a COMMIT whose answer was lost may have
 * been applied, so only the client can decide to send the request again.
 */
export function databaseUnavailable(fault: DatabaseFault): OpenStackError {
  return new OpenStackError(
    503,
    `The service is temporarily unavailable: ${UNAVAILABLE_BECAUSE[fault]}. Try again later.`,
    { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } },
  );
}

export type FaultStyle = 'nova' | 'keystone';

export function faultBody(style: FaultStyle, status: number, message: string): unknown {
  if (style === 'keystone') {
    return { error: { code: status, message, title: HTTP_TITLES[status] ?? 'Error' } };
  }
  return { [NOVA_FAULT_NAMES[status] ?? 'computeFault']: { code: status, message } };
}

/** Turns anything thrown into an OpenStackError; unknown errors become a logged 500. */
export function toOpenStackError(err: unknown, log: Logger): OpenStackError {
  if (err instanceof OpenStackError) return err;
  // The router could not percent-decode a path parameter (`%ZZ`, `%FF%FE`): a malformed URL.
  if (err instanceof URIError) return new OpenStackError(400, WEBOB_BAD_REQUEST);
  const e = err as { type?: string; status?: number; code?: unknown } | undefined;
  // PostgreSQL text cannot hold U+0000 (SQLSTATE 22021): input with it can be neither stored nor matched.
  if (e?.code === '22021')
    return new OpenStackError(400, 'Invalid input: text may not contain the NUL character.');
  // body-parser's errors carry a status (and a type, but not when a body fails to inflate).
  if (e?.type === 'entity.too.large') return new OpenStackError(413, 'Request is too large.');
  if (e?.type === 'entity.parse.failed') return new OpenStackError(400, 'Malformed request body');
  if (e?.status && e.status >= 400 && e.status < 500) {
    return new OpenStackError(e.status, 'Malformed request body');
  }
  const fault = databaseFault(err);
  if (fault) {
    log.warn({ err: describeDatabaseError(err) }, 'database unavailable: answered 503');
    return databaseUnavailable(fault);
  }
  log.error({ err }, 'unexpected error');
  return new OpenStackError(500, 'Unexpected API Error.');
}

export function sendFault(res: Response, style: FaultStyle, err: OpenStackError): void {
  if (res.headersSent) return;
  if (err.options.noVersionHeaders) {
    res.removeHeader('OpenStack-API-Version');
    res.removeHeader('X-OpenStack-Nova-API-Version');
    res.removeHeader('Vary');
  }
  for (const [k, v] of Object.entries(err.options.headers ?? {})) res.setHeader(k, v);
  const body = err.options.rawBody ?? faultBody(style, err.status, err.message);
  res.status(err.status).json(body);
}

/** The last middleware of a service's router. */
export function faultHandler(style: FaultStyle, serviceMessage500?: string): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const log = req.ctx?.log;
    let fault = toOpenStackError(err, log ?? silentLog);
    if (fault.status === 500 && serviceMessage500) fault = new OpenStackError(500, serviceMessage500);
    sendFault(res, style, fault);
  };
}

const silentLog = { error: () => undefined, warn: () => undefined } as unknown as Logger;
