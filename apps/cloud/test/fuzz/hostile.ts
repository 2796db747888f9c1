import { METHODS } from 'node:http';
import fc from 'fast-check';

/**
 * Hostile inputs, as small printable recipes: fast-check prints and shrinks the recipe, and
 * `materialize*` turns it into bytes. A 100 KB string or a 10,000-deep array is a recipe of three
 * fields, so a counterexample stays readable.
 */

// --- Strings -----------------------------------------------------------------------------------

/** Strings that have broken parsers, validators, databases and log lines before. */
export const ODD_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\ud83dy',
  '\udc00\ud800',
  '\u202eevil\u202c',
  `e${'\u0301'.repeat(64)}`,
  '👩‍👩‍👧‍👦',
  '🦄',
  '\ufeff',
  '\uffff',
  '\ufffe',
  '\u200b\u200d',
  '\u2028\u2029',
  '\u{10ffff}',
  'İıß\u0130ﬀ',
  'ٱلعربية',
  '漢字かな',
  '\\u00c0\\u00af',
  '%c0%af',
  '\u00c0\u00af',
  '\r\n\t',
  '\u001b[31m',
  '<script>alert(1)</script>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as text
  '${7*7}{{7*7}}',
  '%s%s%n',
  "' OR '1'='1",
  '1; DROP TABLE volumes;--',
  '"; --',
  '\\',
  '/',
  '../../etc/passwd',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-1',
  '0x10',
  '1e400',
  'true',
  'None',
  '__proto__',
  'constructor',
  '(a+)+$',
  '[',
  '.*',
  '*',
];

export const oddString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...ODD_STRINGS), fc.constantFrom(...ODD_STRINGS))
      .map(([a, b]) => `${a}x${b}`),
  },
);

/** Object keys that have broken code that copies or merges objects. */
export const oddKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    'valueOf',
    '',
    ' ',
    'a'.repeat(300),
    'x-unknown',
    'id',
    'links',
    '\u0000',
    '\ud800',
    '🦄',
  ),
  oddString,
);

// --- JSON values ---------------------------------------------------------------------------------

/** A JSON value, possibly huge: materialised by `jsonText`. */
export type Hostile =
  | { lit: unknown }
  | { hugeString: number; char: string }
  | { hugeArray: number; item: unknown }
  | { deep: number; shape: 'array' | 'object' };

/** oslo.middleware's default max_request_body_size, the cloud's limit. */
export const BODY_LIMIT = 114_688;
/** The BFF's express.json limit (256kb). */
export const BFF_BODY_LIMIT = 256 * 1024;

const wrongTypeLiteral: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    0,
    -1,
    1.5,
    -0,
    1e308,
    -1e308,
    2 ** 53 + 2,
    4_294_967_296,
    '',
    '0',
    '1',
    '-1',
    'true',
    'null',
    '[]',
    '{}',
    '1e1000',
    [],
    {},
    [null],
    [[]],
    [{}],
    { '': null },
    [1, 'a', null, {}],
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  oddString,
  fc.jsonValue({ maxDepth: 3 }),
);

export const hostileValue: fc.Arbitrary<Hostile> = fc.oneof(
  { weight: 8, arbitrary: wrongTypeLiteral.map((lit) => ({ lit })) },
  {
    weight: 2,
    arbitrary: fc.record({
      hugeString: fc.constantFrom(1_000, 10_000, 65_536, BODY_LIMIT - 200, BODY_LIMIT + 1, 300_000),
      char: fc.constantFrom('a', 'é', '🦄', '\u0000', '"', '\\', ' '),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      hugeArray: fc.constantFrom(1_000, 10_000, 30_000),
      item: fc.constantFrom<unknown>(1, 'a', null, {}, [], 'x'.repeat(10)),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      deep: fc.constantFrom(100, 1_000, 10_000),
      shape: fc.constantFrom('array' as const, 'object' as const),
    }),
  },
);

const PLACEHOLDER = (i: number) => `\u0000HOSTILE${i}\u0000`;

