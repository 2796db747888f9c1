/**
 * Golden-test helpers over the oracle captures in `captures/*.json` beside this file (real request/response
 * pairs recorded from a real Keystone / Nova / Cinder cloud, kept in the repository as test fixtures).
 *
 * - `loadCapture` finds and parses a capture file (by number or name).
 * - `mapCapturePath` turns a captured URL (`http://127.0.0.1:8776/v3/<pid>/...`) into the devstack-style
 *   path served by the bundled cloud (`/volume/v3/<pid>/...`).
 * - `compareShapes` / `compareCapture` compare a captured JSON body with ours: same keys, same JSON types,
 *   optional value formats (uuid, hex id, the three OpenStack time formats, `req-<uuid>`) and exact values.
 * - `headerDiff` compares selected response headers.
 *
 * Every comparison returns a list of human-readable differences; an empty list means "matches".
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// ---------------------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------------------

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };
export type JsonType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

export interface CaptureRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** JSON body, `null` when none, or a string for a non-JSON body (capture 141). */
  body: Json;
}

export interface CaptureResponse {
  status: number;
  reason: string;
  headers: Record<string, string>;
  /** Parsed JSON body, or `""` for an empty body. */
  body: Json;
}

export interface Capture {
  /** File name inside the captures folder, e.g. `05-cinder-volume-show-available.json`. */
  file: string;
  request: CaptureRequest;
  response: CaptureResponse;
  elapsed_ms: number;
}

// ---------------------------------------------------------------------------------------------------------
// Locating and loading captures
// ---------------------------------------------------------------------------------------------------------

// The recorded exchanges live beside these helpers, in the repository: a fresh clone needs nothing else.
const CAPTURES_DIR = join(dirname(fileURLToPath(import.meta.url)), 'captures');

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The captures folder: `$ORACLE_CAPTURES_DIR` if set (to try the helpers on another set of recordings),
 * else `captures/` beside this file.
 */
export function capturesDir(): string {
  const fromEnv = process.env['ORACLE_CAPTURES_DIR'];
  if (fromEnv) {
    const p = resolve(fromEnv);
    if (!isDir(p)) throw new Error(`ORACLE_CAPTURES_DIR=${fromEnv} is not a directory`);
    return p;
  }
  return CAPTURES_DIR;
}

/** All capture file names (`*.json`), sorted by their leading number. */
export function listCaptures(): string[] {
  return readdirSync(capturesDir())
    .filter((f) => f.endsWith('.json'))
    .sort((a, b) => captureNumber(a) - captureNumber(b) || a.localeCompare(b));
}

function captureNumber(file: string): number {
  const m = /^(\d+)-/.exec(file);
  return m ? Number(m[1]) : Number.POSITIVE_INFINITY;
}

/** Resolve `5`, `"5"`, `"05"`, `"05-cinder-volume-show-available"` or the full file name to a file name. */
export function resolveCaptureFile(nameOrNumber: string | number): string {
  const files = listCaptures();
  const key = String(nameOrNumber).trim();
  if (/^\d+$/.test(key)) {
    const n = Number(key);
    const hits = files.filter((f) => captureNumber(f) === n);
    if (hits.length === 1 && hits[0] !== undefined) return hits[0];
    if (hits.length > 1) throw new Error(`capture number ${n} is ambiguous: ${hits.join(', ')}`);
    throw new Error(`no capture numbered ${n} in ${capturesDir()}`);
  }
  const exact = files.find((f) => f === key || f === `${key}.json`);
  if (exact) return exact;
  const prefixed = files.filter((f) => f.startsWith(key));
  if (prefixed.length === 1 && prefixed[0] !== undefined) return prefixed[0];
  if (prefixed.length > 1) {
    throw new Error(`capture name "${key}" is ambiguous: ${prefixed.slice(0, 10).join(', ')}`);
  }
  throw new Error(`no capture named "${key}" in ${capturesDir()}`);
}

