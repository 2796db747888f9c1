import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import type { TestCloud } from '../helpers/cloud.js';
import type { CloudFixtures } from './cloud-fixtures.js';
import { faultProblem, leaksInternals, type Zone, zoneOf } from './cloud-faults.js';
import { cloudEndpoints, type Endpoint, idKindOf, methodsFor, type Role } from './cloud-inventory.js';
import { changedTables, type Digest, digester } from './db-digest.js';
import {
  ALL_METHODS,
  applyPathTrick,
  BODY_LIMIT,
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
} from './hostile.js';
import { FuzzStats } from './stats.js';
import {
  headBytes,
  headerOf,
  MAX_HEAD_BYTES,
  type RawRequest,
  type RawResponse,
  sendRaw,
} from './raw-http.js';

/**
 * One fuzz request as a small recipe (what fast-check prints on failure), built into bytes by
 * `build`, sent, and checked by `CloudFuzzer.exercise`:
 * - no answer is a 5xx (but Nova's own 501, below), and none shows a stack frame or a source path;
 * - every 4xx is in its service's fault format (cloud-faults.ts);
 * - a method a path does not route gets the service's own answer (Keystone 405, Nova webob 404...);
 * - a body past the limit is refused with 413 once the token and microversion are good, and a body
 *   at the limit is not;
 * - a refused request (4xx), and any GET/HEAD/OPTIONS, leaves every table as it was (but the one
 *   change Nova itself keeps, below).
 */

export type IdChoice = { real: number } | { hostile: string };
export type VersionChoice = 'valid' | 'none' | 'min' | 'mid' | 'latest';

export type Attack =
  | { family: 'valid' }
  | { family: 'mutate'; at: number; mutation: Mutation }
  | { family: 'rawBody'; body: RawBody }
  | { family: 'wrongMethod'; method: string; withBody: boolean }
  | { family: 'hostileId'; param: number; segment: string }
  | { family: 'path'; trick: PathTrick }
  | { family: 'headers'; headers: HeaderSet }
  | { family: 'query'; query: QueryTrick };

export interface Recipe {
  endpoint: string;
  role: Role;
  n: number;
  ids: IdChoice[];
  version: VersionChoice;
  attack: Attack;
}

const byKey = new Map(cloudEndpoints.map((e) => [e.key, e]));
export const endpointOf = (key: string): Endpoint => {
  const e = byKey.get(key);
  if (!e) throw new Error(`unknown endpoint ${key}`);
  return e;
};

const paramsOf = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);

const idChoice: fc.Arbitrary<IdChoice> = fc.oneof(
  { weight: 8, arbitrary: fc.nat().map((real) => ({ real })) },
  { weight: 1, arbitrary: hostileSegment.map((hostile) => ({ hostile })) },
);

/** Every kind of attack, weighted towards the ones that reach deepest. */
export function attackFor(e: Endpoint): fc.Arbitrary<Attack> {
  const routed = methodsFor(e.path);
  const wrong = ALL_METHODS.filter((m) => !routed.has(m) && !routed.has('ALL'));
  const service = e.service === 'volume' ? 'volume' : 'compute';
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant({ family: 'valid' as const }) },
    {
      weight: e.body ? 8 : 2,
      arbitrary: fc.record({ family: fc.constant('mutate' as const), at: fc.nat(), mutation }),
    },
    { weight: 4, arbitrary: fc.record({ family: fc.constant('rawBody' as const), body: rawBody }) },
    {
      weight: wrong.length > 0 ? 2 : 0,
      arbitrary: fc.record({
        family: fc.constant('wrongMethod' as const),
        method: fc.constantFrom(...(wrong.length > 0 ? wrong : ['GET'])),
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
      arbitrary: fc.record({ family: fc.constant('headers' as const), headers: oddHeaders(service) }),
    },
    {
      weight: e.method === 'GET' || e.method === 'DELETE' ? 3 : 1,
      arbitrary: fc.record({ family: fc.constant('query' as const), query: oddQuery }),
    },
  );
}

export const recipeFor = (e: Endpoint): fc.Arbitrary<Recipe> =>
  fc.record({
    endpoint: fc.constant(e.key),
    role: fc.constantFrom<Role>('admin', 'member'),
    n: fc.nat({ max: 1_000_000 }),
    ids: fc.array(idChoice, { minLength: 3, maxLength: 3 }),
    version: fc.constantFrom<VersionChoice>('valid', 'valid', 'valid', 'none', 'min', 'mid', 'latest'),
    attack: attackFor(e),
  });

