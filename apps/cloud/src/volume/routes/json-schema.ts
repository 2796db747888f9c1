import { z } from 'zod';
import { badRequest, OpenStackError } from '../../platform/http/errors.js';

/**
 * Cinder validates request bodies with jsonschema (Draft 4) and its own FormatChecker, and clients
 * (Tempest, OSC) see jsonschema's wording. This is the subset of JSON Schema Cinder's v3 schemas
 * use, evaluated keyword by keyword in the order of the schema literal (jsonschema raises the
 * first error it meets), wrapped in zod so routes parse bodies the same way everywhere.
 */
export type JsType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

export interface Schema {
  type?: JsType | readonly JsType[];
  properties?: Readonly<Record<string, Schema>>;
  patternProperties?: Readonly<Record<string, Schema>>;
  required?: readonly string[];
  /** false: extra keys are an error. */
  additionalProperties?: boolean;
  minProperties?: number;
  maxProperties?: number;
  /** Each entry lists keys of which one must be present (Cinder uses `anyOf: [{required: [...]}]`). */
  anyOfRequired?: readonly (readonly string[])[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  /** Cinder's minimum/maximum also apply to numeric strings ('10'). */
  minimum?: number;
  maximum?: number;
  enum?: readonly unknown[];
  /** A Cinder format checker: returns an error (thrown as is) or a message for "is not a". */
  format?: Format;
}

/**
 * A custom format. `check` returns null when valid, an OpenStackError to raise as is (Cinder's
 * checkers that raise their own exception), or 'invalid' for jsonschema's "%r is not a %r".
 */
export interface Format {
  name: string;
  check(value: unknown): OpenStackError | 'invalid' | null;
}

interface Failure {
  path: (string | number)[];
  instance: unknown;
  message: string;
  /** Raised as is (format checkers with their own exception), without the field prefix. */
  raw?: OpenStackError;
}

// ----------------------------------------------------------------------------------------------
// Python's repr()/str() of JSON values, as they appear in jsonschema and Cinder messages.
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
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + quote;
}