/** Raw parsed JSON of a capture file (also works for the summary files 199 and 299). Fresh copy per call. */
export function loadCaptureJson(nameOrNumber: string | number): Json {
  const file = resolveCaptureFile(nameOrNumber);
  return JSON.parse(readFileSync(join(capturesDir(), file), 'utf8')) as Json;
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function stringRecord(v: unknown, what: string): Record<string, string> {
  if (!isObject(v)) throw new Error(`${what} is not an object`);
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v)) out[k] = typeof val === 'string' ? val : String(val);
  return out;
}

/**
 * Load one HTTP exchange. Returns a fresh object on every call (safe to mutate in tests).
 * Throws for files that are not request/response pairs (199, 299: use `loadCaptureJson`).
 */
export function loadCapture(nameOrNumber: string | number): Capture {
  const file = resolveCaptureFile(nameOrNumber);
  const raw = loadCaptureJson(file);
  if (!isObject(raw) || !isObject(raw['request']) || !isObject(raw['response'])) {
    throw new Error(`${file} is not an HTTP exchange (no request/response); use loadCaptureJson()`);
  }
  const req = raw['request'];
  const res = raw['response'];
  if (typeof req['method'] !== 'string' || typeof req['url'] !== 'string') {
    throw new Error(`${file}: request.method/url missing`);
  }
  if (typeof res['status'] !== 'number') throw new Error(`${file}: response.status missing`);
  return {
    file,
    request: {
      method: req['method'],
      url: req['url'],
      headers: stringRecord(req['headers'] ?? {}, `${file}: request.headers`),
      body: req['body'] ?? null,
    },
    response: {
      status: res['status'],
      reason: typeof res['reason'] === 'string' ? res['reason'] : '',
      headers: stringRecord(res['headers'] ?? {}, `${file}: response.headers`),
      body: res['body'] ?? '',
    },
    elapsed_ms: typeof raw['elapsed_ms'] === 'number' ? raw['elapsed_ms'] : 0,
  };
}

/** Request headers used by the capture, lower-cased keys, minus what an HTTP client adds by itself. */
const CLIENT_HEADERS = new Set(['user-agent', 'accept-encoding', 'connection', 'content-length', 'host']);

/**
 * The capture's request headers ready to replay: lower-cased names, transport headers dropped,
 * `<redacted>` tokens replaced by `token` (or dropped when no token is given).
 */
