import type { ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';

/**
 * The BFF's one error type: an HTTP status, a stable snake_case code the web app can branch
 * on, and a message for people. Rendered as `{ error: { code, message, details } }`.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (code: string, message: string, details?: Record<string, unknown>) =>
  new ApiError(400, code, message, details);
export const notAuthenticated = (message = 'Sign in to continue.') =>
  new ApiError(401, 'not_authenticated', message);
export const forbidden = (message: string) => new ApiError(403, 'forbidden', message);
export const notFound = (message: string) => new ApiError(404, 'not_found', message);
export const conflict = (code: string, message: string, details?: Record<string, unknown>) =>
  new ApiError(409, code, message, details);

export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    if (res.headersSent) return;
    if (err instanceof ApiError) {
      res.status(err.status).json({
        error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) },
      });
      return;
    }
    if (err instanceof URIError) {
      // The router could not percent-decode a path parameter (`%ZZ`).
      res.status(400).json({ error: { code: 'malformed_url', message: 'The request URL is not valid.' } });
      return;
    }
    const e = err as { type?: string; status?: number };
    if (e?.type === 'entity.parse.failed') {
      res
        .status(400)
        .json({ error: { code: 'malformed_json', message: 'The request body is not valid JSON.' } });
      return;
    }
    if (e?.type === 'entity.too.large') {
      res.status(413).json({ error: { code: 'too_large', message: 'The request body is too large.' } });
      return;
    }
    // body-parser's other refusals: an unsupported charset or encoding (415), a body that does not inflate.
    if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) {
      const unsupported = e.status === 415;
      res.status(e.status).json({
        error: {
          code: unsupported ? 'unsupported_body' : 'malformed_body',
          message: unsupported
            ? "The request body's encoding or character set is not supported."
            : 'The request body could not be read.',
        },
      });
      return;
    }
    log.error({ err }, 'unexpected error');
    res
      .status(500)
      .json({ error: { code: 'internal', message: 'Something went wrong on our side. Try again.' } });
  };
}