/** JSON text for a value that may hold Hostile nodes (marked by `holes`). */
function rawJsonOf(h: Hostile): string {
  if ('lit' in h) return JSON.stringify(h.lit) ?? 'null';
  if ('hugeString' in h) return JSON.stringify(h.char.repeat(Math.ceil(h.hugeString / h.char.length)));
  if ('hugeArray' in h) {
    const item = JSON.stringify(h.item);
    return `[${Array.from({ length: h.hugeArray }, () => item).join(',')}]`;
  }
  return h.shape === 'array'
    ? `${'['.repeat(h.deep)}${']'.repeat(h.deep)}`
    : `${'{"a":'.repeat(h.deep)}1${'}'.repeat(h.deep)}`;
}

// --- Mutations of a valid body ---------------------------------------------------------------

type JsonPath = (string | number)[];

/** Every node of a JSON value, root first. */
export function nodePaths(value: unknown, at: JsonPath = [], out: JsonPath[] = []): JsonPath[] {
  out.push(at);
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) nodePaths(v, [...at, i], out);
  } else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) nodePaths(v, [...at, k], out);
  return out;
}

export type Mutation =
  | { op: 'replace'; value: Hostile }
  | { op: 'delete' }
  | { op: 'addField'; key: string; value: Hostile }
  | { op: 'wrapInArray' }
  | { op: 'asString' }
  | { op: 'oddString'; value: string };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 6, arbitrary: hostileValue.map((value) => ({ op: 'replace' as const, value })) },
  { weight: 3, arbitrary: oddString.map((value) => ({ op: 'oddString' as const, value })) },
  { weight: 2, arbitrary: fc.constant({ op: 'delete' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('addField' as const), key: oddKey, value: hostileValue }),
  },
  { weight: 1, arbitrary: fc.constant({ op: 'wrapInArray' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'asString' as const }) },
);

/** JSON text of `body` with one node (picked by `at` among all nodes) mutated. */
export function mutatedJson(body: unknown, at: number, m: Mutation): string {
  const root = structuredClone(body ?? {});
  const paths = nodePaths(root);
  const path = paths[at % paths.length]!;
  const holes: string[] = [];
  const hole = (h: Hostile): string => {
    holes.push(rawJsonOf(h));
    return PLACEHOLDER(holes.length - 1);
  };
  const current = path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], root);
  let replacement: unknown = current;
  let deleted = false;
  switch (m.op) {
    case 'replace':
      replacement = hole(m.value);
      break;
    case 'oddString':
      replacement = m.value;
      break;
    case 'delete':
      deleted = true;
      break;
    case 'addField':
      if (current !== null && typeof current === 'object' && !Array.isArray(current)) {
        // A plain assignment of "__proto__" would set the prototype, not add a key.
        Object.defineProperty(current, m.key, { value: hole(m.value), enumerable: true, writable: true });
      } else replacement = { [m.key]: current };
      break;
    case 'wrapInArray':
      replacement = [current];
      break;
    case 'asString':
      replacement = JSON.stringify(current) ?? 'undefined';
      break;
  }
  let out: unknown = root;
  if (path.length === 0) out = deleted ? undefined : replacement;
  else {
    const parent = path
      .slice(0, -1)
      .reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], root) as Record<
      string | number,
      unknown
    >;
    const last = path.at(-1)!;
    if (deleted) {
      if (Array.isArray(parent)) parent.splice(last as number, 1);
      else delete parent[last];
    } else parent[last] = replacement;
  }
  let text = out === undefined ? '' : JSON.stringify(out);
  holes.forEach((raw, i) => {
    text = text.replace(JSON.stringify(PLACEHOLDER(i)), () => raw);
  });
  return text;
}

// --- Raw bodies ------------------------------------------------------------------------------

export type RawBody =
  | { raw: 'truncated'; keep: number }
  | { raw: 'trailingGarbage'; garbage: string }
  | { raw: 'bom' }
  | { raw: 'text'; text: string }
  | { raw: 'bytes'; hex: string }
  | { raw: 'deep'; depth: number; shape: 'array' | 'object' | 'mixed' }
  | { raw: 'duplicateKeys' }
  | { raw: 'utf16' }
  | { raw: 'size'; bytes: number };

