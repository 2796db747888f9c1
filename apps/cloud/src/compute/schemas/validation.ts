import { badRequest, type OpenStackError } from '../../platform/http/errors.js';
import { isUuidLike } from '../../platform/ids.js';
import { isUserRegex } from '../../platform/user-regex.js';
import {
  type FormatCheck,
  firstSchemaError,
  type JsonSchema,
  type RequestSchema,
  type SchemaError,
} from '../../platform/validation/json-schema.js';
import { pyStr } from '../../platform/validation/py-repr.js';

export {
  isJsonObject,
  type JsonSchema,
  type RequestSchema,
  requestSchema,
} from '../../platform/validation/json-schema.js';

/**
 * Nova's side of request validation (`nova/api/validation/validators.py`): its format checkers,
 * its wording of the first jsonschema error, and its query-parameter helpers. The schemas of this
 * folder (one file per resource, one schema per microversion where it changes) list keywords in
 * the order Nova's do, since that order picks the error clients see.
 */

/** Nova's `valid_name_regex` failures raise InvalidName, whose text is the whole message. */
const INVALID_NAME =
  "An invalid 'name' value was provided. The name must be: printable characters. Can not start or end with whitespace.";
const INVALID_NAME_SPACES =
  "An invalid 'name' value was provided. The name must be: printable characters with at least one non space character";

const stringFormat =
  (test: (s: string) => boolean): FormatCheck =>
  (v) =>
    typeof v !== 'string' || test(v) ? 'valid' : 'invalid';

// --- C2: tenancy ---
/** `_validate_keypair_name`: InvalidName naming the characters a key pair name may use. */
const keypairName =
  (safe: string): FormatCheck =>
  (v) =>
    typeof v !== 'string' || [...v].every((c) => safe.includes(c))
      ? 'valid'
      : {
          raise: `An invalid 'name' value was provided. The name must be: Only expected characters: [${safe}]`,
        };
const ALNUM = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

const NOVA_FORMATS: Readonly<Record<string, FormatCheck>> = {
  uuid: stringFormat(isUuidLike),
  // Nova's checker feeds anything to re.search, so a non-string is InvalidName too.
  name: (v) =>
    typeof v === 'string' && v.length > 0 && /^(?![\s\u0085\u00a0])[\P{C}]*(?<![\s\u0085\u00a0])$/u.test(v)
      ? 'valid'
      : { raise: INVALID_NAME },
  // Two linear scans: one pattern with a \S between two runs backtracks quadratically.
  name_with_leading_trailing_spaces: (v) =>
    typeof v !== 'string' || v === '' || (/^[\P{C}]*$/u.test(v) && /\S/.test(v))
      ? 'valid'
      : { raise: INVALID_NAME_SPACES },
  // `={0,2}` only after the data, so no whitespace run can be split two ways (quadratic backtracking).
  base64: stringFormat(
    (s) => /^[A-Za-z0-9+/\s]*(?:={1,2}\s*)?$/.test(s) && s.replace(/\s/g, '').length % 4 === 0,
  ),
  // Nova's `_validate_regex_format`: a non-empty string `re.compile` takes (here: RE2 can run).
  regex: (v) => (typeof v !== 'string' || (v !== '' && isUserRegex(v)) ? 'valid' : 'invalid'),
  ipv4: stringFormat((s) => /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(s)),
  ipv6: stringFormat((s) => /^[0-9a-fA-F:.]+$/.test(s) && s.includes(':')),
  // --- C2: tenancy ---
  keypair_name_20: keypairName(`_- ${ALNUM}`),
  keypair_name_292: keypairName(`@._- ${ALNUM}`),
};

const firstError = (schema: JsonSchema, value: unknown): SchemaError | null =>
  firstSchemaError(schema, value, { formats: NOVA_FORMATS, numericStrings: true });

