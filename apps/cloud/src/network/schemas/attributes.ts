import { badRequest } from '../errors.js';

/**
 * Neutron's attribute maps (neutron-lib `api/definitions`, `api/attributes.py`
 * `prepare_request_body`) for the few resources served here: which attributes a POST or a PUT
 * may carry, their defaults, and their validators with neutron-lib's reasons.
 */

/** A validator: null when the value is fine, else neutron-lib's reason. */
export type Check = (value: unknown) => string | null;

export interface AttrSpec {
  post: boolean;
  put: boolean;
  /** Required on POST when absent. */
  required?: boolean;
  check?: Check;
}

export type AttrMap = Record<string, AttrSpec>;

const repr = (v: unknown): string => {
  if (typeof v === 'string') return v;
  if (v === null) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  return JSON.stringify(v);
};

export const isString =
  (maxLen = 255): Check =>
  (v) => {
    if (typeof v !== 'string') return `'${repr(v)}' is not a valid string`;
    if (v.length > maxLen) return `'${v}' exceeds maximum length of ${maxLen}`;
    return null;
  };

export const isBool: Check = (v) => {
  if (typeof v === 'boolean') return null;
  if (typeof v === 'string' && ['true', 'false', '1', '0'].includes(v.toLowerCase())) return null;
  if (v === 0 || v === 1) return null;
  return `'${repr(v)}' cannot be converted to boolean`;
};

export const toBool = (v: unknown): boolean =>
  v === true || v === 1 || (typeof v === 'string' && ['true', '1'].includes(v.toLowerCase()));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid: Check = (v) =>
  typeof v === 'string' && UUID.test(v) ? null : `'${repr(v)}' is not a valid UUID`;
export const isUuidOrNull: Check = (v) => (v === null ? null : isUuid(v));

export const isOneOf =
  (values: readonly (string | number | null)[]): Check =>
  (v) =>
    values.includes(v as string)
      ? null
      : `'${repr(v)}' is not in [${values.map((x) => (typeof x === 'string' ? `'${x}'` : repr(x))).join(', ')}]`;

export const isPortNumberOrNull: Check = (v) => {
  if (v === null) return null;
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n)) return `'${repr(v)}' is not an integer`;
  if (n < 0 || n > 65535) return `'${repr(v)}' is not a valid port number`;
  return null;
};

export const isInt =
  (min: number, max: number): Check =>
  (v) => {
    const n = typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isInteger(n)) return `'${repr(v)}' is not an integer`;
    if (n < min) return `'${n}' is too small - must be at least '${min}'`;
    if (n > max) return `'${n}' is too large - must be no larger than '${max}'`;
    return null;
  };

