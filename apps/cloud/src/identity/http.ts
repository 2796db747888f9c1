import express, {
  type ErrorRequestHandler,
  type Request,
  type RequestHandler,
  type Response,
  type Router,
} from 'express';
import { baseUrl } from '../platform/http/base-url.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../platform/http/body.js';
import { OpenStackError } from '../platform/http/errors.js';
import { faultBody, toOpenStackError } from '../platform/http/faults.js';
import { MALFORMED_BODY, expectingToFind } from './errors.js';

/**
 * Keystone's HTTP conventions: JSON sent as plain `application/json` (no charset), `Vary: X-Auth-Token`
 * on every answer, `{"error": {...}}` faults, a WWW-Authenticate header on every 401.
 */

export function sendJson(res: Response, status: number, body: unknown): void {
  res.status(status);
  res.setHeader('Content-Type', 'application/json');
  res.send(Buffer.from(JSON.stringify(body)));
}

/** Keystone serves no other request ids; the shared middleware also sets Nova's. */
export const keystoneHeaders: RequestHandler = (_req, res, next) => {
  res.removeHeader('X-Compute-Request-Id');
  res.setHeader('Vary', 'X-Auth-Token');
  next();
};

/**
 * keystone.server.flask.request_processing.json_body: a body must be a JSON object, sent as JSON or
 * with no Content-Type at all. Read once into req.ctx.body (undefined when empty).
 */
export function keystoneJsonBody(limitBytes: number): RequestHandler[] {
  const parse: RequestHandler = (req, _res, next) => {
    const raw: unknown = req.body;
    if (!Buffer.isBuffer(raw) || raw.length === 0) {
      req.ctx.body = undefined;
      return next();
    }
    const type = (req.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const isJson =
      type === '' ||
      type === 'application/json' ||
      (type.startsWith('application/') && type.endsWith('+json'));
    if (!isJson) throw expectingToFind('application/json', 'Content-Type header');
    const text = raw.toString('utf8');
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw new OpenStackError(400, MALFORMED_BODY);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new OpenStackError(400, MALFORMED_BODY);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new OpenStackError(400, MALFORMED_BODY);
    }
    req.ctx.body = parsed;
    next();
  };
  return [express.raw({ type: () => true, limit: limitBytes }), parse];
}

/** The request's JSON object (Keystone's `request_body_json`): `{}` when there was no body. */
export function bodyOf(req: Request): Record<string, unknown> {
  return (req.ctx.body as Record<string, unknown> | undefined) ?? {};
}

/** `self.request_body_json.get(key, {})`. */
export function memberOf(req: Request, key: string): unknown {
  const body = bodyOf(req);
  return key in body ? body[key] : {};
}

export const KEYSTONE_500 = 'An unexpected error prevented the server from fulfilling your request.';

/** The last middleware of the identity router. */
export const keystoneFaultHandler: ErrorRequestHandler = (err, req, res, _next) => {
  let fault = toOpenStackError(err, req.ctx.log);
  if (fault.status === 500) fault = new OpenStackError(500, KEYSTONE_500);
  if (res.headersSent) return;
  for (const [k, v] of Object.entries(fault.options.headers ?? {})) res.setHeader(k, v);
  if (fault.status === 401) res.setHeader('WWW-Authenticate', `Keystone uri="${baseUrl(req)}/identity/v3"`);
  sendJson(res, fault.status, fault.options.rawBody ?? faultBody('keystone', fault.status, fault.message));
};

export const NOT_FOUND_MESSAGE = 'The resource could not be found.';
const METHOD_NOT_ALLOWED = 'The method is not allowed for the requested URL.';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head';

/**
 * One Keystone resource path: its methods, 405 for any other, and OPTIONS answered with Allow as
 * Flask does. HEAD runs the GET handler unless given its own.
 */
export function resource(
  router: Router,
  path: string,
  handlers: Partial<Record<Method, RequestHandler | RequestHandler[]>>,
): void {
  const route = router.route(path);
  const allowed = new Set<string>();
  for (const [method, h] of Object.entries(handlers) as [Method, RequestHandler | RequestHandler[]][]) {
    route[method](...(Array.isArray(h) ? h : [h]));
    allowed.add(method.toUpperCase());
    if (method === 'get') allowed.add('HEAD');
  }
  allowed.add('OPTIONS');
  const allow = [...allowed].sort().join(', ');
  route.options((_req, res) => {
    res.setHeader('Allow', allow);
    res.status(200).end();
  });
  route.all(() => {
    throw new OpenStackError(405, METHOD_NOT_ALLOWED);
  });
}
