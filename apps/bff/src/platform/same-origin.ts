import type { Request, RequestHandler } from 'express';
import { ApiError } from './errors.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

const crossOrigin = () =>
  new ApiError(
    403,
    'cross_origin',
    'This change was sent from another site, so it was refused. Open the dashboard itself and try again.',
  );

/** `scheme://host[:port]` of a header value, null when it is not a URL of the web. */
function originOf(value: string): URL | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/**
 * Defence in depth beside the CSRF token: a state-changing request that a browser sent from another
 * site is refused, whether or not it carries a session (signing in counts: a page must not sign the
 * browser in as someone else). The policy, in order:
 * 1. `Origin` present: its host (with port) must be the host the request was sent to (`Host`, or
 *    `X-Forwarded-Host` when the proxy is trusted), or one of `allowedOrigins`; `Origin: null` never is.
 * 2. No `Origin` but `Sec-Fetch-Site`: only `same-origin` and `none` (the user's own action) pass.
 * 3. Neither, but `Referer`: judged as `Origin` is.
 * 4. None of the three: not a browser (curl, scripts, tests); allowed, and the CSRF token still applies.
 * The scheme is not compared: a TLS proxy in front of the BFF makes the browser's `https:` a plain
 * `http:` here, and one host and port serve one scheme.
 */
export function requireSameOrigin(allowedOrigins: readonly string[]): RequestHandler {
  const allowed = new Set(allowedOrigins);
  const fromHere = (req: Request, url: URL | null) =>
    url !== null && (allowed.has(url.origin) || url.host.toLowerCase() === (req.host ?? '').toLowerCase());

  return (req, _res, next) => {
    if (SAFE.has(req.method)) return next();
    const origin = req.get('origin');
    if (origin !== undefined) {
      if (!fromHere(req, originOf(origin))) throw crossOrigin();
      return next();
    }
    const site = req.get('sec-fetch-site');
    if (site !== undefined) {
      if (site !== 'same-origin' && site !== 'none') throw crossOrigin();
      return next();
    }
    const referer = req.get('referer');
    if (referer !== undefined && !fromHere(req, originOf(referer))) throw crossOrigin();
    next();
  };
}
