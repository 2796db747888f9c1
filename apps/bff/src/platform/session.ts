import { randomBytes } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { ApiError, notAuthenticated } from './errors.js';
import type { Logger } from './logger.js';
import type { SessionData, SessionStore } from './session-store.js';

export const SESSION_COOKIE = 'sv_session';
export const CSRF_HEADER = 'X-CSRF-Token';

declare global {
  namespace Express {
    interface Request {
      session?: SessionData;
      /** The session store failed to answer: the request's session, if any, is unknown. */
      /** Why the session store could not tell whose request this is. */
      sessionLookupFailed?: unknown;
    }
  }
}

export const newSessionId = () => randomBytes(32).toString('base64url');
export const newCsrfToken = () => randomBytes(24).toString('base64url');

/** The only shape newSessionId makes: 32 random bytes in base64url, 43 characters. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;
export const isSessionId = (value: string) => SESSION_ID.test(value);

/** Every value of the session cookie in a Cookie header, in order (a browser may send several). */
function sessionCookieValues(header: string | undefined): string[] {
  if (!header) return [];
  const values: string[] = [];
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === SESSION_COOKIE) values.push(pair.slice(eq + 1).trim());
  }
  return values;
}

export function setSessionCookie(req: Request, res: Response, session: SessionData): void {
  // One answer, one word on the cookie: drop a clearing of a bad cookie made earlier in this request.
  const earlier = res.getHeader('Set-Cookie');
  if (earlier !== undefined) {
    const others = [earlier]
      .flat()
      .map(String)
      .filter((c) => !c.startsWith(`${SESSION_COOKIE}=`));
    if (others.length > 0) res.setHeader('Set-Cookie', others);
    else res.removeHeader('Set-Cookie');
  }
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

export const sessionsUnavailable = () =>
  new ApiError(
    503,
    'sessions_unavailable',
    'Sign-in is unavailable right now: the dashboard cannot reach its session store. Try again in a moment.',
  );

/**
 * Loads the session named by the cookie, if any and not expired. A value of another shape than the
 * ids this BFF issues (a NUL, garbage planted by a page on another port of this host) is never
 * looked up, and is cleared unless another cookie of the same name holds a live session. A store that
 * fails is remembered on the request: routes that need the session answer a typed 503.
 */
export function loadSession(store: SessionStore, logger?: Logger): RequestHandler {
  return async (req, res, next) => {
    // An empty value is a cookie already cleared: nothing to look up or clear.
    const values = sessionCookieValues(req.headers.cookie).filter((v) => v !== '');
    if (values.length === 0) return next();
    // A planted cookie with a longer path comes first; the browser's own one may follow.
    for (const id of values.filter(isSessionId).slice(0, 3)) {
      try {
        const session = await store.get(id);
        if (session) {
          req.session = session;
          return next();
        }
      } catch (err) {
        logger?.warn({ err: { message: (err as Error).message } }, 'session lookup failed');
        req.sessionLookupFailed = err;
        return next();
      }
    }
    clearSessionCookie(req, res);
    next();
  };
}

/** The request's session, null when it has none; a typed 503 when the store could not tell. */
export function currentSession(req: Request): SessionData | null {
  if (req.session) return req.session;
  if (req.sessionLookupFailed !== undefined) {
    // The store's own typed error (its database is unreachable) says more than the generic one.
    throw req.sessionLookupFailed instanceof ApiError ? req.sessionLookupFailed : sessionsUnavailable();
  }
  return null;
}

export function sessionOf(req: Request): SessionData {
  const session = currentSession(req);
  if (!session) throw notAuthenticated();
  return session;
}

export const requireSession: RequestHandler = (req, _res, next) => {
  sessionOf(req);
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