function pyNumber(n: number): string {
  // JSON integers are Python ints; other numbers are floats (repr switches to exponents at 1e16).
  if (Number.isInteger(n)) return BigInt(n).toString();
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  const [mant = '', expText = '0'] = n.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 16) return `${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(n);
}

/** Python repr() of a parsed JSON value. */
export function pyRepr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return pyNumber(v);
  if (typeof v === 'string') return pyStrRepr(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  if (typeof v === 'object') {
    return `{${Object.entries(v as Record<string, unknown>)
      .map(([k, val]) => `${pyStrRepr(k)}: ${pyRepr(val)}`)
      .join(', ')}}`;
  }
  return String(v);
}

/** Python str() of a parsed JSON value (strings unquoted). */
export function pyStr(v: unknown): string {
  return typeof v === 'string' ? v : pyRepr(v);
}

// ----------------------------------------------------------------------------------------------
// Evaluation
// ----------------------------------------------------------------------------------------------

const isObject = (v: unknown): v is Record<string, unknown> =>
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
      return isObject(v);
  }
}

/** Cinder's `_number_from_str`: int(), then float(), else skip the check. */
function numberFromValue(v: unknown): number | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const t = v.trim();
    if (/^[+-]?\d+$/.test(t) || /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t)) return Number(t);
  }
  return null;
}

/** Python-style regex: `re.search`, which JS `RegExp.test` matches for these simple patterns. */
const regexCache = new Map<string, RegExp>();
function regex(p: string): RegExp {
  let r = regexCache.get(p);
  if (!r) {
    r = new RegExp(p);
    regexCache.set(p, r);
  }
  return r;
}

function* evaluate(schema: Schema, v: unknown, path: (string | number)[]): Generator<Failure> {
  // jsonschema checks keywords in the order the schema literal lists them and raises the first error.
  for (const keyword of Object.keys(schema) as (keyof Schema)[]) {
    switch (keyword) {
      case 'type': {
        const t = schema.type ?? [];
        const types = typeof t === 'string' ? [t] : t;
        if (!types.some((x) => typeMatches(v, x))) {
          const names = types.map((x) => pyRepr(x)).join(', ');
          yield { path, instance: v, message: `${pyRepr(v)} is not of type ${names}` };
          return;
        }
        break;
      }
      case 'format': {
        // Null is left to the type keyword (clients send null for unset optional ids).
        if (!schema.format || v === null) break;
        const res = schema.format.check(v);
        if (res instanceof OpenStackError) yield { path, instance: v, message: res.message, raw: res };
        else if (res === 'invalid') {
          yield { path, instance: v, message: `${pyRepr(v)} is not a ${pyRepr(schema.format.name)}` };
        }
        break;
      }
      case 'properties':
        if (isObject(v)) {
          for (const [key, sub] of Object.entries(schema.properties ?? {})) {
            if (key in v) yield* evaluate(sub, v[key], [...path, key]);
          }
        }
        break;
      case 'patternProperties':
        if (isObject(v)) {
          for (const [p, sub] of Object.entries(schema.patternProperties ?? {})) {
            for (const [key, val] of Object.entries(v)) {
              if (regex(p).test(key)) yield* evaluate(sub, val, [...path, key]);
            }
          }
        }
        break;
      case 'required':
        if (isObject(v)) {
          for (const key of schema.required ?? []) {
            if (!(key in v)) yield { path, instance: v, message: `${pyRepr(key)} is a required property` };
          }
        }
        break;
      case 'additionalProperties':
        if (isObject(v) && schema.additionalProperties === false) yield* additional(schema, v, path);
        break;
      case 'minProperties':
        if (isObject(v) && Object.keys(v).length < (schema.minProperties ?? 0)) {
          yield { path, instance: v, message: `${pyRepr(v)} does not have enough properties` };
        }
        break;
      case 'maxProperties':
        if (isObject(v) && Object.keys(v).length > (schema.maxProperties ?? Number.POSITIVE_INFINITY)) {
          yield { path, instance: v, message: `${pyRepr(v)} has too many properties` };
        }
        break;
      case 'anyOfRequired':
        if (isObject(v) && !(schema.anyOfRequired ?? []).some((keys) => keys.every((k) => k in v))) {
          yield { path, instance: v, message: `${pyRepr(v)} is not valid under any of the given schemas` };
        }
        break;
      case 'pattern':
        if (typeof v === 'string' && schema.pattern !== undefined && !regex(schema.pattern).test(v)) {
          yield { path, instance: v, message: `${pyRepr(v)} does not match ${pyRepr(schema.pattern)}` };
        }
        break;
      case 'minLength':
        if (typeof v === 'string' && [...v].length < (schema.minLength ?? 0)) {
          yield { path, instance: v, message: `${pyRepr(v)} is too short` };
        }
        break;
      case 'maxLength':
        if (typeof v === 'string' && [...v].length > (schema.maxLength ?? Number.POSITIVE_INFINITY)) {
          yield { path, instance: v, message: `${pyRepr(v)} is too long` };
        }
        break;
      case 'minimum': {
        const n = numberFromValue(v);
        if (n !== null && schema.minimum !== undefined && n < schema.minimum) {
          const message = `${pyRepr(n)} is less than the minimum of ${pyRepr(schema.minimum)}`;
          yield { path, instance: v, message };
        }
        break;
      }
      case 'maximum': {
        const n = numberFromValue(v);
        if (n !== null && schema.maximum !== undefined && n > schema.maximum) {
          const message = `${pyRepr(n)} is greater than the maximum of ${pyRepr(schema.maximum)}`;
          yield { path, instance: v, message };
        }
        break;
      }
      case 'enum':
        if (schema.enum !== undefined && !schema.enum.some((e) => e === v)) {
          yield { path, instance: v, message: `${pyRepr(v)} is not one of ${pyRepr(schema.enum)}` };
        }
        break;
    }
  }
}

function* additional(
  schema: Schema,
  v: Record<string, unknown>,
  path: (string | number)[],
): Generator<Failure> {
  const patterns = Object.keys(schema.patternProperties ?? {});
  const extras = Object.keys(v).filter(
    (k) => !(k in (schema.properties ?? {})) && !patterns.some((p) => regex(p).test(k)),
  );
  if (extras.length === 0) return;
  if (patterns.length > 0) {
    const verb = extras.length === 1 ? 'does' : 'do';
    const joined = [...extras].sort().map(pyRepr).join(', ');
    const regexes = [...patterns].sort().map(pyRepr).join(', ');
    yield { path, instance: v, message: `${joined} ${verb} not match any of the regexes: ${regexes}` };
  } else {
    const verb = extras.length === 1 ? 'was' : 'were';
    const joined = extras.map(pyRepr).join(', ');
    yield {
      path,
      instance: v,
      message: `Additional properties are not allowed (${joined} ${verb} unexpected)`,
    };
  }
}

/** Cinder's `_SchemaValidator.validate`: the first error, worded as Cinder words it. */
export function firstError(schema: Schema, body: unknown): OpenStackError | null {
  const first = evaluate(schema, body, []).next();
  if (first.done) return null;
  const f = first.value;
  if (f.raw) return f.raw;
  const last = f.path.at(-1);
  if (last === undefined) return badRequest(f.message);
  return badRequest(`Invalid input for field/attribute ${last}. Value: ${pyStr(f.instance)}. ${f.message}`);
}

/**
 * A zod schema that accepts exactly what the Cinder schema accepts. Parse failures carry the
 * OpenStackError to throw in `params.error`; use `parseBody` in routes.
 */
export function cinderSchema<T>(schema: Schema): z.ZodType<T> {
  return z.custom<T>().superRefine((value, ctx) => {
    const err = firstError(schema, value);
    if (err) ctx.addIssue({ code: 'custom', message: err.message, params: { error: err } });
  });
}

/** Parses a request body with a `cinderSchema`, throwing Cinder's 400 on failure. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const res = schema.safeParse(body);
  if (res.success) return res.data;
  const issue = res.error.issues[0];
  const err = (issue as { params?: { error?: unknown } } | undefined)?.params?.error;
  if (err instanceof OpenStackError) throw err;
  throw badRequest(issue?.message ?? 'Malformed request body');
}

// ----------------------------------------------------------------------------------------------
// Cinder's parameter types and format checkers
// ----------------------------------------------------------------------------------------------

/** oslo's strutils TRUE/FALSE strings, and parameter_types.boolean's enum. */
const BOOLEAN_ENUM = [
  true,
  'True',
  'TRUE',
  'true',
  '1',
  'ON',
  'On',
  'on',
  'YES',
  'Yes',
  'yes',
  'y',
  't',
  false,
  'False',
  'FALSE',
  'false',
  '0',
  'OFF',
  'Off',
  'off',
  'NO',
  'No',
  'no',
  'n',
  'f',
] as const;

export const DB_MAX_INT = 0x7fffffff;

const stringLengthCheck =
  (entity: string, mandatory: boolean, minLength: number, maxLength: number) =>
  (v: unknown): OpenStackError | null => {
    if (typeof v !== 'string') return null;
    if (!mandatory && !v) return null;
    if (mandatory && !v) return badRequest(`The '${entity}' can not be None.`);
    const s = v.trim();
    // utils.check_string_length -> oslo strutils.check_string_length's wording.
    const len = [...s].length;
    if (len < minLength) {
      return badRequest(`Invalid input received: ${entity} has ${len} characters, less than ${minLength}.`);
    }
    if (len > maxLength) {
      return badRequest(`Invalid input received: ${entity} has ${len} characters, more than ${maxLength}.`);
    }
    return null;
  };

export const formats = {
  uuid: {
    name: 'uuid',
    check: (v: unknown) =>
      typeof v === 'string' && !/^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(v)
        ? 'invalid'
        : null,
  },
  /** 'name': raises InvalidName, whose message Cinder returns as the whole detail. */
  name: {
    name: 'name',
    check: (v: unknown) => {
      if (typeof v !== 'string') return null;
      if (!v) return badRequest("An invalid 'name' value was provided. The 'name' can not be None.");
      if (v.trim().length === 0) {
        return badRequest("An invalid 'name' value was provided. The 'name' can not be empty.");
      }
      return null;
    },
  },
  nameNonMandatory: {
    name: 'name_non_mandatory_remove_white_spaces',
    check: stringLengthCheck('name', false, 0, 255),
  },
  descriptionNonMandatory: {
    name: 'description_non_mandatory_remove_white_spaces',
    check: stringLengthCheck('description', false, 0, 255),
  },
  availabilityZone: {
    name: 'availability_zone',
    check: stringLengthCheck('availability_zone', true, 1, 255),
  },
} satisfies Record<string, Format>;

export const types = {
  boolean: { type: ['boolean', 'string'], enum: BOOLEAN_ENUM },
  optionalBoolean: { type: ['boolean', 'string', 'null'], enum: [...BOOLEAN_ENUM, null] },
  volumeSize: { type: ['integer', 'string'], pattern: '^[0-9]+$', minimum: 1, maximum: DB_MAX_INT },
  volumeSizeAllowsNull: {
    type: ['integer', 'string', 'null'],
    pattern: '^[0-9]+$',
    minimum: 1,
    maximum: DB_MAX_INT,
  },
  name: { type: 'string', minLength: 1, maxLength: 255, format: formats.name },
  nameAllowZeroMinLength: { type: ['string', 'null'], minLength: 0, maxLength: 255 },
  description: { type: ['string', 'null'], minLength: 0, maxLength: 255 },
  optionalUuid: { type: ['string', 'null'], format: formats.uuid },
  extraSpecs: {
    type: 'object',
    patternProperties: { '^[a-zA-Z0-9-_:. ]{1,255}$': { type: 'string', maxLength: 255 } },
    additionalProperties: false,
  },
  extraSpecsWithNull: {
    type: ['object', 'null'],
    patternProperties: { '^[a-zA-Z0-9-_:. ]{1,255}$': { type: ['string', 'null'], maxLength: 255 } },
    additionalProperties: false,
  },
  extraSpecsNoSpacesKey: {
    type: 'object',
    patternProperties: { '^[a-zA-Z0-9-_:.]{1,255}$': { type: ['string', 'null'], maxLength: 255 } },
    additionalProperties: false,
  },
  metadataAllowsNull: {
    type: ['object', 'null'],
    patternProperties: { '^[a-zA-Z0-9-_:. ]{1,255}$': { type: 'string', maxLength: 255 } },
    additionalProperties: false,
  },
} satisfies Record<string, Schema>;

/** oslo strutils.bool_from_string(strict=True) for values the schema already accepted. */
export function boolFromString(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  return ['1', 't', 'true', 'on', 'y', 'yes'].includes(String(v).trim().toLowerCase());
}
