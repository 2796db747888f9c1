import type { Request, RequestHandler, Response, Router } from 'express';
import type { z } from 'zod';
import { currentSession, sessionOf } from './session.js';
import type { SessionData } from './session-store.js';
import { parseInput, sendValid } from './validate.js';

/**
 * The BFF's routes, each declared once: what the Express app registers and what the OpenAPI
 * document (features/openapi) is generated from. A feature exports a list of `route(...)` and
 * `rawRoute(...)` declarations; app.ts puts the lists together into the table.
 */

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

/**
 * Who may call a route:
 * - `required` (the default): a signed-in session; mutations also need the CSRF header.
 * - `optional`: anyone; the handler gets the session, or null when signed out (signing in).
 * - `none`: served ahead of body parsing, the Origin check and the session lookup, so it answers
 *   even when the session store is down (health).
 */
export type SessionNeed = 'required' | 'optional' | 'none';

/** `{ id: string; volumeId: string }` from `/api/servers/:id/attachments/:volumeId`. */
export type PathParams<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & PathParams<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : Record<never, string>;

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;
type SessionFor<N extends SessionNeed> = N extends 'required'
  ? SessionData
  : N extends 'optional'
    ? SessionData | null
    : null;

/** What a handler gets: its input parsed and typed, the session, and the raw request and response for headers. */
export interface RouteInput<Path extends string, P, Q, B, N extends SessionNeed> {
  /** The path's parameters: parsed by the route's `params` schema, else each a string. */
  params: P extends z.ZodType ? z.output<P> : PathParams<Path>;
  query: Parsed<Q>;
  body: Parsed<B>;
  session: SessionFor<N>;
  req: Request;
  res: Response;
}

/** One documented answer of a route. */
export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
  /** application/json unless said otherwise. */
  contentType?: string;
}

interface RouteDoc<Path extends string, N extends SessionNeed> {
  method: HttpMethod;
  /** Express syntax: `/api/volumes/:id`. */
  path: Path;
  summary: string;
  tag: string;
  session?: N;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Answers worth naming besides the success and the generic 4XX/5XX (a 401 on sign-in, a 429). */
  responses?: Record<number, ResponseDoc>;
}

/** A route that answers JSON checked against its schema (or nothing, for a 204). */
export interface JsonRouteSpec<
  Path extends string,
  P extends z.ZodType | undefined,
  Q extends z.ZodType | undefined,
  B extends z.ZodType | undefined,
  R extends z.ZodType | undefined,
  N extends SessionNeed,
> extends RouteDoc<Path, N> {
  params?: P;
  query?: Q;
  body?: B;
  /** The success answer: its status (200 unless given), its schema (none: an empty answer) and what it means. */
  response: { status?: number; schema?: R; description?: string };
  handler: (
    input: RouteInput<Path, P, Q, B, N>,
  ) => Promise<R extends z.ZodType ? z.output<R> : void> | (R extends z.ZodType ? z.output<R> : void);
}

/** A route that writes its own answer (an event stream, a document built once); `responses` documents it. */
export interface RawRouteSpec<Path extends string, P extends z.ZodType | undefined, N extends SessionNeed>
  extends RouteDoc<Path, N> {
  params?: P;
  responses: Record<number, ResponseDoc>;
  handler: (input: RouteInput<Path, P, undefined, undefined, N>) => void | Promise<void>;
}

/** One row of the table, its types erased: what registration and the document read. */
export interface ApiRoute {
  kind: 'json' | 'raw';
  method: HttpMethod;
  path: string;
  summary: string;
  tag: string;
  session: SessionNeed;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** json routes: the success answer. */
  response?: { status: number; schema?: z.ZodType; description: string };
  responses: Record<number, ResponseDoc>;
  /** Answers the request: the json kind returns the body to send, the raw kind sends its own. */
  handle: (input: RouteInput<string, unknown, unknown, unknown, SessionNeed>) => unknown;
}

const SUCCESS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted: the cloud finishes it in the background',
  204: 'Done; no body',
};

/** Declares a JSON route; the handler's input and result are typed from the schemas given. */
export function route<
  const Path extends string,
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType | undefined = undefined,
  N extends SessionNeed = 'required',
>(spec: JsonRouteSpec<Path, P, Q, B, R, N>): ApiRoute {
  const status = spec.response.status ?? 200;
  return {
    kind: 'json',
    method: spec.method,
    path: spec.path,
    summary: spec.summary,
    tag: spec.tag,
    session: spec.session ?? 'required',
    ...(spec.params ? { params: spec.params } : {}),
    ...(spec.query ? { query: spec.query } : {}),
    ...(spec.body ? { body: spec.body } : {}),
    response: {
      status,
      ...(spec.response.schema ? { schema: spec.response.schema } : {}),
      description: spec.response.description ?? SUCCESS[status] ?? 'OK',
    },
    responses: spec.responses ?? {},
    handle: spec.handler as ApiRoute['handle'],
  };
}

/** Declares a route that writes its own answer (no query or body parsing). */
export function rawRoute<
  const Path extends string,
  P extends z.ZodType | undefined = undefined,
  N extends SessionNeed = 'required',
>(spec: RawRouteSpec<Path, P, N>): ApiRoute {
  return {
    kind: 'raw',
    method: spec.method,
    path: spec.path,
    summary: spec.summary,
    tag: spec.tag,
    session: spec.session ?? 'required',
    ...(spec.params ? { params: spec.params } : {}),
    responses: spec.responses,
    handle: spec.handler as ApiRoute['handle'],
  };
}

/** The Express handler for one row: session, then params, query and body, then the answer. */
function handlerFor(r: ApiRoute): RequestHandler {
  return async (req, res) => {
    // A route that needs a session refuses before reading any input, as a separate guard would.
    const required = r.session === 'required' ? sessionOf(req) : null;
    const params = r.params ? parseInput(r.params, req.params) : req.params;
    const query = r.query ? parseInput(r.query, req.query) : undefined;
    const body = r.body ? parseInput(r.body, req.body) : undefined;
    const session = r.session === 'optional' ? currentSession(req) : required;
    const input = { params, query, body, session, req, res } as RouteInput<
      string,
      unknown,
      unknown,
      unknown,
      SessionNeed
    >;
    const result = await r.handle(input);
    if (r.kind === 'raw' || !r.response) return;
    if (r.response.schema) sendValid(res, r.response.schema, result, r.response.status);
    else res.status(r.response.status).end();
  };
}

/** Registers the rows on a router, in order; a method and path declared twice is a mistake. */
export function registerRoutes(router: Router, routes: readonly ApiRoute[]): void {
  const seen = new Set<string>();
  for (const r of routes) {
    const key = `${r.method.toUpperCase()} ${r.path}`;
    if (seen.has(key)) throw new Error(`route declared twice: ${key}`);
    seen.add(key);
    router[r.method](r.path, handlerFor(r));
  }
}
