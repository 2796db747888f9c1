import { apiErrorCodeSchema, apiErrorSchema } from '@sv/shared';
import fc from 'fast-check';
import { leaksInternals } from '../../../cloud/test/fuzz/cloud-faults.js';
import { changedTables, type Digest, digester } from '../../../cloud/test/fuzz/db-digest.js';
import {
  ALL_METHODS,
  applyPathTrick,
  BFF_BODY_LIMIT,
  type HeaderSet,
  hostileSegment,
  type Mutation,
  mutatedJson,
  mutation,
  oddHeaders,
  oddQuery,
  type PathTrick,
  pathTrick,
  type QueryTrick,
  queryString,
  type RawBody,
  rawBody,
  rawBodyBytes,
} from '../../../cloud/test/fuzz/hostile.js';
import {
  headBytes,
  headerOf,
  MAX_HEAD_BYTES,
  type RawRequest,
  type RawResponse,
  sendRaw,
} from '../../../cloud/test/fuzz/raw-http.js';
import { FuzzStats } from '../../../cloud/test/fuzz/stats.js';
import type { TestStack } from '../helpers/stack.js';
import {
  type BffEndpoint,
  type BffFixtures,
  bffEndpoints,
  idKindOf,
  methodsFor,
  type Role,
} from './bff-inventory.js';

/**
 * The BFF under hostile input, as signed-in browsers (admin and member, with their cookie and CSRF
 * token) would send it. Per request:
 * - no 5xx (a 502/503 would mean the BFF let the cloud fail or lost it), no stack frame, no source
 *   path and never the cloud's own URL in an answer;
 * - every /api error is the typed `{"error": {"code", "message", "details"?}}` of packages/shared,
 *   with a code from the contract's list (packages/shared errors.ts);
 * - a JSON body past 256 KB is refused with 413, one within it is not;
 * - no hostile request ends a valid session (a 401 `session_expired` means the BFF passed the input
 *   on in a way the cloud read as a bad token);
 * - the cloud's database is unchanged by a refused request (4xx) and by any GET/HEAD/OPTIONS.
 */

type IdChoice = { real: number; otherRole: boolean } | { hostile: string };

export type SessionTrick =
  | 'noCookie'
  | 'garbageCookie'
  | 'otherRolesCsrf'
  | 'noCsrf'
  | 'wrongCsrf'
  | 'hugeCookie'
  | 'twoSessionCookies'
  | 'malformedCookie'
  | 'encodedCookie';

export type BffAttack =
  | { family: 'valid' }
  | { family: 'mutate'; at: number; mutation: Mutation }
  | { family: 'rawBody'; body: RawBody }
  | { family: 'wrongMethod'; method: string; withBody: boolean }
  | { family: 'hostileId'; param: number; segment: string }
  | { family: 'path'; trick: PathTrick }
  | { family: 'headers'; headers: HeaderSet }
  | { family: 'query'; query: QueryTrick }
  | { family: 'session'; trick: SessionTrick };

export interface BffRecipe {
  endpoint: string;
  role: Role;
  n: number;
  ids: IdChoice[];
  attack: BffAttack;
}

const byKey = new Map(bffEndpoints.map((e) => [e.key, e]));
const endpointOf = (key: string): BffEndpoint => {
  const e = byKey.get(key);
  if (!e) throw new Error(`unknown endpoint ${key}`);
  return e;
};
const paramsOf = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);

const idChoice: fc.Arbitrary<IdChoice> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ real: fc.nat(), otherRole: fc.boolean() }) },
  { weight: 1, arbitrary: hostileSegment.map((hostile) => ({ hostile })) },
);

const SESSION_TRICKS: SessionTrick[] = [
  'noCookie',
  'garbageCookie',
  'otherRolesCsrf',
  'noCsrf',
  'wrongCsrf',
  'hugeCookie',
  'twoSessionCookies',
  'malformedCookie',
  'encodedCookie',
];

