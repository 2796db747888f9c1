import type { RequestHandler } from 'express';
import { newRequestId } from '../ids.js';
import type { Logger } from '../logger.js';

/** Gives every request an id, returned as x-openstack-request-id and bound into its logs. */
export function requestId(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const id = newRequestId();
    req.ctx = { requestId: id, log: logger.child({ requestId: id }) };
    res.setHeader('x-openstack-request-id', id);
    res.setHeader('X-Compute-Request-Id', id);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      req.ctx.log.info({ method: req.method, url: req.originalUrl, status: res.statusCode, ms }, 'request');
    });
    next();
  };
}
