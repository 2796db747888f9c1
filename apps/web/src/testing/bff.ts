import { type ApiErrorCode, apiErrorSchema } from '@sv/shared';
import { HttpResponse, http, type JsonBodyType } from 'msw';
import type { z } from 'zod';
import { server } from './msw-server';

/*
 * The BFF's answers for MSW, typed from the shared schemas: a handler names the response schema, its
 * answer is typed by it and parsed through it, so a test cannot feed the UI something the BFF could
 * never send. Refusals carry a code of the contract's list.
 */

/** A refusal the BFF could send: its status, a code of the contract, a message and details. */
export class BffRefusal {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    readonly message: string,
    readonly details?: Record<string, unknown>,
  ) {}
}

export const bffError = (
  status: number,
  code: ApiErrorCode,
  message: string,
  details?: Record<string, unknown>,
) => new BffRefusal(status, code, message, details);

/** What a handler is asked: the URL, the path's parameters and the JSON body (if any). */
export interface Asked {
  url: URL;
  params: Record<string, string | readonly string[] | undefined>;
  body: unknown;
}

type Answer<S extends z.ZodType | null> = (S extends z.ZodType ? z.input<S> : null) | BffRefusal;
type Resolver<S extends z.ZodType | null> = Answer<S> | ((asked: Asked) => Answer<S> | Promise<Answer<S>>);

type Method = 'get' | 'post' | 'put' | 'delete';

export interface HandlerOptions {
  /** The success status (200 unless given). */
  status?: number;
  /** Answer whatever the query string (a filter the test reads from `asked.url`). */
  anyQuery?: boolean;
}

/**
 * A handler for `path`, which may carry a query string (`/api/volumes?all=1`): it then answers only
 * that query, and a path without one answers only requests without one (unless `anyQuery`).
 */
function handler<S extends z.ZodType | null>(
  method: Method,
  path: string,
  schema: S,
  resolver: Resolver<S>,
  opts: HandlerOptions,
) {
  const [pathname = path, search = ''] = path.split('?');
  const status = opts.status ?? 200;
  return http[method](pathname, async ({ request, params }) => {
    const url = new URL(request.url);
    if (!opts.anyQuery && url.search.replace(/^\?/, '') !== search) return undefined;
    const text = await request.text();
    const asked: Asked = { url, params, body: text ? JSON.parse(text) : undefined };
    const answer =
      typeof resolver === 'function'
        ? await (resolver as (asked: Asked) => Answer<S> | Promise<Answer<S>>)(asked)
        : resolver;
    if (answer instanceof BffRefusal) {
      const { status: refused, code, message, details } = answer;
      const body = apiErrorSchema.parse({ error: { code, message, ...(details ? { details } : {}) } });
      return HttpResponse.json(body, { status: refused });
    }
    if (schema === null) return new HttpResponse(null, { status });
    return HttpResponse.json(schema.parse(answer) as JsonBodyType, { status });
  });
}

const verb =
  (method: Method) =>
  <S extends z.ZodType | null>(path: string, schema: S, answer: Resolver<S>, opts: HandlerOptions = {}) =>
    handler(method, path, schema, answer, opts);

/** `bff.get(apiPaths.volumes, volumeListSchema, { volumes: [...] })`; `null` schema: an empty answer. */
export const bff = { get: verb('get'), post: verb('post'), put: verb('put'), delete: verb('delete') };

/** One request the web app sent, as the BFF received it. */
export interface SentRequest {
  method: string;
  /** Path and query: `/api/volumes?all=1`. */
  path: string;
  body: unknown;
}

/** Every request sent from now on, in order (the listener goes in setup.ts's afterEach). */
export function recordRequests(): SentRequest[] {
  const sent: SentRequest[] = [];
  server.events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    const entry: SentRequest = { method: request.method, path: url.pathname + url.search, body: undefined };
    sent.push(entry);
    void request
      .clone()
      .text()
      .then((text) => {
        entry.body = text ? JSON.parse(text) : undefined;
      });
  });
  return sent;
}
