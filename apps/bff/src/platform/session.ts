import { randomBytes } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { ApiError, notAuthenticated } from './errors.js';
import type { SessionData, SessionStore } from './session-store.js';

export const SESSION_COOKIE = 'sv_session';
export const CSRF_HEADER = 'X-CSRF-Token';

declare global {
  namespace Express {
    interface Request {
      session?: SessionData;
    }
  }
}

export const newSessionId = () => randomBytes(32).toString('base64url');
export const newCsrfToken = () => randomBytes(24).toString('base64url');

export function setSessionCookie(req: Request, res: Response, session: SessionData): void {
  res.cookie(SESSION_COOKIE, session.id, {
    httpOnly: true,
    sameSite: 'lax',
    secure: req.secure,
    path: '/',
    expires: new Date(session.tokenExpiresAt),
  });
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure: req.secure, path: '/' });
}

/** Loads the session named by the cookie, if any and not expired. */
export function loadSession(store: SessionStore): RequestHandler {
  return async (req, res, next) => {
    const id: unknown = req.cookies?.[SESSION_COOKIE];
    if (typeof id === 'string' && id.length > 0) {
      const session = await store.get(id);
      if (session) req.session = session;
      else clearSessionCookie(req, res);
    }
    next();
  };
}

export const requireSession: RequestHandler = (req, _res, next) => {
  if (!req.session) throw notAuthenticated();
  next();
};

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Mutations must echo the session's CSRF token in a header a cross-site form cannot set. */
export const requireCsrf: RequestHandler = (req, _res, next) => {
  if (SAFE.has(req.method) || !req.session) return next();
  if (req.get(CSRF_HEADER) !== req.session.csrfToken) {
    throw new ApiError(
      403,
      'csrf_failed',
      'This request is missing its security token. Reload the page and try again.',
    );
  }
  next();
};

export function sessionOf(req: Request): SessionData {
  if (!req.session) throw notAuthenticated();
  return req.session;
}