export const rawBody: fc.Arbitrary<RawBody> = fc.oneof(
  fc.record({ raw: fc.constant('truncated' as const), keep: fc.nat({ max: 400 }) }),
  fc.record({
    raw: fc.constant('trailingGarbage' as const),
    garbage: fc.constantFrom('x', '}', ']', ',', '{}', ' \u0000', '\n{"a":1}', '//c', '/* c */', ';'),
  }),
  fc.constant({ raw: 'bom' as const }),
  fc.record({
    raw: fc.constant('text' as const),
    text: fc.constantFrom(
      '',
      ' ',
      '\n',
      'null',
      'true',
      '0',
      '-0',
      '1e999',
      'NaN',
      'Infinity',
      '-Infinity',
      '"string"',
      '[]',
      '[1,2',
      '{',
      '}',
      '{"a":}',
      '{"a" 1}',
      "{'a': 1}",
      '{a: 1}',
      '{"a": NaN}',
      '{"a": Infinity}',
      '{"a": undefined}',
      '{"a": 0x10}',
      '{"a": 01}',
      '{"a": .5}',
      '{"a": +1}',
      '{"a": "\\x41"}',
      '{"a": "\\ud800"}',
      '{"a": "\\udfff\\ud800"}',
      '{"a": "\\u00"}',
      '{"a": "\\u0000"}',
      '{"a": "tab\tinside"}',
      '{"a":1,}',
      '[1,]',
      '{"__proto__": {"isAdmin": true}}',
      '{"constructor": {"prototype": {"isAdmin": true}}}',
      '<?xml version="1.0"?><server/>',
      'a=1&b=2',
    ),
  }),
  fc.record({
    raw: fc.constant('bytes' as const),
    hex: fc.constantFrom(
      'ff',
      'fffe7b007d00',
      'c0af',
      'e080af',
      'eda080',
      '7b2261223a22c0af227d',
      '7b2261223a22eda080227d',
      '7b2261223a22ff227d',
      '00',
      '7b7d00',
      '1f8b0800',
    ),
  }),
  fc.record({
    raw: fc.constant('deep' as const),
    depth: fc.constantFrom(1_000, 10_000, 20_000),
    shape: fc.constantFrom('array' as const, 'object' as const, 'mixed' as const),
  }),
  fc.constant({ raw: 'duplicateKeys' as const }),
  fc.constant({ raw: 'utf16' as const }),
  fc.record({
    raw: fc.constant('size' as const),
    bytes: fc.constantFrom(
      BODY_LIMIT - 1,
      BODY_LIMIT,
      BODY_LIMIT + 1,
      BFF_BODY_LIMIT - 1,
      BFF_BODY_LIMIT,
      BFF_BODY_LIMIT + 1,
      1_000_000,
    ),
  }),
);

/** The bytes of a raw body, built around the endpoint's valid body where that makes sense. */
export function rawBodyBytes(r: RawBody, valid: unknown): Buffer {
  const validText = JSON.stringify(valid ?? {});
  switch (r.raw) {
    case 'truncated':
      return Buffer.from(validText.slice(0, r.keep % Math.max(validText.length, 1)));
    case 'trailingGarbage':
      return Buffer.from(validText + r.garbage);
    case 'bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(validText)]);
    case 'text':
      return Buffer.from(r.text);
    case 'bytes':
      return Buffer.from(r.hex, 'hex');
    case 'deep': {
      if (r.shape === 'array') return Buffer.from(`${'['.repeat(r.depth)}${']'.repeat(r.depth)}`);
      if (r.shape === 'object') return Buffer.from(`${'{"a":'.repeat(r.depth)}null${'}'.repeat(r.depth)}`);
      return Buffer.from(`${'{"a":['.repeat(r.depth / 2)}${']}'.repeat(r.depth / 2)}`);
    }
    case 'duplicateKeys': {
      // Every top-level key twice, the second time with a wrong type.
      const inner = validText.startsWith('{') && validText.length > 2 ? validText.slice(1, -1) : '"a":1';
      return Buffer.from(`{${inner},${inner.replace(/:.*/s, ':[[[]]]')}}`);
    }
    case 'utf16':
      return Buffer.from(`\ufeff${validText}`, 'utf16le');
    case 'size': {
      // Valid JSON of exactly `bytes` bytes: {"pad": "aaa…", ...valid}.
      const rest = validText.length > 2 ? `,${validText.slice(1, -1)}` : '';
      const frame = `{"pad":""${rest}}`.length;
      return Buffer.from(`{"pad":"${'a'.repeat(Math.max(0, r.bytes - frame))}"${rest}}`);
    }
  }
}

