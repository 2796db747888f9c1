import { badRequest, type OpenStackError } from '../../platform/http/errors.js';
import { isUuidLike } from '../../platform/ids.js';

/**
 * Nova validates request bodies with jsonschema (Draft 4, the 4.10 messages Zed shipped) and
 * reports the FIRST error jsonschema meets. jsonschema walks a schema's keywords in the order of
 * the schema literal, so the schemas in this folder list keywords in the order Nova's do, and this
 * evaluator keeps that order. Messages are Python's: `repr()` of values, `str()` in the prefix.
 */
export type JsType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

export interface JsonSchema {
  type?: JsType | readonly JsType[];
  enum?: readonly unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  format?: FormatName;
  properties?: Readonly<Record<string, JsonSchema>>;
  patternProperties?: Readonly<Record<string, JsonSchema>>;
  required?: readonly string[];
  additionalProperties?: boolean;
  items?: JsonSchema;
  maxItems?: number;
  minItems?: number;
  oneOf?: readonly JsonSchema[];
}

export type FormatName = 'uuid' | 'name' | 'name_with_leading_trailing_spaces' | 'base64' | 'ipv4' | 'ipv6';

interface Failure {
  path: (string | number)[];
  instance: unknown;
  message: string;
  /** Nova's InvalidName format error is raised with its own message, without the field prefix. */
  raw?: string;
}

// ----------------------------------------------------------------------------------------------
// Python repr()/str() of parsed JSON values
// ----------------------------------------------------------------------------------------------

function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0)) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + quote;
}

function pyFloat(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  if (Number.isInteger(n) && Math.abs(n) < 1e16) return String(n);
  // Python writes exponents with at least two digits (1e+16 -> 1e+16, 1e-7 -> 1e-07).
  return String(n).replace(/e([+-])(\d)$/, 'e$10$2');
}

/** Python repr() of a parsed JSON value. JSON integers stay integers. */
export function pyRepr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return pyFloat(v);
  if (typeof v === 'string') return pyStrRepr(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  if (typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    return `{${entries.map(([k, val]) => `${pyStrRepr(k)}: ${pyRepr(val)}`).join(', ')}}`;
  }
  return String(v);
}

/** Python str(): strings as they are, everything else as repr(). */
export function pyStr(v: unknown): string {
  return typeof v === 'string' ? v : pyRepr(v);
}

// ----------------------------------------------------------------------------------------------
// Evaluation
// ----------------------------------------------------------------------------------------------

export const isJsonObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function typeMatches(v: unknown, t: JsType): boolean {
  switch (t) {
    case 'null':
      return v === null;
    case 'boolean':
      return typeof v === 'boolean';
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number';
    case 'array':
      return Array.isArray(v);
    case 'object':
      return isJsonObject(v);
  }
}

/** Python's == across JSON values (True == 1, 1 == 1.0), as jsonschema's enum uses it. */
function pyEquals(a: unknown, b: unknown): boolean {
  const num = (x: unknown) => (typeof x === 'boolean' ? Number(x) : x);
  if (
    (typeof a === 'number' || typeof a === 'boolean') &&
    (typeof b === 'number' || typeof b === 'boolean')
  ) {
    return num(a) === num(b);
  }
  return JSON.stringify(a) === JSON.stringify(b);
}

const regexCache = new Map<string, RegExp>();
function regex(p: string): RegExp {
  let r = regexCache.get(p);
  if (!r) {
    r = new RegExp(p, 'u');
    regexCache.set(p, r);
  }
  return r;
}

/** Python's len() counts code points. */
const pyLen = (s: string) => [...s].length;

/** Nova's `valid_name_regex`: printable, no leading or trailing whitespace. */
const INVALID_NAME =
  "An invalid 'name' value was provided. The name must be: printable characters. Can not start or end with whitespace.";
const INVALID_NAME_SPACES =
  "An invalid 'name' value was provided. The name must be: printable characters with at least one non space character";