/**
 * The first error as Nova words it: InvalidName's own text; with a path, "Invalid input for
 * <where> <name>. Value: <str(value)>. <message>" naming the last path element for a body and the
 * first (the parameter) for a query; at the top level the bare jsonschema message (capture 142).
 */
function novaError(e: SchemaError, where: 'body' | 'query'): OpenStackError {
  if (e.raised !== undefined) return badRequest(e.raised);
  const name = where === 'body' ? e.path.at(-1) : e.path[0];
  if (name === undefined) return badRequest(e.message);
  const prefix = where === 'body' ? 'field/attribute' : 'query parameters';
  return badRequest(`Invalid input for ${prefix} ${name}. Value: ${pyStr(e.value)}. ${e.message}`);
}

/** Validates a request body, throwing Nova's 400 for the first error; the body, typed, when valid. */
export function validateBody<T>(schema: RequestSchema<T>, body: unknown): T {
  const e = firstError(schema.json, body);
  if (e) throw novaError(e, 'body');
  return body as T;
}

/** Validates a query whose parameters are lists of values (`multi_params`). */
export function validateQuery(schema: JsonSchema, query: Record<string, unknown>): void {
  const e = firstError(schema, query);
  if (e) throw novaError(e, 'query');
}

// ----------------------------------------------------------------------------------------------
// Query parameters
// ----------------------------------------------------------------------------------------------

/** Nova's `[api] max_limit`. */
export const MAX_LIMIT = 1000;

/** Query strings as Express parses them: repeated keys become arrays. */
export type Query = Record<string, unknown>;

/** `parameter_types.non_negative_integer`. */
export const NON_NEGATIVE_INTEGER: JsonSchema = {
  type: ['integer', 'string'],
  pattern: '^[0-9]*$',
  minimum: 0,
  minLength: 1,
};

/** `multi_params`: a query parameter is the list of its values. */
export const multiParams = (items: JsonSchema): JsonSchema => ({ type: 'array', items });

/** `single_param`; here the count is judged before the values. */
const singleParam = (items?: JsonSchema): JsonSchema => ({
  type: 'array',
  maxItems: 1,
  ...(items ? { items } : {}),
});

const queryValues = (q: Query, name: string): string[] => {
  const v = q[name];
  return v === undefined ? [] : (Array.isArray(v) ? v : [v]).map(String);
};

/** A parameter's values as strings, checked against `schema` (a list schema). */
function paramValues(q: Query, name: string, schema: JsonSchema): string[] {
  const all = queryValues(q, name);
  if (all.length > 0) validateQuery({ type: 'object', properties: { [name]: schema } }, { [name]: all });
  return all;
}

/** webob's `MultiDict.get`: the last value of a repeated parameter. */
export const lastParam = (q: Query, name: string): string | undefined => queryValues(q, name).at(-1);

/** A parameter that may be given once (`single_param` without a value schema). */
export const singleValueParam = (q: Query, name: string): string | undefined =>
  paramValues(q, name, singleParam()).at(-1);

/** `additionalProperties: false` on a query (Nova 2.75+, os-hypervisors 2.53+). */
export function rejectUnknownParams(q: Query, allowed: readonly string[]): void {
  const properties = Object.fromEntries(allowed.map((k) => [k, {}]));
  validateQuery({ type: 'object', properties, additionalProperties: false }, q);
}

/** `parameter_types.non_negative_integer` in `multi_params` (or `single_param`). */
export function nonNegativeIntParam(q: Query, name: string, single = false): number | undefined {
  const schema = single ? singleParam(NON_NEGATIVE_INTEGER) : multiParams(NON_NEGATIVE_INTEGER);
  const last = paramValues(q, name, schema).at(-1);
  return last === undefined ? undefined : Number(last);
}

/** A string query parameter restricted to an enum. */
export function enumParam(
  q: Query,
  name: string,
  allowed: readonly unknown[],
  single = false,
): string | undefined {
  const item: JsonSchema = { enum: allowed };
  return paramValues(q, name, single ? singleParam(item) : multiParams(item)).at(-1);
}
