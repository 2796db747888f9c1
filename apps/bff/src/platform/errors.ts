import { type ApiErrorCode, apiErrorCodeSchema } from '@sv/shared';
import type { ErrorRequestHandler, Response } from 'express';
import type { Logger } from 'pino';

/**
 * The BFF's one error type: an HTTP status, a code from the shared contract's list (the web app
 * branches on it), and a message for people. Rendered as `{ error: { code, message, details, requestId } }`:
 * everything in it reaches the browser, so nothing internal (addresses, socket errors) goes there.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (code: ApiErrorCode, message: string, details?: Record<string, unknown>) =>
  new ApiError(400, code, message, details);
export const notAuthenticated = (message = 'Sign in to continue.') =>
  new ApiError(401, 'not_authenticated', message);
export const forbidden = (message: string) => new ApiError(403, 'forbidden', message);
export const notFound = (message: string) => new ApiError(404, 'not_found', message);
export const conflict = (code: ApiErrorCode, message: string, details?: Record<string, unknown>) =>
  new ApiError(409, code, message, details);

export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) return;
    // The id a person can quote: the access line and the cloud's log lines carry the same one.
    const requestId = typeof req.id === 'string' ? req.id : undefined;
    const send = (
      status: number,
      body: { code: ApiErrorCode; message: string; details?: Record<string, unknown> | undefined },
    ) => {
      // A code the contract does not list (typed code cast away) is a broken promise to the web app.
      if (!apiErrorCodeSchema.safeParse(body.code).success) {
        log.error({ code: body.code, requestId }, 'error code not in the contract');
        status = 500;
        body = {
          code: 'contract_violation',
          message: 'The dashboard backend produced an invalid response.',
          details: { issues: [`error.code: ${String(body.code)} is not a code of the contract`] },
        };
      }
      if (status >= 500) noteFailure(res, err);
      res.status(status).json({
        error: {
          code: body.code,
          message: body.message,
          ...(body.details ? { details: body.details } : {}),
          ...(requestId ? { requestId } : {}),
        },
      });
    };
    if (err instanceof ApiError) {
      send(err.status, err);
      return;
    }
    if (err instanceof URIError) {
      // The router could not percent-decode a path parameter (`%ZZ`).
      send(400, { code: 'malformed_url', message: 'The request URL is not valid.' });
      return;
    }
    const e = err as { type?: string; status?: number };
    if (e?.type === 'entity.parse.failed') {
      send(400, { code: 'malformed_json', message: 'The request body is not valid JSON.' });
      return;
    }
    if (e?.type === 'entity.too.large') {
      send(413, { code: 'too_large', message: 'The request body is too large.' });
      return;
    }
    // body-parser's other refusals: an unsupported charset or encoding (415), a body that does not inflate.
    if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) {
      const unsupported = e.status === 415;
      send(e.status, {
        code: unsupported ? 'unsupported_body' : 'malformed_body',
        message: unsupported
          ? "The request body's encoding or character set is not supported."
          : 'The request body could not be read.',
      });
      return;
    }
    // Without the access log (an app built without it) the error is logged here.
    if (!req.log) log.error({ err, requestId }, 'unexpected error');
    send(500, { code: 'internal', message: 'Something went wrong on our side. Try again.' });
  };
}

/** The access line of a failed request logs this error with it (pino-http reads `res.err`). */
function noteFailure(res: Response, err: unknown): void {
  res.err = err instanceof Error ? err : new Error(String(err));
}