function attackFor(e: BffEndpoint): fc.Arbitrary<BffAttack> {
  const routed = methodsFor(e.path);
  const wrong = ALL_METHODS.filter((m) => !routed.has(m));
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant({ family: 'valid' as const }) },
    {
      weight: e.body ? 8 : 2,
      arbitrary: fc.record({ family: fc.constant('mutate' as const), at: fc.nat(), mutation }),
    },
    { weight: 4, arbitrary: fc.record({ family: fc.constant('rawBody' as const), body: rawBody }) },
    {
      weight: 2,
      arbitrary: fc.record({
        family: fc.constant('wrongMethod' as const),
        method: fc.constantFrom(...wrong),
        withBody: fc.boolean(),
      }),
    },
    {
      weight: paramsOf(e.path).length > 0 ? 3 : 0,
      arbitrary: fc.record({
        family: fc.constant('hostileId' as const),
        param: fc.nat(),
        segment: hostileSegment,
      }),
    },
    { weight: 2, arbitrary: fc.record({ family: fc.constant('path' as const), trick: pathTrick }) },
    {
      weight: 2,
      arbitrary: fc.record({ family: fc.constant('headers' as const), headers: oddHeaders('compute') }),
    },
    {
      weight: e.method === 'GET' ? 3 : 1,
      arbitrary: fc.record({ family: fc.constant('query' as const), query: oddQuery }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        family: fc.constant('session' as const),
        trick: fc.constantFrom(...SESSION_TRICKS),
      }),
    },
  );
}

export const bffRecipeFor = (e: BffEndpoint): fc.Arbitrary<BffRecipe> =>
  fc.record({
    endpoint: fc.constant(e.key),
    role: fc.constantFrom<Role>('admin', 'member'),
    n: fc.nat({ max: 1_000_000 }),
    ids: fc.array(idChoice, { minLength: 2, maxLength: 2 }),
    attack: attackFor(e),
  });

export interface BrowserSession {
  cookie: string;
  csrf: string;
}

export interface BuiltBff {
  raw: RawRequest;
  /** The request reaches the /api router (typed errors), not the single-page app's fallback. */
  api: boolean;
  /** Only the body or path is hostile: the JSON content type and session are the good ones. */
  cleanEnvelope: boolean;
}

const OTHER: Record<Role, Role> = { admin: 'member', member: 'admin' };