function checkFormat(format: FormatName, v: unknown): 'ok' | 'invalid' | { raw: string } {
  if (typeof v !== 'string') return format === 'name' ? { raw: INVALID_NAME } : 'ok';
  switch (format) {
    case 'uuid':
      return isUuidLike(v) ? 'ok' : 'invalid';
    case 'name':
      return /^(?![\s\u0085\u00a0])[\P{C}]*(?<![\s\u0085\u00a0])$/u.test(v) && v.length > 0
        ? 'ok'
        : { raw: INVALID_NAME };
    case 'name_with_leading_trailing_spaces':
      return /^[\P{C}]*\S[\P{C}]*$/u.test(v) || v === '' ? 'ok' : { raw: INVALID_NAME_SPACES };
    case 'base64':
      return /^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(v) && v.replace(/\s/g, '').length % 4 === 0
        ? 'ok'
        : 'invalid';
    case 'ipv4':
      return /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(v) ? 'ok' : 'invalid';
    case 'ipv6':
      return /^[0-9a-fA-F:.]+$/.test(v) && v.includes(':') ? 'ok' : 'invalid';
  }
}

function* evaluate(schema: JsonSchema, v: unknown, path: (string | number)[]): Generator<Failure> {
  // Each keyword in the order it appears in the schema literal, as jsonschema iterates them.
  for (const keyword of Object.keys(schema) as (keyof JsonSchema)[]) {
    switch (keyword) {
      case 'type': {
        const t = schema.type!;
        const types: readonly JsType[] = typeof t === 'string' ? [t] : t;
        if (!types.some((x) => typeMatches(v, x))) {
          yield { path, instance: v, message: `${pyRepr(v)} is not of type ${types.map(pyRepr).join(', ')}` };
        }
        break;
      }
      case 'enum':
        if (!schema.enum!.some((e) => pyEquals(e, v))) {
          yield { path, instance: v, message: `${pyRepr(v)} is not one of ${pyRepr(schema.enum)}` };
        }
        break;
      case 'pattern':
        if (typeof v === 'string' && !regex(schema.pattern!).test(v)) {
          yield { path, instance: v, message: `${pyRepr(v)} does not match ${pyRepr(schema.pattern)}` };
        }
        break;
      case 'minLength':
        if (typeof v === 'string' && pyLen(v) < schema.minLength!) {
          yield { path, instance: v, message: `${pyRepr(v)} is too short` };
        }
        break;
      case 'maxLength':
        if (typeof v === 'string' && pyLen(v) > schema.maxLength!) {
          yield { path, instance: v, message: `${pyRepr(v)} is too long` };
        }
        break;
      case 'minimum':
        if (typeof v === 'number' && v < schema.minimum!) {
          yield {
            path,
            instance: v,
            message: `${pyRepr(v)} is less than the minimum of ${pyRepr(schema.minimum)}`,
          };
        }
        break;
      case 'maximum':
        if (typeof v === 'number' && v > schema.maximum!) {
          yield {
            path,
            instance: v,
            message: `${pyRepr(v)} is greater than the maximum of ${pyRepr(schema.maximum)}`,
          };
        }
        break;
      case 'format': {
        const r = checkFormat(schema.format!, v);
        if (r === 'invalid')
          yield { path, instance: v, message: `${pyRepr(v)} is not a ${pyRepr(schema.format)}` };
        else if (r !== 'ok') yield { path, instance: v, message: r.raw, raw: r.raw };
        break;
      }
      case 'properties':
        if (isJsonObject(v)) {
          for (const [key, sub] of Object.entries(schema.properties!)) {
            if (key in v) yield* evaluate(sub, v[key], [...path, key]);
          }
        }
        break;
      case 'patternProperties':
        if (isJsonObject(v)) {
          for (const [p, sub] of Object.entries(schema.patternProperties!)) {
            for (const [key, val] of Object.entries(v)) {
              if (regex(p).test(key)) yield* evaluate(sub, val, [...path, key]);
            }
          }
        }
        break;
      case 'required':
        if (isJsonObject(v)) {
          for (const key of schema.required!) {
            if (!(key in v)) yield { path, instance: v, message: `${pyRepr(key)} is a required property` };
          }
        }
        break;
      case 'additionalProperties':
        if (isJsonObject(v) && schema.additionalProperties === false) {
          yield* additional(schema, v, path);
        }
        break;
      case 'items':
        if (Array.isArray(v)) {
          for (const [i, item] of v.entries()) yield* evaluate(schema.items!, item, [...path, i]);
        }
        break;
      case 'maxItems':
        if (Array.isArray(v) && v.length > schema.maxItems!) {
          yield { path, instance: v, message: `${pyRepr(v)} is too long` };
        }
        break;
      case 'minItems':
        if (Array.isArray(v) && v.length < schema.minItems!) {
          yield { path, instance: v, message: `${pyRepr(v)} is too short` };
        }
        break;
      case 'oneOf': {
        const matching = schema.oneOf!.filter((sub) => evaluate(sub, v, path).next().done);
        if (matching.length === 0) {
          yield { path, instance: v, message: `${pyRepr(v)} is not valid under any of the given schemas` };
        } else if (matching.length > 1) {
          yield { path, instance: v, message: `${pyRepr(v)} is valid under each of ${pyRepr(matching)}` };
        }
        break;
      }
    }
  }
}

