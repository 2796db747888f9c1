import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import type { LevelWithSilent } from 'pino';
import { pinoHttp } from 'pino-http';
import type { Logger } from './logger.js';
import {
  acceptedRequestId,
  newRequestId,
  openstackRequestIdFor,
  REQUEST_ID_HEADER,
  runInRequest,
} from './request-id.js';

/**
 * Successes are debug (a dashboard page makes several calls: at info they would flood the console),
 * a client's mistake info, the cloud failing us (502-504) warn, our own failure error.
 */
export function accessLevel(status: number, failed: boolean): LevelWithSilent {
  if (failed || status === 500) return 'error';
  if (status >= 500) return 'warn';
  if (status >= 400) return 'info';
  return 'debug';
}

const pathOf = (req: IncomingMessage) => (req as Request).originalUrl ?? req.url ?? '';

/**
 * Gives the request its id (on the answer as X-Request-Id), logs one access line for it when it ends,
 * and serves the rest of the request inside its scope, so that calls to the cloud carry the id and
 * every line logged on its behalf names it.
 */
export function accessLog(logger: Logger): RequestHandler {
  const openstackIds = new WeakMap<IncomingMessage, string>();
  const http = pinoHttp({
    logger,
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'requestId' },
    genReqId: (req: IncomingMessage, res: ServerResponse) => {
      const id = acceptedRequestId(req.headers['x-request-id']) ?? newRequestId();
      res.setHeader(REQUEST_ID_HEADER, id);
      return id;
    },
    // Only what identifies the request: headers carry the session cookie and the CSRF token.
    serializers: {
      req: (r: { method: string; url: string }) => ({ method: r.method, url: r.url }),
      res: (r: { statusCode: number }) => ({ statusCode: r.statusCode }),
    },
    customProps: (req: IncomingMessage) => {
      const openstackRequestId = openstackIds.get(req);
      return openstackRequestId && openstackRequestId !== req.id ? { openstackRequestId } : {};
    },
    customLogLevel: (_req, res, err) => accessLevel(res.statusCode, Boolean(err)),
    customSuccessMessage: (req, res, ms) => `${req.method} ${pathOf(req)} ${res.statusCode} ${ms}ms`,
    customErrorMessage: (req, res, err) => `${req.method} ${pathOf(req)} ${res.statusCode}: ${err.message}`,
  });
  return (req, res, next) => {
    http(req, res, () => {
      const requestId = String(req.id);
      const openstackRequestId = openstackRequestIdFor(requestId);
      openstackIds.set(req, openstackRequestId);
      runInRequest({ requestId, openstackRequestId, log: req.log }, next);
    });
  };
}
