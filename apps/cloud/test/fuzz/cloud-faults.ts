import { headerOf, type RawResponse } from './raw-http.js';

/**
 * What a refusal must look like, per service, as the recorded cloud answers (apps/cloud/test/golden/captures):
 * - Nova and Cinder: `{"<faultName>": {"code": <status>, "message": "..."}}` with Nova's
 *   `_fault_names` (captures 6, 122, 150), or webob's own 404 body for a path or method the API does
 *   not route (captures 151, 152, 154), or keystonemiddleware's 401 (capture 81);
 * - Keystone: `{"error": {"code": <status>, "message": "...", "title": "..."}}`;
 * - Neutron: `{"NeutronError": {"type": ..., "message": ..., "detail": ...}}`;
 * - Glance: webob's `{"message": "...<br /><br />\n\n\n", "code": "<status> <Title>", "title": "..."}`
 *   for a JSON client, `<status> <Title>\n\n<message>` as text otherwise;
 * - anything outside the four services: webob's 404.
 */

export type Zone = 'identity' | 'compute' | 'volume' | 'image' | 'network' | 'outside';

/** Which service's router a path reaches (Express matches mount paths case-insensitively). */
export function zoneOf(pathWithQuery: string): Zone {
  const path = pathWithQuery.split('?')[0]!;
  const m = /^\/(identity|compute|volume|image|network)(\/|$)/i.exec(path);
  return m ? (m[1]!.toLowerCase() as Zone) : 'outside';
}

/** Nova's `Fault._fault_names` (Cinder has the same table): any other status is computeFault. */
const NOVA_FAULT_NAMES: Record<number, string> = {
  400: 'badRequest',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'itemNotFound',
  405: 'badMethod',
  409: 'conflictingRequest',
  413: 'overLimit',
  415: 'badMediaType',
  429: 'overLimit',
  501: 'notImplemented',
  503: 'serviceUnavailable',
};

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const keysAre = (v: Record<string, unknown>, keys: string[]) =>
  Object.keys(v).sort().join(',') === [...keys].sort().join(',');

function novaFault(status: number, body: unknown): string | null {
  if (!isObject(body) || Object.keys(body).length !== 1) return 'not a one-key Nova/Cinder fault';
  const [name, inner] = Object.entries(body)[0]!;
  const expected = NOVA_FAULT_NAMES[status] ?? 'computeFault';
  if (name !== expected) return `fault name ${name}, expected ${expected} for ${status}`;
  if (!isObject(inner) || !keysAre(inner, ['code', 'message']))
    return 'fault without exactly code and message';
  if (inner.code !== status) return `fault code ${String(inner.code)} != status ${status}`;
  if (typeof inner.message !== 'string') return 'fault message is not a string';
  return null;
}

function keystoneError(status: number, body: unknown): string | null {
  if (!isObject(body) || !keysAre(body, ['error'])) return 'not a Keystone {"error": ...} body';
  const e = body.error;
  if (!isObject(e)) return 'error is not an object';
  const keys = Object.keys(e).filter((k) => k !== 'identity');
  if (!keysAre(Object.fromEntries(keys.map((k) => [k, 1])), ['code', 'message', 'title']))
    return 'error without exactly code, message, title';
  if (e.code !== status) return `error code ${String(e.code)} != status ${status}`;
  if (typeof e.message !== 'string' || typeof e.title !== 'string' || e.title === '')
    return 'error message or title is not a string';
  return null;
}

/** Neutron's `{"NeutronError": {"type", "message", "detail"}}`. */
function neutronError(body: unknown): string | null {
  if (!isObject(body) || !keysAre(body, ['NeutronError'])) return 'not a {"NeutronError": ...} body';
  const e = body.NeutronError;
  if (!isObject(e) || !keysAre(e, ['type', 'message', 'detail']))
    return 'NeutronError without type, message, detail';
  if (typeof e.type !== 'string' || typeof e.message !== 'string')
    return 'NeutronError type or message not a string';
  return null;
}

function webobError(status: number, body: unknown): string | null {
  if (!isObject(body) || !keysAre(body, ['code', 'message', 'title'])) return 'not a webob body';
  if (typeof body.title !== 'string' || body.code !== `${status} ${body.title}`)
    return `webob code ${String(body.code)} does not match ${status}`;
  if (typeof body.message !== 'string' || !body.message.endsWith('<br /><br />\n\n\n'))
    return 'webob message is not webob text';
  return null;
}

const firstOk = (...checks: (string | null)[]): string | null =>
  checks.some((c) => c === null) ? null : checks.join('; ');

/** Null when a 4xx answer is in its service's format, else what is wrong with it. */
export function faultProblem(zone: Zone, res: RawResponse, method: string, accept: string): string | null {
  if (method === 'HEAD') return null;
  const type = headerOf(res, 'content-type');
  if (zone === 'image' && !accept.includes('application/json')) {
    if (type.startsWith('text/plain'))
      return /^\d{3} [A-Za-z ]+\n\n/.test(res.text)
        ? null
        : 'Glance text fault is not "<status> <Title>\\n\\n…"';
  }
  if (!type.startsWith('application/json')) return `fault content type ${type || '(none)'}`;
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    return 'fault body is not JSON';
  }
  const s = res.status;
  const middleware401 = s === 401 ? keystoneError(s, body) : 'not a 401';
  switch (zone) {
    case 'identity':
      return keystoneError(s, body);
    case 'compute':
    case 'volume':
      return firstOk(novaFault(s, body), webobError(s, body), middleware401);
    case 'image':
      return firstOk(webobError(s, body), middleware401);
    case 'network':
      return firstOk(neutronError(body), middleware401);
    case 'outside':
      return s === 404 ? webobError(s, body) : `status ${s} outside the services`;
  }
}

/** Stack frames or source paths anywhere in an answer. */
const INTERNALS = [
  /(^|\n|\\n)\s*at\s+\S.*:\d+:\d+/,
  /\bat (async )?[\w$.<>]+ \((file:|\/|node:)/,
  /node_modules\//,
  /file:\/\/\//,
  /\/apps\/(cloud|bff)\/src\//,
];

export function leaksInternals(text: string): string | null {
  for (const re of INTERNALS) {
    const m = re.exec(text);
    if (m) return `answer shows internals: …${text.slice(Math.max(0, m.index - 40), m.index + 80)}…`;
  }
  return null;
}