function* additional(
  schema: JsonSchema,
  v: Record<string, unknown>,
  path: (string | number)[],
): Generator<Failure> {
  const patterns = Object.keys(schema.patternProperties ?? {});
  const extras = Object.keys(v).filter(
    (k) => !(k in (schema.properties ?? {})) && !patterns.some((p) => regex(p).test(k)),
  );
  if (extras.length === 0) return;
  if (schema.patternProperties) {
    const verb = extras.length === 1 ? 'does' : 'do';
    const joined = [...extras].sort().map(pyRepr).join(', ');
    const regexes = [...patterns].sort().map(pyRepr).join(', ');
    yield { path, instance: v, message: `${joined} ${verb} not match any of the regexes: ${regexes}` };
    return;
  }
  const verb = extras.length === 1 ? 'was' : 'were';
  yield {
    path,
    instance: v,
    message: `Additional properties are not allowed (${extras.map(pyRepr).join(', ')} ${verb} unexpected)`,
  };
}

/**
 * The first error as Nova words it (`nova/api/validation/validators.py`): a path gives the
 * "Invalid input for field/attribute <last path element>. Value: <str(value)>. <message>" prefix,
 * an error at the top level is the bare jsonschema message (capture 142).
 */
export function firstSchemaError(schema: JsonSchema, body: unknown): OpenStackError | null {
  const first = evaluate(schema, body, []).next();
  if (first.done) return null;
  const f = first.value;
  if (f.raw) return badRequest(f.raw);
  const last = f.path.at(-1);
  if (last === undefined) return badRequest(f.message);
  return badRequest(`Invalid input for field/attribute ${last}. Value: ${pyStr(f.instance)}. ${f.message}`);
}

/** Validates a request body, throwing Nova's 400 for the first error. */
export function validateBody(schema: JsonSchema, body: unknown): void {
  const err = firstSchemaError(schema, body);
  if (err) throw err;
}

/** Query strings: "Invalid input for query parameters <name>. Value: ..." (first path element). */
export function validateQuery(schema: JsonSchema, query: Record<string, unknown>): void {
  const first = evaluate(schema, query, []).next();
  if (first.done) return;
  const f = first.value;
  const name = f.path[0];
  if (name === undefined) throw badRequest(f.message);
  throw badRequest(`Invalid input for query parameters ${name}. Value: ${pyStr(f.instance)}. ${f.message}`);
}
