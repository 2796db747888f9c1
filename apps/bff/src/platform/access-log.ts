import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import type { LevelWithSilent } from 'pino';
import { pinoHttp, startTime } from 'pino-http';
import { ApiError } from './errors.js';
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
const elapsed = (res: ServerResponse) =>
  Date.now() - ((res as unknown as Record<symbol, number>)[startTime] ?? Date.now());
/** What the error handler noted as the cause of a 5xx (pino-http makes one up when there is none). */
const failureOf = (res: ServerResponse): Error | undefined => (res as ServerResponse & { err?: Error }).err;

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
    customErrorMessage: (req, res) => `${req.method} ${pathOf(req)} ${res.statusCode} ${elapsed(res)}ms`,
    // A typed 5xx (the cloud down or failing) is an expected state: its code and details say it all, and
    // the line that says why was logged when it happened. Only an unexpected error keeps its stack.
    customErrorObject: (_req, res, _err, val: Record<string, unknown>) => {
      const failure = failureOf(res);
      const { err: _synthetic, ...rest } = val;
      if (failure instanceof ApiError) {
        return {
          ...rest,
          error: { code: failure.code, ...(failure.details ? { details: failure.details } : {}) },
        };
      }
      return failure ? val : rest;
    },
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