// --- Paths -----------------------------------------------------------------------------------

/** Percent-encodes UTF-8 the way a client would, but also accepts lone surrogates (as U+FFFD). */
export function encodeSegment(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(b);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A hostile path segment, already as it goes on the wire. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '..',
      '.',
      '%2e%2e',
      '%2E%2E%2F',
      '..%2F..%2Fidentity%2Fv3%2Fusers',
      '%2F',
      '%2f%2f',
      '%00',
      'a%00b',
      '%0a',
      '%0d%0a',
      '%ZZ',
      '%',
      '%%',
      '%E0%A4%A',
      '%C0%AF',
      '%C0%AE%C0%AE',
      '%ED%A0%80',
      '%FF%FE',
      '%EF%BB%BF',
      '%20id%20with%20spaces%20',
      '%22%27',
      '1%27%20OR%20%271%27%3D%271',
      '1%3B%20DROP%20TABLE%20volumes%3B--',
      '%F0%9F%A6%84',
      '%E2%80%AE',
      '+',
      '*',
      '~',
      '$',
      ';',
      ',',
      '@',
      ':',
      '!',
      '(',
      ')',
      'null',
      'undefined',
      '0',
      '-1',
      '1e9',
      '99999999999999999999999',
      'detail',
      'summary',
      'action',
      'default',
      'latest',
      '__proto__',
      'constructor',
      'a'.repeat(5_000),
      'b'.repeat(255),
      'c'.repeat(256),
      '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
      '00000000000000000000000000000000',
    ),
  },
  { weight: 2, arbitrary: oddString.map(encodeSegment) },
);

export type PathTrick =
  | { trick: 'trailingSlash' }
  | { trick: 'doubleSlash'; at: number }
  | { trick: 'dotSegment'; at: number; dots: '.' | '..' | '%2e' | '%2e%2e' }
  | { trick: 'upperCase' }
  | { trick: 'suffix'; suffix: string }
  | { trick: 'extraSegment'; segment: string }
  | { trick: 'prefix'; prefix: string };

export const pathTrick: fc.Arbitrary<PathTrick> = fc.oneof(
  fc.constant({ trick: 'trailingSlash' as const }),
  fc.record({ trick: fc.constant('doubleSlash' as const), at: fc.nat() }),
  fc.record({
    trick: fc.constant('dotSegment' as const),
    at: fc.nat(),
    dots: fc.constantFrom('.' as const, '..' as const, '%2e' as const, '%2e%2e' as const),
  }),
  fc.constant({ trick: 'upperCase' as const }),
  fc.record({
    trick: fc.constant('suffix' as const),
    suffix: fc.constantFrom(';x=1', '%20', '%00', '#frag', '.json', '.xml', '~', '/.', '/..', '%2F', '//'),
  }),
  fc.record({ trick: fc.constant('extraSegment' as const), segment: hostileSegment }),
  fc.record({ trick: fc.constant('prefix' as const), prefix: fc.constantFrom('/', '//', '/./', '/%2e/') }),
);