export function buildBff(r: BffRecipe, fx: BffFixtures, sessions: Record<Role, BrowserSession>): BuiltBff {
  const e = endpointOf(r.endpoint);
  const a = r.attack;
  const c = { fx, role: r.role, n: r.n };
  const method = a.family === 'wrongMethod' ? a.method : e.method;

  const params = paramsOf(e.path);
  let path = e.path;
  params.forEach((p, i) => {
    let choice = r.ids[i] ?? { real: 0, otherRole: false };
    if (a.family === 'hostileId' && a.param % params.length === i) choice = { hostile: a.segment };
    let value: string;
    if ('hostile' in choice) value = choice.hostile;
    else {
      const kind = idKindOf(e.path, p);
      const role = choice.otherRole ? OTHER[r.role] : r.role;
      // DELETE /api/{volumes,servers}/{id} removes the thing: only expendable ones.
      const removes = method === 'DELETE' && e.path.endsWith(`/:${p}`) && !e.path.includes('/attachments/');
      const pool = (removes ? fx.expendable[role][kind] : undefined) ?? fx.ids[role][kind];
      value = encodeURIComponent(pool[choice.real % Math.max(pool.length, 1)] ?? 'none');
    }
    path = path.replace(`:${p}`, () => value);
  });
  if (a.family === 'path') path = applyPathTrick(path, a.trick);
  const query = a.family === 'query' ? queryString(a.query) : (e.query?.(c) ?? '');
  if (query) path += `?${query}`;

  const valid = e.body?.(c);
  let body: Buffer | undefined;
  if (a.family === 'mutate') body = Buffer.from(mutatedJson(valid, a.at, a.mutation));
  else if (a.family === 'rawBody') body = rawBodyBytes(a.body, valid);
  else if (valid !== undefined && (a.family !== 'wrongMethod' || a.withBody))
    body = Buffer.from(JSON.stringify(valid));

  const own = sessions[r.role];
  const headers: HeaderSet = { Accept: 'application/json', Cookie: `sv_session=${own.cookie}` };
  if (method !== 'GET' && method !== 'HEAD') headers['X-CSRF-Token'] = own.csrf;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (a.family === 'headers') Object.assign(headers, a.headers);
  if (a.family === 'session') {
    const other = sessions[OTHER[r.role]];
    switch (a.trick) {
      case 'noCookie':
        delete headers.Cookie;
        break;
      case 'garbageCookie':
        headers.Cookie = 'sv_session=garbage';
        break;
      case 'otherRolesCsrf':
        headers['X-CSRF-Token'] = other.csrf;
        break;
      case 'noCsrf':
        delete headers['X-CSRF-Token'];
        break;
      case 'wrongCsrf':
        headers['X-CSRF-Token'] = `${own.csrf}x`;
        break;
      case 'hugeCookie':
        headers.Cookie = `sv_session=${own.cookie}; pad=${'a'.repeat(8_000)}`;
        break;
      case 'twoSessionCookies':
        headers.Cookie = `sv_session=garbage; sv_session=${own.cookie}`;
        break;
      case 'malformedCookie':
        headers.Cookie = 'sv_session; ==; ;;; sv_session="unterminated';
        break;
      case 'encodedCookie':
        headers.Cookie = `sv_session=%ZZ${encodeURIComponent(own.cookie)}%`;
        break;
    }
  }
  const p = path.split('?')[0]!;
  return {
    raw: { method, path, headers, ...(body !== undefined ? { body } : {}) },
    api: /^\/api(\/|$)/i.test(p),
    cleanEnvelope: a.family !== 'headers',
  };
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export function describeRequest(raw: RawRequest, res?: RawResponse): string {
  const body = raw.body ? ` body(${raw.body.length} B): ${raw.body.toString('utf8').slice(0, 200)}` : '';
  const headers = Object.entries(raw.headers)
    .filter(([k]) => k !== 'Cookie' && k !== 'X-CSRF-Token')
    .map(([k, v]) => `${k}: ${String(v).slice(0, 80)}`)
    .join('; ');
  const answer = res ? `\n  → ${res.status} ${headerOf(res, 'content-type')} ${res.text.slice(0, 300)}` : '';
  return `${raw.method} ${raw.path.slice(0, 300)} [${headers}]${body}${answer}`;
}

/** Null when an /api error answer is the typed ApiError, else what is wrong. */
export function apiErrorProblem(res: RawResponse, method: string): string | null {
  if (method === 'HEAD') return null;
  const type = headerOf(res, 'content-type');
  if (!type.startsWith('application/json')) return `error content type ${type || '(none)'}`;
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    return 'error body is not JSON';
  }
  const code = (body as { error?: { code?: unknown } } | null)?.error?.code;
  if (typeof code === 'string' && code !== '') {
    if (!/^[a-z][a-z0-9_]*$/.test(code)) return `error code ${code} is not snake_case`;
    if (!apiErrorCodeSchema.safeParse(code).success)
      return `error code ${code} is not one of the contract's codes`;
  }
  const parsed = apiErrorSchema.strict().safeParse(body);
  if (!parsed.success) return `not an ApiError: ${parsed.error.issues[0]?.message}`;
  const inner = (body as { error: Record<string, unknown> }).error;
  const extra = Object.keys(inner).filter((k) => !['code', 'message', 'details', 'requestId'].includes(k));
  if (extra.length > 0) return `unexpected error fields ${extra.join(', ')}`;
  // The id a person quotes must be the one the logs have: the answer's X-Request-Id.
  if (inner.requestId !== headerOf(res, 'x-request-id')) return 'error requestId is not the X-Request-Id';
  return null;
}

export class BffFuzzer {
  readonly stats = new FuzzStats();
  readonly sessions = {} as Record<Role, BrowserSession>;
  #digest!: () => Promise<Digest>;
  #last: Digest | null = null;

  constructor(
    readonly stack: TestStack,
    readonly fx: BffFixtures,
  ) {}

  async init(): Promise<void> {
    this.#digest = await digester(this.stack.cloud.cloud.deps.store);
    for (const role of ['admin', 'member'] as const) await this.signIn(role);
  }

  async signIn(role: Role): Promise<void> {
    const client = await this.stack.signIn(role === 'admin' ? 'admin' : 'demo');
    this.sessions[role] = { cookie: client.cookie!.replace(/^sv_session=/, ''), csrf: client.csrf! };
    this.#last = null;
  }