export function replayHeaders(capture: Capture, opts: { token?: string } = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(capture.request.headers)) {
    const name = k.toLowerCase();
    if (CLIENT_HEADERS.has(name)) continue;
    if (v === '<redacted>') {
      if (opts.token !== undefined) out[name] = opts.token;
      continue;
    }
    out[name] = v;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// URL mapping
// ---------------------------------------------------------------------------------------------------------

/** Port of the recorded service -> prefix of the same service on the bundled cloud. */
export const SERVICE_PREFIX_BY_PORT: Readonly<Record<string, string>> = {
  '5000': '/identity', // Keystone
  '8774': '/compute', // Nova
  '8776': '/volume', // Cinder
  '9292': '/image', // Glance
};

const EMULATED_PREFIXES = ['/identity', '/compute', '/volume', '/image'];

export interface MapPathOptions {
  /** Replaces the project id in Cinder paths (`/v3/<pid>/...` and bookmark `/<pid>/...`). */
  projectId?: string;
  /** Captured id -> id in our test; every occurrence in path and query is replaced. */
  replaceIds?: Record<string, string>;
}

const URL_RE = /^(https?):\/\/([^/?#:]+)(?::(\d+))?([^?#]*)(\?[^#]*)?(#.*)?$/;

function replaceAllIds(s: string, replaceIds: Record<string, string> | undefined): string {
  if (!replaceIds) return s;
  // Longest keys first so that one id that contains another is replaced as a whole.
  const keys = Object.keys(replaceIds)
    .filter((k) => k.length > 0)
    .sort((a, b) => b.length - a.length);
  let out = s;
  for (const k of keys) out = out.split(k).join(replaceIds[k] ?? k);
  return out;
}

/**
 * Captured URL -> path (with query string) to send to the bundled cloud.
 * `http://127.0.0.1:5000/v3/auth/tokens` -> `/identity/v3/auth/tokens`,
 * `http://127.0.0.1:8774/v2.1/servers` -> `/compute/v2.1/servers`, `:8774/` -> `/compute/`,
 * `http://127.0.0.1:8776/v3/<pid>/volumes?limit=2` -> `/volume/v3/<projectId ?? pid>/volumes?limit=2`.
 * A path that already starts with one of our prefixes is kept as is. Throws for other services
 * (e.g. Neutron 9696, Placement 8778, which only appear in catalogs).
 */
export function mapCapturePath(url: string, opts: MapPathOptions = {}): string {
  let path: string;
  let query: string;
  let port: string | undefined;
  const m = URL_RE.exec(url);
  if (m) {
    port = m[3] ?? (m[1] === 'https' ? '443' : '80');
    path = m[4] || '/';
    query = m[5] ?? '';
  } else if (url.startsWith('/')) {
    const q = url.indexOf('?');
    path = q < 0 ? url : url.slice(0, q);
    query = q < 0 ? '' : url.slice(q);
  } else {
    throw new Error(`mapCapturePath: not a URL or absolute path: ${url}`);
  }

  const known = port === undefined ? undefined : SERVICE_PREFIX_BY_PORT[port];
  let prefix: string;
  if (known !== undefined) {
    prefix = known;
  } else if (EMULATED_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`))) {
    prefix = '';
  } else {
    throw new Error(`mapCapturePath: no emulated service for ${url}`);
  }

  if (prefix === '/volume' && opts.projectId !== undefined) {
    const segs = path.split('/'); // ['', 'v3', '<pid>', ...] or ['', '<pid>', ...] (bookmark links)
    if (segs[1] === 'v3' && segs[2]) segs[2] = opts.projectId;
    else if (segs[1] && looksLikeHexId(segs[1])) segs[1] = opts.projectId;
    path = segs.join('/');
  }
  return prefix + replaceAllIds(path, opts.replaceIds) + replaceAllIds(query, opts.replaceIds);
}

/**
 * Captured absolute URL -> absolute URL on the bundled cloud (`baseUrl` + mapped path). URLs of services
 * we don't emulate, and strings that are not URLs, are returned unchanged.
 */
export function mapCaptureUrl(url: string, opts: MapPathOptions & { baseUrl: string }): string {
  const m = URL_RE.exec(url);
  if (!m || m[3] === undefined || SERVICE_PREFIX_BY_PORT[m[3]] === undefined) return url;
  return opts.baseUrl.replace(/\/+$/, '') + mapCapturePath(url, opts);
}

// ---------------------------------------------------------------------------------------------------------
// Value formats
// ---------------------------------------------------------------------------------------------------------

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HEX_ID_RE = /^[0-9a-f]{32}$/;
const REQ_ID_RE = /^req-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DATE_TIME = '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}';
/** Cinder (and Nova's `*_at` DB columns): `2026-11-21T12:22:04.000000`. */
const TIME_MICRO_RE = new RegExp(`^${DATE_TIME}\\.\\d{6}$`);
/** Nova `created`/`updated`, versions `updated`: `2026-11-21T12:22:05Z`. */
const TIME_Z_RE = new RegExp(`^${DATE_TIME}Z$`);
/** Keystone token `expires_at` / `issued_at`: `2026-11-22T12:54:11.000000Z`. */
const TIME_MICRO_Z_RE = new RegExp(`^${DATE_TIME}\\.\\d{6}Z$`);
/** Anything else ISO-8601-like (offsets, milliseconds, space separator...). */
const TIME_OTHER_RE = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** Lower-case canonical UUID (`0155e063-a222-4d63-b764-c99019bdcf50`). */
export function looksLikeUuid(s: unknown): s is string {
  return typeof s === 'string' && UUID_RE.test(s);
}

/** 32 lower-case hex digits (Keystone ids: users, projects, domains other than `default`). */
export function looksLikeHexId(s: unknown): s is string {
  return typeof s === 'string' && HEX_ID_RE.test(s);
}

/** `req-<uuid>` (X-Openstack-Request-Id, instance action `request_id`). */
export function looksLikeRequestId(s: unknown): s is string {
  return typeof s === 'string' && REQ_ID_RE.test(s);
}

export type TimeFormat = 'time-micro' | 'time-z' | 'time-micro-z' | 'time-other';

export const TIME_FORMAT_EXAMPLES: Readonly<Record<TimeFormat, string>> = {
  'time-micro': '2026-11-21T12:22:04.000000 (Cinder style)',
  'time-z': '2026-11-21T12:22:05Z (Nova style)',
  'time-micro-z': '2026-11-22T12:54:11.000000Z (Keystone style)',
  'time-other': 'another ISO-8601 form',
};

/** Which of the OpenStack time formats `s` is in, or null when it is not a timestamp. */
export function timeFormatOf(s: unknown): TimeFormat | null {
  if (typeof s !== 'string') return null;
  if (TIME_MICRO_RE.test(s)) return 'time-micro';
  if (TIME_Z_RE.test(s)) return 'time-z';
  if (TIME_MICRO_Z_RE.test(s)) return 'time-micro-z';
  if (TIME_OTHER_RE.test(s)) return 'time-other';
  return null;
}

export function looksLikeIsoTime(s: unknown): s is string {
  return timeFormatOf(s) !== null;
}

export type StringFormat = 'uuid' | 'hex-id' | 'req-id' | TimeFormat;

/** The recognised format of a string value, or null for free text. */
export function stringFormatOf(s: unknown): StringFormat | null {
  if (typeof s !== 'string') return null;
  if (UUID_RE.test(s)) return 'uuid';
  if (HEX_ID_RE.test(s)) return 'hex-id';
  if (REQ_ID_RE.test(s)) return 'req-id';
  return timeFormatOf(s);
}

/** Digits -> 9: two `time-other` values have the same format when their masks are equal. */
function digitMask(s: string): string {
  return s.replace(/\d/g, '9');
}

/** A difference message if `actual` is not in the same format as `expected` (which must have one). */
function formatMismatch(expected: string, actual: string): string | null {
  const fe = stringFormatOf(expected);
  if (fe === null) return null;
  const fa = stringFormatOf(actual);
  if (fe === fa && (fe !== 'time-other' || digitMask(expected) === digitMask(actual))) return null;
  return `format differs: expected ${fe} like ${JSON.stringify(expected)}, got ${fa ?? 'free text'} ${JSON.stringify(actual)}`;
}

// ---------------------------------------------------------------------------------------------------------
// Shapes and JSON paths
// ---------------------------------------------------------------------------------------------------------

export type Shape =
  | { type: 'null' | 'boolean' | 'number' | 'string' }
  | { type: 'array'; items: Shape | null }
  | { type: 'object'; properties: { [k: string]: Shape } };

export function jsonTypeOf(v: unknown): JsonType {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  switch (typeof v) {
    case 'boolean':
      return 'boolean';
    case 'number':
      return 'number';
    case 'string':
      return 'string';
    default:
      return 'object';
  }
}

/** The shape of a value; an array's item shape is the shape of its first element (null when empty). */
export function shapeOf(value: Json): Shape {
  if (Array.isArray(value)) {
    const first = value[0];
    return { type: 'array', items: first === undefined ? null : shapeOf(first) };
  }
  if (isObject(value)) {
    const properties: { [k: string]: Shape } = {};
    for (const [k, v] of Object.entries(value)) properties[k] = shapeOf(v);
    return { type: 'object', properties };
  }
  const t = jsonTypeOf(value);
  return { type: t === 'array' || t === 'object' ? 'null' : t };
}

export type PathSegment = string | number;

/** `['volume', 'attachments', 0, 'host_name']` -> `$.volume.attachments[0].host_name`. */
export function formatPath(path: readonly PathSegment[]): string {
  let out = '$';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (seg !== '' && !/[.[\]"'\s*]/.test(seg)) out += `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

type PatternSegment =
  | { kind: 'any' } // `*`: one key or index
  | { kind: 'deep' } // `**` or `..`: zero or more segments
  | { kind: 'index'; n: number }
  | { kind: 'key'; name: string; re: RegExp | null };

function keySegment(name: string): PatternSegment {
  if (name === '*') return { kind: 'any' };
  if (name === '**') return { kind: 'deep' };
  if (!name.includes('*')) return { kind: 'key', name, re: null };
  const src = name
    .split('*')
    .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return { kind: 'key', name, re: new RegExp(`^${src}$`) };
}

const patternCache = new Map<string, PatternSegment[]>();

/**
 * Parse a glob-ish JSON path: `$.volumes[*].name`, `$.server["OS-EXT-SRV-ATTR:host"]`,
 * `$.versions[0].links`, `$..links` / `$.**.links` (any depth), `$.volume.os-vol-*` (glob inside a key).
 * `*` matches any single key or index.
 */
export function parsePathPattern(pattern: string): PatternSegment[] {
  const cached = patternCache.get(pattern);
  if (cached) return cached;
  // Allow `volume.name` / `[0]` without the leading `$`.
  const src = pattern.startsWith('$') ? pattern.slice(1) : /^[.[]/.test(pattern) ? pattern : `.${pattern}`;
  const segs: PatternSegment[] = [];
  let i = 0;
  const fail = (why: string): never => {
    throw new Error(`bad path pattern ${JSON.stringify(pattern)}: ${why}`);
  };
  while (i < src.length) {
    const c = src[i];
    if (c === '.') {
      i++;
      if (src[i] === '.') {
        // `..name`: any depth; the second `.` introduces the name on the next round.
        segs.push({ kind: 'deep' });
        continue;
      }
      let j = i;
      while (j < src.length && src[j] !== '.' && src[j] !== '[') j++;
      if (j === i) fail('empty key');
      segs.push(keySegment(src.slice(i, j)));
      i = j;
    } else if (c === '[') {
      const close = src[i + 1] === '"' ? src.indexOf('"]', i + 2) + 1 : src.indexOf(']', i);
      if (close <= i) fail('unclosed [');
      const inner = src.slice(i + 1, close);
      if (inner === '*') segs.push({ kind: 'any' });
      else if (inner === '**') segs.push({ kind: 'deep' });
      else if (/^\d+$/.test(inner)) segs.push({ kind: 'index', n: Number(inner) });
      else if (inner.startsWith('"')) segs.push({ kind: 'key', name: JSON.parse(inner) as string, re: null });
      else segs.push(keySegment(inner));
      i = close + 1;
    } else {
      fail(`unexpected ${JSON.stringify(c)} at ${i}`);
    }
  }
  patternCache.set(pattern, segs);
  return segs;
}

function matchFrom(pat: PatternSegment[], pi: number, path: readonly PathSegment[], si: number): boolean {
  if (pi === pat.length) return si === path.length;
  const p = pat[pi];
  if (p === undefined) return false;
  if (p.kind === 'deep') {
    for (let k = si; k <= path.length; k++) if (matchFrom(pat, pi + 1, path, k)) return true;
    return false;
  }
  if (si >= path.length) return false;
  const s = path[si];
  if (s === undefined) return false;
  let ok: boolean;
  if (p.kind === 'any') ok = true;
  else if (p.kind === 'index') ok = s === p.n;
  else if (typeof s === 'number') ok = p.re ? p.re.test(String(s)) : p.name === String(s);
  else ok = p.re ? p.re.test(s) : p.name === s;
  return ok && matchFrom(pat, pi + 1, path, si + 1);
}

/** Whether a concrete path matches a glob-ish pattern (see `parsePathPattern`). */
export function pathMatches(pattern: string, path: readonly PathSegment[]): boolean {
  return matchFrom(parsePathPattern(pattern), 0, path, 0);
}

function matchesAny(patterns: readonly string[] | undefined, path: readonly PathSegment[]): boolean {
  return !!patterns && patterns.some((p) => pathMatches(p, path));
}

// ---------------------------------------------------------------------------------------------------------
// Comparing bodies
// ---------------------------------------------------------------------------------------------------------

export interface CompareOptions {
  /** Paths skipped entirely (with their subtrees), both for missing/extra keys and values. */
  ignore?: string[];
  /** Paths where null on either side is accepted against any other type (e.g. `$.volumes[*].name`). */
  nullable?: string[];
  /** Accept an empty actual array anywhere an expected array is non-empty. */
  allowEmptyArrays?: boolean;
  /** Paths of arrays where an empty actual array is accepted although the expected one is not. */
  lenientArrays?: string[];
  /**
   * Paths where values must be equal (after normalisation). On an object/array, applies to the whole
   * subtree: arrays are then compared element by element and must have the same length.
   */
  exact?: string[];
  /**
   * How an element of an actual array is checked (outside `pairwiseArrays` / `exact`):
   * `'first'`: against the first expected element only; `'best'` (default): against the first expected element,
   * or, if that gives differences, against the expected element giving the fewest differences (needed for
   * heterogeneous lists such as version `links`: `self` has no `type`, `describedby` has one).
   */
  arrayItems?: 'first' | 'best';
  /** Paths of arrays compared element by element (`actual[i]` vs `expected[i]`, same length). */
  pairwiseArrays?: string[];
  /** When true, an expected uuid / hex id / `req-<uuid>` / timestamp requires the same format in actual. */
  formats?: boolean;
  /** For `exact`: captured id -> our id, replaced inside expected strings before comparing. */
  replaceIds?: Record<string, string>;
  /** For `exact`: captured service URLs inside expected strings are rewritten to this base (+ our prefix). */
  baseUrl?: string;
  /** For `exact` with `baseUrl`: our project id for Cinder URLs. */
  projectId?: string;
  /** For `exact`: custom normalisation of leaf values, applied after the built-in one. */
  normalize?: (value: Json, path: string, side: 'expected' | 'actual') => Json;
}

const PREVIEW_MAX = 80;

function preview(v: unknown): string {
  const t = jsonTypeOf(v);
  let s: string;
  try {
    s = v === undefined ? 'undefined' : JSON.stringify(v);
  } catch {
    s = String(v);
  }
  if (s.length > PREVIEW_MAX) s = `${s.slice(0, PREVIEW_MAX - 3)}...`;
  return `${t} ${s}`;
}

const CAPTURED_URL_RE = /https?:\/\/(?:127\.0\.0\.1|localhost)(?::\d+)?[^\s"'<>]*/g;

function normalizeExpectedString(s: string, opts: CompareOptions): string {
  let out = s;
  if (opts.baseUrl !== undefined) {
    const { baseUrl, projectId } = opts;
    out = out.replace(CAPTURED_URL_RE, (u) =>
      mapCaptureUrl(u, { baseUrl, ...(projectId !== undefined ? { projectId } : {}) }),
    );
  }
  return replaceAllIds(out, opts.replaceIds);
}

function normalizeLeaf(
  v: Json,
  path: readonly PathSegment[],
  side: 'expected' | 'actual',
  opts: CompareOptions,
) {
  let out: Json = v;
  if (side === 'expected' && typeof out === 'string') out = normalizeExpectedString(out, opts);
  if (opts.normalize) out = opts.normalize(out, formatPath(path), side);
  return out;
}

function sameJson(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((x, i) => sameJson(x, b[i] ?? null))
    );
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return (
      ka.length === Object.keys(b).length && ka.every((k) => k in b && sameJson(a[k] ?? null, b[k] ?? null))
    );
  }
  return false;
}

function compareAt(
  expected: Json,
  actual: Json,
  path: PathSegment[],
  opts: CompareOptions,
  exactInherited: boolean,
  out: string[],
): void {
  if (matchesAny(opts.ignore, path)) return;
  const p = formatPath(path);
  const exact = exactInherited || matchesAny(opts.exact, path);
  const te = jsonTypeOf(expected);
  const ta = jsonTypeOf(actual);

  if (te !== ta) {
    if ((te === 'null' || ta === 'null') && matchesAny(opts.nullable, path)) return;
    out.push(`${p}: type differs: expected ${preview(expected)}, got ${preview(actual)}`);
    return;
  }

  if (te === 'object' && isObject(expected) && isObject(actual)) {
    for (const k of Object.keys(expected)) {
      if (!(k in actual) && !matchesAny(opts.ignore, [...path, k])) {
        out.push(`${formatPath([...path, k])}: missing key (expected ${preview(expected[k])})`);
      }
    }
    for (const k of Object.keys(actual)) {
      if (!(k in expected) && !matchesAny(opts.ignore, [...path, k])) {
        out.push(`${formatPath([...path, k])}: extra key (got ${preview(actual[k])})`);
      }
    }
    for (const k of Object.keys(expected)) {
      if (k in actual) compareAt(expected[k] ?? null, actual[k] ?? null, [...path, k], opts, exact, out);
    }
    return;
  }

  if (te === 'array' && Array.isArray(expected) && Array.isArray(actual)) {
    if (exact || matchesAny(opts.pairwiseArrays, path)) {
      if (expected.length !== actual.length) {
        out.push(`${p}: array length differs: expected ${expected.length}, got ${actual.length}`);
      }
      const n = Math.min(expected.length, actual.length);
      for (let i = 0; i < n; i++)
        compareAt(expected[i] ?? null, actual[i] ?? null, [...path, i], opts, exact, out);
      return;
    }
    const first = expected[0];
    if (first === undefined) return;
    if (actual.length === 0) {
      if (!opts.allowEmptyArrays && !matchesAny(opts.lenientArrays, path)) {
        out.push(`${p}: expected a non-empty array (${expected.length} item(s) captured), got []`);
      }
      return;
    }
    const firstOnly = opts.arrayItems === 'first';
    for (let i = 0; i < actual.length; i++) {
      const item = actual[i] ?? null;
      // Against the first expected element; in 'best' mode, when that gives differences, against the
      // expected element giving the fewest (earliest on ties), so that `[self, describedby]` style lists match.
      let best: string[] = [];
      compareAt(first, item, [...path, i], opts, false, best);
      for (let j = 1; !firstOnly && best.length > 0 && j < expected.length; j++) {
        const diffs: string[] = [];
        compareAt(expected[j] ?? null, item, [...path, i], opts, false, diffs);
        if (diffs.length < best.length) best = diffs;
      }
      out.push(...best);
    }
    return;
  }

  // Leaves: same type here.
  if (exact) {
    const e = normalizeLeaf(expected, path, 'expected', opts);
    const a = normalizeLeaf(actual, path, 'actual', opts);
    if (!sameJson(e, a)) out.push(`${p}: value differs: expected ${preview(e)}, got ${preview(a)}`);
    return;
  }
  if (opts.formats && typeof expected === 'string' && typeof actual === 'string') {
    const why = formatMismatch(expected, actual);
    if (why) out.push(`${p}: ${why}`);
  }
}

/**
 * Compare `actual` against the captured `expected` body. Returns human-readable differences with JSON paths
 * (`$.volume.attachments[0].host_name: missing key ...`); empty when they match.
 *
 * Rules: same object keys at every level (missing and extra keys reported separately); same JSON type per
 * value; each element of an actual array is compared with the FIRST element of the expected array (or the
 * best-matching one, see `arrayItems`); an empty expected array accepts any array; see `CompareOptions`.
 */
export function compareShapes(expected: Json, actual: Json, opts: CompareOptions = {}): string[] {
  const out: string[] = [];
  compareAt(expected, actual, [], opts, false, out);
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Headers
// ---------------------------------------------------------------------------------------------------------

/** `fetch` Headers, Node's IncomingHttpHeaders / supertest `res.headers`, or a plain record. */
export type HeadersInput =
  | { forEach(cb: (value: string, name: string) => void): void }
  | Record<string, string | string[] | number | undefined>;

function lowerHeaders(h: HeadersInput): Map<string, string> {
  const out = new Map<string, string>();
  const maybe = h as { forEach?: unknown };
  if (!isPlainRecord(h) && typeof maybe.forEach === 'function') {
    (h as { forEach(cb: (value: string, name: string) => void): void }).forEach((v, k) => {
      out.set(k.toLowerCase(), v);
    });
    return out;
  }
  for (const [k, v] of Object.entries(h as Record<string, unknown>)) {
    if (v === undefined) continue;
    out.set(k.toLowerCase(), Array.isArray(v) ? v.join(', ') : String(v));
  }
  return out;
}

function isPlainRecord(h: unknown): boolean {
  const proto = Object.getPrototypeOf(h);
  return proto === Object.prototype || proto === null;
}

export interface HeaderDiffOptions {
  /** Headers (case-insensitive) whose values must be equal, e.g. `OpenStack-API-Version`, `Vary`. */
  exactValues?: string[];
  /** When true, a captured value in a known format (e.g. `req-<uuid>`) requires the same format. */
  formats?: boolean;
}

/**
 * For each header in `names` (case-insensitive): reported when present in the capture's response and missing
 * in `actualHeaders` or vice versa; for names in `exactValues`, also when the values differ.
 */
export function headerDiff(
  capture: Capture,
  actualHeaders: HeadersInput,
  names: string[],
  opts: HeaderDiffOptions = {},
): string[] {
  const expected = lowerHeaders(capture.response.headers);
  const actual = lowerHeaders(actualHeaders);
  const exactValues = new Set((opts.exactValues ?? []).map((n) => n.toLowerCase()));
  const out: string[] = [];
  for (const name of names) {
    const key = name.toLowerCase();
    const e = expected.get(key);
    const a = actual.get(key);
    if (e !== undefined && a === undefined)
      out.push(`header ${name}: missing (captured ${JSON.stringify(e)})`);
    else if (e === undefined && a !== undefined)
      out.push(`header ${name}: unexpected (got ${JSON.stringify(a)})`);
    else if (e !== undefined && a !== undefined) {
      if (exactValues.has(key)) {
        if (e.trim() !== a.trim()) {
          out.push(`header ${name}: value differs: expected ${JSON.stringify(e)}, got ${JSON.stringify(a)}`);
        }
      } else if (opts.formats) {
        const why = formatMismatch(e, a);
        if (why) out.push(`header ${name}: ${why}`);
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Whole capture
// ---------------------------------------------------------------------------------------------------------

export interface CompareCaptureOptions extends CompareOptions {
  /** Also run `headerDiff` on these response headers. */
  headers?: { actual: HeadersInput; names: string[] } & HeaderDiffOptions;
}

function isEmptyBody(v: unknown): boolean {
  return v === undefined || v === null || v === '';
}

/**
 * Status equality plus `compareShapes` of the captured response body against `actualBody`.
 * A captured empty body (`""`) matches `""`, `null` or `undefined` (with supertest pass `res.text` there:
 * `res.body` is `{}` for an empty response).
 */
export function compareCapture(
  capture: Capture,
  actualStatus: number,
  actualBody: unknown,
  opts: CompareCaptureOptions = {},
): string[] {
  const out: string[] = [];
  if (capture.response.status !== actualStatus) {
    out.push(`status: expected ${capture.response.status}, got ${actualStatus}`);
  }
  const expected = capture.response.body;
  if (expected === '' || isEmptyBody(actualBody)) {
    if (!(isEmptyBody(expected) && isEmptyBody(actualBody))) {
      out.push(`$: body differs: expected ${preview(expected)}, got ${preview(actualBody)}`);
    }
  } else {
    out.push(...compareShapes(expected, actualBody as Json, opts));
  }
  if (opts.headers) {
    const { actual, names, ...hopts } = opts.headers;
    out.push(...headerDiff(capture, actual, names, hopts));
  }
  return out;
}