/** Applies a path trick to a path without its query. */
export function applyPathTrick(path: string, t: PathTrick): string {
  const slashes = [...path.matchAll(/\//g)].map((m) => m.index);
  switch (t.trick) {
    case 'trailingSlash':
      return path.endsWith('/') ? path.slice(0, -1) : `${path}/`;
    case 'doubleSlash': {
      const i = slashes[t.at % slashes.length]!;
      return `${path.slice(0, i)}/${path.slice(i)}`;
    }
    case 'dotSegment': {
      const i = slashes[t.at % slashes.length]!;
      return `${path.slice(0, i)}/${t.dots}${path.slice(i)}`;
    }
    case 'upperCase':
      return path.toUpperCase();
    case 'suffix':
      return path + t.suffix;
    case 'extraSegment':
      return `${path.replace(/\/$/, '')}/${t.segment}`;
    case 'prefix':
      return t.prefix + path.replace(/^\//, '');
  }
}

// --- Methods, headers, query strings -----------------------------------------------------------

/** Every method Node's parser accepts, but CONNECT (a tunnel, not a request). */
export const ALL_METHODS = METHODS.filter((m) => m !== 'CONNECT');

export type HeaderSet = Record<string, string | string[]>;

const latin1 = (s: string) => Buffer.from(s, 'utf8').toString('latin1');

export const oddHeaders = (service: string): fc.Arbitrary<HeaderSet> =>
  fc.oneof(
    fc
      .constantFrom(
        '',
        ' ',
        service,
        `${service} 2`,
        `${service} 3.`,
        `${service} .1`,
        `${service} 2.1.1`,
        `${service} 02.1`,
        `${service} 2.01`,
        `${service} 3.01`,
        `${service}\t2.60`,
        `${service.toUpperCase()} 2.60`,
        `${service} LATEST`,
        `${service} latest`,
        `${service} 2.106`,
        `${service} 3.72`,
        `${service} 3.0`,
        `${service} 2.0`,
        `${service} 1.99`,
        `${service} 2.99999999999999999999`,
        `${service} 99999999999999999999.1`,
        `${service} 2.1e3`,
        `${service} -2.1`,
        `${service} 2.60, ${service} 2.61`,
        'volume 3.71, compute 2.105',
        'compute 2.60,volume 3.60',
        ',,,',
        'identity 3.0',
        'compute 2.6\u00ff',
        Array.from({ length: 800 }, () => `${service} 2.60`).join(','),
      )
      .map((v) => ({ 'OpenStack-API-Version': v })),
    fc
      .constantFrom('', '2', 'x', '2.60, 2.61', 'latest', '2.1000', '2.60 compute')
      .map((v) => ({ 'X-OpenStack-Nova-API-Version': v, 'OpenStack-API-Version': '' })),
    fc
      .constantFrom(
        'text/xml',
        'application/xml',
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/json; charset=utf-16',
        'application/json; charset=latin-7',
        'application/json; charset=ISO-8859-1',
        'application/merge-patch+json',
        'application/json-patch+json',
        'application/vnd.openstack.compute+json',
        'application/vnd.openstack.volume+json',
        ';;;',
        '',
        '*/*',
        'application/json;',
        'APPLICATION/JSON',
        'application/json; charset="utf-8"',
        'application/json, text/plain',
        'application/json; boundary=x; charset=utf-8; q=0',
      )
      .map((v) => ({ 'Content-Type': v })),
    fc
      .constantFrom('gzip', 'deflate', 'br', 'identity', 'x-garbage', 'gzip, gzip', 'GZIP')
      .map((v) => ({ 'Content-Encoding': v })),
    fc
      .constantFrom('text/plain', 'application/xml', '*/*', '', 'text/html', 'application/json;q=0', 'x/y; z')
      .map((v) => ({ Accept: v })),
    fc
      .constantFrom('a'.repeat(10_000), latin1('é🦄\u202e').repeat(500), ' '.repeat(8_000))
      .map((v) => ({ 'X-Fuzz-Padding': v, 'User-Agent': v.slice(0, 1_000) })),
    fc
      .constantFrom('evil.example', '', 'a'.repeat(1_000), '[::1]:99999', 'x/y?"<>')
      .map((v) => ({ Host: v })),
    fc
      .constantFrom('javascript', 'https', 'a b', '')
      .map((v) => ({ 'X-Forwarded-Proto': v, 'X-Forwarded-Host': 'evil.example' })),
    fc.constantFrom('*', 'de-DE,de;q=0.9', 'x'.repeat(200), ';;;').map((v) => ({ 'Accept-Language': v })),
    fc.constantFrom('bytes=0-1', 'bytes=9999999-', 'x').map((v) => ({ Range: v })),
  );

/** Keys the services read from query strings, and some they should not. */
const QUERY_KEYS = [
  'limit',
  'marker',
  'offset',
  'sort',
  'sort_key',
  'sort_dir',
  'all_tenants',
  'all_projects',
  'project_id',
  'tenant_id',
  'name',
  'status',
  'host',
  'hostname',
  'changes-since',
  'changes-before',
  'deleted',
  'ip',
  'reservation_id',
  'flavor',
  'image',
  'minDisk',
  'minRam',
  'is_public',
  'extra_specs',
  'with_count',
  'volume_id',
  'instance_id',
  'attach_status',
  'binary',
  'detailed',
  'with_servers',
  'hypervisor_hostname_pattern',
  'include_names',
  'effective',
  'scope.project.id',
  'user.id',
  'role.id',
  'domain_id',
  'enabled',
  'nocatalog',
  'visibility',
  'member_status',
  'tag',
  'fields',
  'cascade',
  'force',
  'id',
  'volumeId',
  'serverId',
  'project',
  'all',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  'toString',
];

const QUERY_VALUES = [
  '-1',
  '0',
  '1',
  'abc',
  '1e3',
  '1.5',
  '99999999999999999999999',
  '9007199254740993',
  'true',
  'false',
  'none',
  'None',
  'yes',
  'garbage',
  'name:asc',
  'name:sideways',
  'id%20desc%3B--',
  '%27%20OR%201%3D1--',
  'sideways',
  '(a%2B)%2B%24',
  '((((((',
  '.*',
  '%ZZ',
  '%',
  '%00',
  '%E0%A4%A',
  '%ED%A0%80',
  '2099-13-45',
  'yesterday',
  '1970-01-01T00:00:00Z',
  '%7B%27a%27%3A%20%5B%5B%5B%5B%5B%5B%5B%5B%5B%7D',
  '%7B%27a%27%3A1%7D',
  `%5B${'%5B'.repeat(2_000)}`,
  '',
  'x'.repeat(2_000),
  'constructor',
  '__proto__',
  'hasOwnProperty',
  'toString:asc',
];

export type QueryTrick = { pairs: [string, string][]; repeatFirst: boolean };

export const oddQuery: fc.Arbitrary<QueryTrick> = fc.record({
  pairs: fc.array(
    fc.tuple(
      fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...QUERY_KEYS) },
        { weight: 1, arbitrary: oddString.map(encodeSegment) },
        { weight: 1, arbitrary: fc.constantFrom('limit[]', 'a[b][c]', '%ZZ', '', '&', 'name[$ne]') },
      ),
      fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...QUERY_VALUES) },
        { weight: 1, arbitrary: oddString.map(encodeSegment) },
      ),
    ),
    { minLength: 1, maxLength: 4 },
  ),
  repeatFirst: fc.boolean(),
});

export function queryString(q: QueryTrick): string {
  const pairs =
    q.repeatFirst && q.pairs[0] ? [...q.pairs, [q.pairs[0][0], '2'] as [string, string]] : q.pairs;
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}

/** The seed for one property: FUZZ_SEED (or a fixed default) mixed with the property's name. */
export function seedFor(name: string): number {
  const base = Number(process.env.FUZZ_SEED ?? 20_261_121);
  let h = base | 0;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16_777_619);
  return h | 0;
}

/** numRuns scaled by FUZZ_RUNS (a multiplier for a deeper run). */
export function runs(base: number): number {
  const k = Number(process.env.FUZZ_RUNS ?? 1);
  return Math.max(1, Math.round(base * (Number.isFinite(k) && k > 0 ? k : 1)));
}