  /** Signs in again when a request ended one of the fuzz's sessions (sign-out is an endpoint). */
  async keepSignedIn(): Promise<void> {
    for (const role of ['admin', 'member'] as const) {
      const res = await sendRaw(this.stack.bffUrl, {
        method: 'GET',
        path: '/api/session',
        headers: { Cookie: `sv_session=${this.sessions[role].cookie}` },
      });
      if (res.status !== 200) await this.signIn(role);
    }
  }

  /** Waits for a launch the BFF runs in the background, then for the cloud. */
  async awaitLaunch(role: Role, id: string): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const res = await sendRaw(this.stack.bffUrl, {
        method: 'GET',
        path: `/api/launches/${encodeURIComponent(id)}`,
        headers: { Cookie: `sv_session=${this.sessions[role].cookie}`, Accept: 'application/json' },
      });
      if (res.status !== 200 || (JSON.parse(res.text) as { status: string }).status !== 'running') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await this.stack.cloud.settle();
  }

  async exercise(r: BffRecipe): Promise<void> {
    const built = buildBff(r, this.fx, this.sessions);
    const { raw } = built;
    const cloud = this.stack.cloud;
    await cloud.settle();
    const before = this.#last ?? (await this.#digest());
    this.#last = null;
    let res: RawResponse;
    try {
      res = await sendRaw(this.stack.bffUrl, raw);
    } catch (err) {
      throw new Error(`no answer (${(err as Error).message}) to ${describeRequest(raw)}`);
    }
    this.stats.record(res.status, r.attack.family);
    const fail = (why: string) => {
      throw new Error(`${why}\n  ${describeRequest(raw, res)}`);
    };

    if (res.status >= 500 || res.status < 100) fail(`server error ${res.status}`);
    if (res.status === 431) {
      // Refused by Node's parser past its header limit: platform/client-error.ts's typed error.
      if (headBytes(raw) <= MAX_HEAD_BYTES - 64) fail('431 for a request within the header limit');
      if (!res.text.includes('"code":"request_too_large"')) fail('a 431 without its typed error');
      return;
    }
    const leak =
      leaksInternals(res.text) ?? (res.text.includes(cloud.url) ? 'answer shows the cloud URL' : null);
    if (leak) fail(leak);
    const size = raw.body?.length ?? 0;
    if (built.cleanEnvelope && raw.body !== undefined) {
      if (size > BFF_BODY_LIMIT && res.status !== 413)
        fail(`a ${size}-byte JSON body got ${res.status}, not 413`);
      if (size <= BFF_BODY_LIMIT && res.status === 413)
        fail(`a ${size}-byte body (within the limit) got 413`);
    }
    if (res.status >= 400) {
      const problem = built.api
        ? apiErrorProblem(res, raw.method)
        : // Outside /api: the single-page app; Express's own 404 for a method it does not serve.
          res.status === 404
          ? null
          : apiErrorProblem(res, raw.method);
      if (problem) fail(`error format: ${problem}`);
      if (res.text.includes('"session_expired"')) fail('a hostile request ended a valid session');
    }

    // Background work this request started: a launch, the cloud's backends.
    if (r.endpoint === 'POST /api/launches' && res.status === 202 && raw.method === 'POST') {
      const id = (JSON.parse(res.text) as { id: string }).id;
      this.fx.ids[r.role].launch.push(id);
      await this.awaitLaunch(r.role, id);
    }
    await cloud.settle();
    if ((res.status >= 400 && res.status < 500) || SAFE.has(raw.method)) {
      const after = await this.#digest();
      this.stats.dbChecks++;
      const changed = changedTables(before, after);
      if (changed.length > 0) {
        fail(
          `${res.status >= 400 ? 'a refused' : `a ${raw.method}`} request changed the cloud's table(s) ${changed.join(', ')}`,
        );
      }
      this.#last = after;
    }
    if (/^\/api\/session/i.test(raw.path) || res.status === 401) {
      await this.keepSignedIn();
      // A sign-in revokes its spent unscoped token off the request path: wait for that to land
      // before the next request's "before".
      this.#last = await this.#quiet();
    }
  }

  /** The cloud's tables once they stop changing (two equal reads 150 ms apart, for at most 3 s). */
  async #quiet(): Promise<Digest> {
    let last = await this.#digest();
    for (let i = 0; i < 20; i++) {
      await new Promise((r) => setTimeout(r, 150));
      const now = await this.#digest();
      if (changedTables(last, now).length === 0) return now;
      last = now;
    }
    return last;
  }
}