const IDENTITY_WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface Built {
  raw: RawRequest;
  zone: Zone;
  /** The cloud reads (and size-checks) this request's body before routing it. */
  readsBody: boolean;
  /** Token, microversion and headers are the good ones: only the body or path is hostile. */
  cleanEnvelope: boolean;
  /** What a method the path does not route must get from this service (wrong-method attacks). */
  wrongMethod?: WrongMethodAnswer;
}

/**
 * The faithful answer to a method a path does not route: Keystone's 405 (Flask; OPTIONS lists the
 * methods), Nova's webob 404 without microversion headers (captures 151, 152), Cinder's 404, and
 * Glance's 404 to OPTIONS.
 */
export interface WrongMethodAnswer {
  status: number;
  body?: unknown;
  noVersionHeaders?: boolean;
}

const WEBOB_404 = {
  message: 'The resource could not be found.<br /><br />\n\n\n',
  code: '404 Not Found',
  title: 'Not Found',
};

const templateRegex = (template: string) =>
  new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/:\w+/g, '[^/]+')}/?$`, 'i');
const routeMatchers = cloudEndpoints.map((e) => ({ method: e.method, re: templateRegex(e.path) }));

function wrongMethodAnswer(e: Endpoint, method: string, path: string): WrongMethodAnswer | undefined {
  // The concrete path may be another template's (DELETE /servers/detail is DELETE /servers/{id}).
  const routed = routeMatchers.some(
    (m) =>
      m.re.test(path) &&
      (m.method === method || m.method === 'ALL' || (method === 'HEAD' && m.method === 'GET')),
  );
  if (routed) return undefined;
  switch (e.service) {
    case 'identity':
      return method === 'OPTIONS'
        ? { status: 200 }
        : {
            status: 405,
            body: {
              error: {
                code: 405,
                message: 'The method is not allowed for the requested URL.',
                title: 'Method Not Allowed',
              },
            },
          };
    case 'compute':
      return { status: 404, body: WEBOB_404, noVersionHeaders: true };
    case 'volume':
      return { status: 404 };
    case 'network':
      // This Neutron answers every method it does not route with its 404 (docs/network.md).
      return { status: 404 };
    case 'image':
      // Real Glance answers 405 to some methods on its routes (this minimal Glance 404s them, not
      // checked here); OPTIONS it does not route. Outside /v2 the versions app answers all with 300.
      return path.startsWith('/image/v2/') && method === 'OPTIONS' ? { status: 404 } : undefined;
  }
}

function versionHeader(e: Endpoint, choice: VersionChoice): string | null {
  if (e.service !== 'compute' && e.service !== 'volume') return null;
  const compute = e.service === 'compute';
  switch (choice) {
    case 'valid':
      return e.version ?? (compute ? 'compute 2.105' : 'volume 3.71');
    case 'none':
      return null;
    case 'min':
      return compute ? 'compute 2.1' : 'volume 3.0';
    case 'mid':
      return compute ? 'compute 2.60' : 'volume 3.50';
    case 'latest':
      return compute ? 'compute latest' : 'volume latest';
  }
}

export function build(r: Recipe, fx: CloudFixtures): Built {
  const e = endpointOf(r.endpoint);
  const a = r.attack;
  const session = r.role === 'admin' ? fx.admin : fx.member;
  const c = { fx, role: r.role, n: r.n };
  let method = e.method === 'ALL' ? 'GET' : e.method;
  if (a.family === 'wrongMethod') method = a.method;

  // Path: real ids (identity writes only on the fuzz's own resources), or hostile ones.
  const params = paramsOf(e.path);
  let path = e.path;
  let foreignProject = false;
  params.forEach((p, i) => {
    let choice = r.ids[i] ?? { real: 0 };
    if (a.family === 'hostileId' && a.param % params.length === i) choice = { hostile: a.segment };
    let value: string;
    if ('hostile' in choice) value = choice.hostile;
    else {
      const kind = idKindOf(e.path, p);
      // DELETE /things/{id} removes a thing: only expendable ones (not a detach, grant or spec key).
      const grant = e.path.includes('/roles/:roleId') && e.path.includes('/users/');
      const removes =
        method === 'DELETE' &&
        e.path.endsWith(`/:${p}`) &&
        !e.path.includes('/os-volume_attachments/') &&
        !grant;
      if (kind === 'ownProject' && choice.real % 8 === 0) foreignProject = true;
      const pool =
        kind === 'ownProject'
          ? choice.real % 8 === 0
            ? [r.role === 'admin' ? fx.member.projectId : fx.admin.projectId]
            : [session.projectId]
          : removes && fx.expendable[kind]
            ? fx.expendable[kind]
            : e.service === 'identity' && IDENTITY_WRITES.has(method)
              ? grant && kind === 'role'
                ? [...(fx.identityWritable.role ?? []), fx.ids.role[1]!]
                : (fx.identityWritable[kind] ?? ['nothing-writable'])
              : fx.ids[kind];
      value = encodeURIComponent(pool[choice.real % Math.max(pool.length, 1)] ?? 'none');
    }
    path = path.replace(`:${p}`, () => value);
  });
  if (a.family === 'path') path = applyPathTrick(path, a.trick);
  if (a.family === 'query') path += `?${queryString(a.query)}`;

  // Body: the valid one, a mutation of it, or raw bytes.
  const valid = e.body?.(c);
  let body: Buffer | undefined;
  if (a.family === 'mutate') body = Buffer.from(mutatedJson(valid, a.at, a.mutation));
  else if (a.family === 'rawBody') body = rawBodyBytes(a.body, valid);
  else if (valid !== undefined && (a.family !== 'wrongMethod' || a.withBody))
    body = Buffer.from(JSON.stringify(valid));

  const headers: HeaderSet = { 'X-Auth-Token': session.token, Accept: 'application/json', ...e.headers?.(c) };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const version = versionHeader(e, r.version);
  if (version) headers['OpenStack-API-Version'] = version;
  if (a.family === 'headers') Object.assign(headers, a.headers);

  const zone = zoneOf(path);
  const p = path.split('?')[0]!;
  const readsBody =
    zone === 'identity' ||
    (zone === 'compute' && /^\/compute\/v2\.1\/./i.test(p)) ||
    (zone === 'volume' && /^\/volume\/v3\/[^/]+/i.test(p)) ||
    (zone === 'network' && /^\/network\/v2\.0\//i.test(p));
  const cleanEnvelope = a.family !== 'headers' && (r.version === 'valid' || e.service === 'identity');
  const realIds = r.ids.slice(0, params.length).every((c) => 'real' in c) && !foreignProject;
  const wrongMethod =
    a.family === 'wrongMethod' && cleanEnvelope && realIds ? wrongMethodAnswer(e, method, path) : undefined;
  return {
    raw: { method, path, headers, ...(body !== undefined ? { body } : {}) },
    zone,
    readsBody,
    cleanEnvelope,
    ...(wrongMethod ? { wrongMethod } : {}),
  };
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The one 5xx Nova gives by design: uptime of a hypervisor whose driver has none (ironic), which
 * `common.raise_feature_not_supported` answers 501. Any other 5xx fails the fuzz.
 */
const isFaithfulNotImplemented = (raw: RawRequest, res: RawResponse) =>
  res.status === 501 &&
  /^\/compute\/v2\.1\/os-hypervisors\/[^/]+\/uptime$/i.test(raw.path.split('?')[0]!) &&
  res.text ===
    JSON.stringify({
      notImplemented: { code: 501, message: 'The requested functionality is not supported.' },
    });

/**
 * The one refusal that may leave a change behind, as in Nova: from 2.85, PUT os-volume_attachments
 * saves delete_on_termination (`_update_volume_regular`, bdm.save()) before it tries the swap the
 * body asks for, and a failed swap does not undo it.
 */
function mayChangeWhenRefused(raw: RawRequest): string[] {
  if (
    raw.method !== 'PUT' ||
    !/^\/compute\/v2\.1\/servers\/[^/]+\/os-volume_attachments\/[^/]+$/i.test(raw.path)
  )
    return [];
  return raw.body?.includes('delete_on_termination') ? ['block_device_mappings'] : [];
}

/** A short account of a request for failure messages (bodies cut). */
export function describeRequest(raw: RawRequest, res?: RawResponse): string {
  const body = raw.body ? ` body(${raw.body.length} B): ${raw.body.toString('utf8').slice(0, 200)}` : '';
  const headers = Object.entries(raw.headers)
    .filter(([k]) => k !== 'X-Auth-Token')
    .map(([k, v]) => `${k}: ${String(v).slice(0, 80)}`)
    .join('; ');
  const answer = res ? `\n  → ${res.status} ${headerOf(res, 'content-type')} ${res.text.slice(0, 300)}` : '';
  return `${raw.method} ${raw.path.slice(0, 300)} [${headers}]${body}${answer}`;
}

export class CloudFuzzer {
  readonly stats = new FuzzStats();
  #digest!: () => Promise<Digest>;
  #last: Digest | null = null;

  constructor(
    readonly tc: TestCloud,
    readonly fx: CloudFixtures,
  ) {}

  async init(): Promise<void> {
    this.#digest = await digester(this.tc.cloud.deps.store);
  }

  /** Builds, sends and checks one recipe; throws with the request and answer on any violation. */
  async exercise(r: Recipe): Promise<void> {
    const built = build(r, this.fx);
    await this.send(built, r.attack.family);
  }

  async send(built: Built, family: string): Promise<RawResponse> {
    const { raw } = built;
    await this.tc.settle();
    const before = this.#last ?? (await this.#digest());
    this.#last = null;
    let res: RawResponse;
    try {
      res = await sendRaw(this.tc.url, raw);
    } catch (err) {
      throw new Error(`no answer (${(err as Error).message}) to ${describeRequest(raw)}`);
    }
    this.stats.record(res.status, family);
    const fail = (why: string) => {
      throw new Error(`${why}\n  ${describeRequest(raw, res)}`);
    };

    if ((res.status >= 500 && !isFaithfulNotImplemented(raw, res)) || res.status < 100)
      fail(`server error ${res.status}`);
    if (res.status === 414 || res.status === 431) {
      // Refused by Node's parser past its header limit, before any route: platform/http/client-error.ts
      // still answers with a fault body (Keystone's or Nova's, with the status as its code).
      if (headBytes(raw) <= MAX_HEAD_BYTES - 64) fail(`${res.status} for a request within the header limit`);
      const body = isJson(res.text) ? (JSON.parse(res.text) as Record<string, { code?: unknown }>) : null;
      const fault = body?.computeFault ?? body?.error;
      if (fault?.code !== res.status) fail(`a ${res.status} without its fault body`);
      return res;
    }
    const leak = leaksInternals(res.text);
    if (leak) fail(leak);
    const size = raw.body?.length ?? 0;
    if (built.readsBody && size > BODY_LIMIT) {
      if (res.status < 400) fail(`a ${size}-byte body was accepted`);
      if (built.cleanEnvelope && res.status !== 413) fail(`a ${size}-byte body got ${res.status}, not 413`);
    }
    if (size <= BODY_LIMIT && res.status === 413) fail(`a ${size}-byte body (within the limit) got 413`);
    const expected = built.wrongMethod;
    if (expected && (size <= BODY_LIMIT || !built.readsBody)) {
      if (res.status !== expected.status)
        fail(`an unrouted method got ${res.status}, not ${expected.status}`);
      if (
        expected.body !== undefined &&
        raw.method !== 'HEAD' &&
        !isDeepStrictEqual(JSON.parse(res.text), expected.body)
      )
        fail('an unrouted method got another body than the service gives');
      if (expected.noVersionHeaders && headerOf(res, 'openstack-api-version') !== '')
        fail('an unrouted method was answered with microversion headers');
    }
    if (res.status >= 400) {
      const accept = String(raw.headers.Accept ?? '');
      const problem = faultProblem(built.zone, res, raw.method, accept);
      if (problem) fail(`fault format: ${problem}`);
    }
    if (
      res.status >= 200 &&
      res.status < 400 &&
      headerOf(res, 'content-type').startsWith('application/json')
    ) {
      if (res.text !== '' && !isJson(res.text)) fail('a JSON answer that does not parse');
    }

    await this.tc.settle();
    if ((res.status >= 400 && res.status < 500) || SAFE.has(raw.method)) {
      const after = await this.#digest();
      this.stats.dbChecks++;
      const allowed = res.status >= 400 ? mayChangeWhenRefused(raw) : [];
      const changed = changedTables(before, after).filter((t) => !allowed.includes(t));
      if (changed.length > 0)
        fail(
          `${res.status >= 400 ? 'a refused' : `a ${raw.method}`} request changed table(s) ${changed.join(', ')}`,
        );
      this.#last = after;
    }
    return res;
  }

  summary(label: string): string {
    return this.stats.summary(label);
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
