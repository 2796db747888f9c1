import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestHandler } from 'express';

/**
 * The request a compute call runs for, so that what it records (instance actions) carries the
 * request id Nova's context would, without every service taking it as an argument.
 */
const scope = new AsyncLocalStorage<{ requestId: string }>();

/** Middleware: the rest of the request runs in its scope. */
export const requestScope: RequestHandler = (req, _res, next) => {
  scope.run({ requestId: req.ctx.requestId }, next);
};

/** The current request's id (`req-<uuid>`), or undefined outside a request. */
export const currentRequestId = (): string | undefined => scope.getStore()?.requestId;
