import type { Request, RequestHandler, Response } from 'express';
import { newRequestId } from '../ids.js';
import type { Logger } from '../logger.js';

/**
 * oslo.middleware takes a caller's X-OpenStack-Request-ID as the global request id only in this form
 * (anything else is ignored, never echoed).
 */
const GLOBAL_REQUEST_ID = /^req-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}$/;

export function globalRequestIdOf(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && GLOBAL_REQUEST_ID.test(value) ? value : null;
}

/**
 * As the services' own request log: successes debug, refusals info, failures error. A 503 is the
 * cloud saying "not now" (its database is away): a warning, logged with its cause where it happened.
 */
export function accessLevel(status: number): 'debug' | 'info' | 'warn' | 'error' {
  if (status === 503) return 'warn';
  if (status >= 500) return 'error';
  if (status >= 400) return 'info';
  return 'debug';
}

/**
 * Gives every request an id, returned as x-openstack-request-id (and Nova's X-Compute-Request-Id) and
 * bound into its logs. The caller's global id (a BFF, another service) is logged next to it, as real
 * Nova and Cinder log `[req-<local> req-<global> ...]`, so one id leads from the caller's log here.
 */
export function requestId(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const id = newRequestId();
    const globalRequestId = globalRequestIdOf(req.headers['x-openstack-request-id']);
    const bindings = globalRequestId ? { requestId: id, globalRequestId } : { requestId: id };
    req.ctx = { requestId: id, ...(globalRequestId ? { globalRequestId } : {}), log: logger.child(bindings) };
    res.setHeader('x-openstack-request-id', id);
    res.setHeader('X-Compute-Request-Id', id);
    const started = process.hrtime.bigint();
    res.on('finish', () => logAccess(req, res, started));
    next();
  };
}

function logAccess(req: Request, res: Response, started: bigint): void {
  const ms = Math.round(Number(process.hrtime.bigint() - started) / 1e6);
  const status = res.statusCode;
  req.ctx.log[accessLevel(status)](
    { req: { method: req.method, url: req.originalUrl }, res: { statusCode: status }, responseTime: ms },
    `${req.method} ${req.originalUrl} ${status} ${ms}ms`,
  );
}