export function parseIpv4(s: string): number | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return null;
  return ((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!;
}

export const ipv4Of = (n: number): string => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');

const IPV6 = /^[0-9a-f:]+(:\d+\.\d+\.\d+\.\d+)?$/i;
export const isIp: Check = (v) =>
  typeof v === 'string' && (parseIpv4(v) !== null || (v.includes(':') && IPV6.test(v)))
    ? null
    : `'${repr(v)}' is not a valid IP address`;
export const isIpOrNull: Check = (v) => (v === null ? null : isIp(v));

/** An IPv4 CIDR with its host bits clear, or an IPv6 prefix (kept as given). */
export function parseCidr(s: string): { base: number; prefix: number } | null {
  const m = /^([\d.]+)\/(\d{1,2})$/.exec(s);
  if (!m) return null;
  const base = parseIpv4(m[1]!);
  const prefix = Number(m[2]);
  if (base === null || prefix > 32) return null;
  return { base, prefix };
}

export const isCidr: Check = (v) => {
  if (typeof v !== 'string') return `'${repr(v)}' is not a valid IP subnet`;
  const c = parseCidr(v);
  if (!c) return `'${v}' is not a valid IP subnet`;
  const mask = c.prefix === 0 ? 0 : (0xffffffff << (32 - c.prefix)) >>> 0;
  if ((c.base & mask) >>> 0 !== c.base) {
    return `'${v}' isn't a recommended CIDR, '${ipv4Of((c.base & mask) >>> 0)}/${c.prefix}' should be specified instead`;
  }
  return null;
};
export const isCidrOrNull: Check = (v) => (v === null ? null : isCidr(v));

export const isList =
  (item: Check): Check =>
  (v) => {
    if (!Array.isArray(v)) return `'${repr(v)}' is not a list`;
    for (const x of v) {
      const r = item(x);
      if (r) return r;
    }
    return null;
  };

export const isDictList =
  (keys: Record<string, Check>, required: readonly string[] = []): Check =>
  (v) => {
    if (!Array.isArray(v)) return `'${repr(v)}' is not a list`;
    for (const x of v) {
      if (typeof x !== 'object' || x === null || Array.isArray(x)) return `'${repr(x)}' is not a dictionary`;
      for (const k of required)
        if (!(k in x))
          return `Validation of dictionary's keys failed. Expected keys: {'${required.join("', '")}'} Provided keys: {'${Object.keys(x).join("', '")}'}`;
      for (const [k, val] of Object.entries(x)) {
        const check = keys[k];
        if (!check) return `Unrecognized attribute(s) '${k}'`;
        const r = check(val);
        if (r) return r;
      }
    }
    return null;
  };

/** `project_id`/`tenant_id` may name another project only for an admin (`populate_project_info`). */
function projectOf(body: Record<string, unknown>, caller: { projectId: string; isAdmin: boolean }): string {
  const given = (body.project_id ?? body.tenant_id) as unknown;
  if (body.project_id !== undefined && body.tenant_id !== undefined && body.project_id !== body.tenant_id) {
    throw badRequest("'project_id' and 'tenant_id' do not match");
  }
  if (given === undefined) return caller.projectId;
  if (typeof given !== 'string')
    throw badRequest(`Invalid input for project_id. Reason: '${repr(given)}' is not a valid string.`);
  if (given !== caller.projectId && !caller.isAdmin) {
    throw badRequest(
      "Specifying 'project_id' or 'tenant_id' other than the authenticated project in request requires admin privileges",
    );
  }
  return given;
}

/** The resource's dict from a request body (`{"network": {...}}`), or Neutron's 400. */
function resourceBody(body: unknown, singular: string): Record<string, unknown> {
  if (body === undefined || body === null) throw badRequest('Resource body required');
  if (typeof body !== 'object' || Array.isArray(body) || !(singular in body)) {
    throw badRequest(`Unable to find '${singular}' in request body`);
  }
  const inner = (body as Record<string, unknown>)[singular];
  if (typeof inner !== 'object' || inner === null || Array.isArray(inner)) {
    throw badRequest(`Unable to find '${singular}' in request body`);
  }
  return inner as Record<string, unknown>;
}

function checkValues(attrs: AttrMap, values: Record<string, unknown>): void {
  for (const [k, spec] of Object.entries(attrs)) {
    if (!(k in values) || !spec.check) continue;
    const reason = spec.check(values[k]);
    if (reason) throw badRequest(`Invalid input for ${k}. Reason: ${reason}.`);
  }
  const unknown = Object.keys(values).filter((k) => !(k in attrs));
  if (unknown.length > 0) throw badRequest(`Unrecognized attribute(s) '${unknown.join(', ')}'`);
}

const PROJECT_KEYS = new Set(['project_id', 'tenant_id']);

/** A POST body: attributes in neutron-lib's order of checks, and the project it is created in. */
export function parseCreate(
  attrs: AttrMap,
  singular: string,
  body: unknown,
  caller: { projectId: string; isAdmin: boolean },
): { values: Record<string, unknown>; projectId: string } {
  const raw = resourceBody(body, singular);
  const projectId = projectOf(raw, caller);
  const values: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) if (!PROJECT_KEYS.has(k)) values[k] = v;
  for (const [k, spec] of Object.entries(attrs)) {
    if (!spec.post && k in values) throw badRequest(`Attribute '${k}' not allowed in POST`);
    if (spec.post && spec.required && !(k in values)) {
      throw badRequest(`Failed to parse request. Required attribute '${k}' not specified`);
    }
  }
  checkValues(attrs, values);
  return { values, projectId };
}

/** A PUT body: only attributes that may change. */
export function parseUpdate(attrs: AttrMap, singular: string, body: unknown): Record<string, unknown> {
  const raw = resourceBody(body, singular);
  for (const k of Object.keys(raw)) {
    const spec = attrs[k];
    if ((spec && !spec.put) || PROJECT_KEYS.has(k))
      throw badRequest(`Cannot update read-only attribute ${k}`);
  }
  checkValues(attrs, raw);
  return raw;
}
