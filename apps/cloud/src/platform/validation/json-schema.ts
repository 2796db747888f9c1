import { pyRepr } from './py-repr.js';

/**
 * The part of JSON Schema draft 4 that Nova's, Cinder's and Keystone's request schemas use,
 * checked as python-jsonschema checks it: each keyword in the order the schema literal lists it
 * (jsonschema iterates the schema dict), the first error wins, and messages are jsonschema's
 * with Python reprs. Each service words the error its own way (see the adapters next to its routes).
 */
export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

export interface JsonSchema {
  type?: JsonType | readonly JsonType[];
  enum?: readonly unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  /** Draft 4's boolean form: `minimum` itself is excluded. */
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  /** Checked by the caller's format checkers (`ValidateOptions.formats`); unknown names pass. */
  format?: string;
  properties?: Readonly<Record<string, JsonSchema>>;
  patternProperties?: Readonly<Record<string, JsonSchema>>;
  required?: readonly string[];
  /** Only false is a constraint (extra keys are an error). */
  additionalProperties?: boolean;
  minProperties?: number;
  maxProperties?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  oneOf?: readonly JsonSchema[];
  anyOf?: readonly JsonSchema[];
}

/**
 * A format checker's verdict: 'invalid' gives jsonschema's "%r is not a %r"; `{ raise }` is a
 * checker that raises an exception of its own, whose text the services show without a prefix.
 */
export type FormatVerdict = 'valid' | 'invalid' | { raise: string };
export type FormatCheck = (value: unknown) => FormatVerdict;

export interface ValidateOptions {
  /** jsonschema's FormatChecker: the formats a service registers. */
  formats?: Readonly<Record<string, FormatCheck>>;
  /** Nova's and Cinder's `_number_from_str`: minimum/maximum also judge numeric strings ('10'). */
  numericStrings?: boolean;
  /**
   * Python builds the unexpected keys as a set, so their order is arbitrary; Nova and Cinder here
   * keep the body's order, Keystone sorts them.
   */
  sortUnexpected?: boolean;
}

/** The first error, as python-jsonschema's ValidationError carries it. */
export interface SchemaError {
  /** jsonschema's message, e.g. "'x' is too short". */
  message: string;
  /** The failing keyword (`validator`). */
  keyword: string;
  /** Where in the instance (keys and indexes). */
  path: readonly (string | number)[];
  /** The value judged there (`instance`). */
  value: unknown;
  /** Where in the schema, ending with the failing keyword. */
  schemaPath: readonly (string | number)[];
  /** The (sub)schema that holds the failing keyword. */
  schema: JsonSchema;
  /** Set when a format checker raised its own exception: its text, to show as is. */
  raised?: string;
}

/**
 * A request schema: the JSON schema an API checks a request with, and the type of every value it
 * accepts. Each service's validator (Nova's, Cinder's or Keystone's wording of the first error)
 * returns a valid value as that type, so code after validation reads typed fields, never casts.
 */
export interface RequestSchema<T> {
  readonly json: JsonSchema;
  /** Never set: carries `T`. */
  readonly valid?: T;
}

/** Declares the type a schema's valid values have (keep the two side by side in a schemas file). */
export const requestSchema = <T>(json: JsonSchema): RequestSchema<T> => ({ json });

export const isJsonObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function typeMatches(v: unknown, t: JsonType): boolean {
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

/** Python's `==` between JSON values: True == 1, 1 == 1.0, dicts regardless of key order. */
function pyEquals(a: unknown, b: unknown): boolean {
  const numeric = (x: unknown) => typeof x === 'number' || typeof x === 'boolean';
  if (numeric(a) && numeric(b)) return Number(a) === Number(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => pyEquals(x, b[i]))
    );
  }
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && pyEquals(a[k], b[k]))
    );
  }
  return a === b;
}

/** jsonschema's enum and uniqueItems `unbool` the values they compare: True is not 1 there. */
const schemaEquals = (a: unknown, b: unknown) =>
  (typeof a === 'boolean') === (typeof b === 'boolean') && pyEquals(a, b);

/** `_number_from_str`: int(), then float(), else the check is skipped. */
function numberFrom(v: unknown, numericStrings: boolean): number | null {
  if (typeof v === 'number') return v;
  if (numericStrings && typeof v === 'string') {
    const t = v.trim();
    // One way to read each digit run: `\d+\.?\d*` backtracks quadratically on a long non-number.
    if (/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i.test(t)) return Number(t);
  }
  return null;
}

/**
 * Python's `re.search`. Python matches code points, as JS does with the u flag; a pattern the u
 * flag refuses (an escape Python allows) is compiled without it.
 */
const regexCache = new Map<string, RegExp>();
function regex(p: string): RegExp {
  let r = regexCache.get(p);
  if (!r) {
    try {
      r = new RegExp(p, 'u');
    } catch {
      r = new RegExp(p);
    }
    regexCache.set(p, r);
  }
  return r;
}

/** Python's len() counts code points. */
const pyLen = (s: string) => [...s].length;

type Path = readonly (string | number)[];

class Walker {
  constructor(private readonly options: ValidateOptions) {}

  *errors(schema: JsonSchema, v: unknown, path: Path, schemaPath: Path): Generator<SchemaError> {
    const fail = (keyword: string, message: string, raised?: string): SchemaError => ({
      message,
      keyword,
      path,
      value: v,
      schemaPath: [...schemaPath, keyword],
      schema,
      ...(raised !== undefined ? { raised } : {}),
    });
    // jsonschema iterates the schema dict, so keywords are judged in the literal's order.
    for (const keyword of Object.keys(schema) as (keyof JsonSchema)[]) {
      switch (keyword) {
        case 'type': {
          const t = schema.type!;
          const types: readonly JsonType[] = typeof t === 'string' ? [t] : t;
          if (!types.some((x) => typeMatches(v, x))) {
            yield fail(keyword, `${pyRepr(v)} is not of type ${types.map((x) => pyRepr(x)).join(', ')}`);
          }
          break;
        }
        case 'enum':
          if (!schema.enum!.some((e) => schemaEquals(e, v))) {
            yield fail(keyword, `${pyRepr(v)} is not one of ${pyRepr(schema.enum)}`);
          }
          break;
        case 'pattern':
          if (typeof v === 'string' && !regex(schema.pattern!).test(v)) {
            yield fail(keyword, `${pyRepr(v)} does not match ${pyRepr(schema.pattern)}`);
          }
          break;
        case 'minLength':
          if (typeof v === 'string' && pyLen(v) < schema.minLength!)
            yield fail(keyword, `${pyRepr(v)} is too short`);
          break;
        case 'maxLength':
          if (typeof v === 'string' && pyLen(v) > schema.maxLength!)
            yield fail(keyword, `${pyRepr(v)} is too long`);
          break;
        case 'minimum': {
          // The message shows the number read (Python's int('10') is 10), not the string sent.
          const n = numberFrom(v, this.options.numericStrings ?? false);
          const min = schema.minimum!;
          if (n !== null && (schema.exclusiveMinimum ? n <= min : n < min)) {
            const cmp = schema.exclusiveMinimum ? 'less than or equal to' : 'less than';
            yield fail(keyword, `${pyRepr(n)} is ${cmp} the minimum of ${pyRepr(min)}`);
          }
          break;
        }
        case 'maximum': {
          const n = numberFrom(v, this.options.numericStrings ?? false);
          const max = schema.maximum!;
          if (n !== null && (schema.exclusiveMaximum ? n >= max : n > max)) {
            const cmp = schema.exclusiveMaximum ? 'greater than or equal to' : 'greater than';
            yield fail(keyword, `${pyRepr(n)} is ${cmp} the maximum of ${pyRepr(max)}`);
          }
          break;
        }
        case 'format': {
          const check = this.options.formats?.[schema.format!];
          const verdict = check ? check(v) : 'valid';
          if (verdict === 'invalid') {
            yield fail(keyword, `${pyRepr(v)} is not a ${pyRepr(schema.format)}`);
          } else if (verdict !== 'valid') {
            yield fail(keyword, verdict.raise, verdict.raise);
          }
          break;
        }
        case 'properties':
          if (isJsonObject(v)) {
            for (const [key, sub] of Object.entries(schema.properties!)) {
              if (Object.hasOwn(v, key)) {
                yield* this.errors(sub, v[key], [...path, key], [...schemaPath, keyword, key]);
              }
            }
          }
          break;
        case 'patternProperties':
          if (isJsonObject(v)) {
            for (const [p, sub] of Object.entries(schema.patternProperties!)) {
              for (const [key, val] of Object.entries(v)) {
                if (regex(p).test(key))
                  yield* this.errors(sub, val, [...path, key], [...schemaPath, keyword, p]);
              }
            }
          }
          break;
        case 'required':
          if (isJsonObject(v)) {
            for (const key of schema.required!) {
              if (!Object.hasOwn(v, key)) yield fail(keyword, `${pyRepr(key)} is a required property`);
            }
          }
          break;
        case 'additionalProperties':
          if (isJsonObject(v) && schema.additionalProperties === false) {
            const message = this.unexpected(schema, v);
            if (message) yield fail(keyword, message);
          }
          break;
        case 'minProperties':
          if (isJsonObject(v) && Object.keys(v).length < schema.minProperties!) {
            yield fail(keyword, `${pyRepr(v)} does not have enough properties`);
          }
          break;
        case 'maxProperties':
          if (isJsonObject(v) && Object.keys(v).length > schema.maxProperties!) {
            yield fail(keyword, `${pyRepr(v)} has too many properties`);
          }
          break;
        case 'items':
          // Draft 4 with one schema for every item: the index joins the path, not the schema path.
          if (Array.isArray(v)) {
            for (const [i, item] of v.entries()) {
              yield* this.errors(schema.items!, item, [...path, i], [...schemaPath, keyword]);
            }
          }
          break;
        case 'minItems':
          if (Array.isArray(v) && v.length < schema.minItems!)
            yield fail(keyword, `${pyRepr(v)} is too short`);
          break;
        case 'maxItems':
          if (Array.isArray(v) && v.length > schema.maxItems!)
            yield fail(keyword, `${pyRepr(v)} is too long`);
          break;
        case 'uniqueItems':
          if (
            schema.uniqueItems === true &&
            Array.isArray(v) &&
            v.some((x, i) => v.slice(i + 1).some((y) => schemaEquals(x, y)))
          ) {
            yield fail(keyword, `${pyRepr(v)} has non-unique elements`);
          }
          break;
        case 'anyOf':
          if (!schema.anyOf!.some((sub) => this.valid(sub, v, path))) {
            yield fail(keyword, `${pyRepr(v)} is not valid under any of the given schemas`);
          }
          break;
        case 'oneOf': {
          const matching = schema.oneOf!.filter((sub) => this.valid(sub, v, path));
          if (matching.length === 0) {
            yield fail(keyword, `${pyRepr(v)} is not valid under any of the given schemas`);
          } else if (matching.length > 1) {
            yield fail(keyword, `${pyRepr(v)} is valid under each of ${pyRepr(matching)}`);
          }
          break;
        }
      }
    }
  }

  private valid(schema: JsonSchema, v: unknown, path: Path): boolean {
    return this.errors(schema, v, path, []).next().done === true;
  }

  /** jsonschema's two wordings, depending on whether the schema has patternProperties. */
  private unexpected(schema: JsonSchema, v: Record<string, unknown>): string | null {
    const props = schema.properties ?? {};
    const patterns = Object.keys(schema.patternProperties ?? {});
    const extras = Object.keys(v).filter(
      (k) => !Object.hasOwn(props, k) && !patterns.some((p) => regex(p).test(k)),
    );
    if (extras.length === 0) return null;
    if (schema.patternProperties) {
      const verb = extras.length === 1 ? 'does' : 'do';
      const joined = [...extras].sort().map(pyRepr).join(', ');
      return `${joined} ${verb} not match any of the regexes: ${[...patterns].sort().map(pyRepr).join(', ')}`;
    }
    const verb = extras.length === 1 ? 'was' : 'were';
    const listed = this.options.sortUnexpected ? [...extras].sort() : extras;
    return `Additional properties are not allowed (${listed.map(pyRepr).join(', ')} ${verb} unexpected)`;
  }
}

/** The first error python-jsonschema would raise for `instance`, or null when it is valid. */
export function firstSchemaError(
  schema: JsonSchema,
  instance: unknown,
  options: ValidateOptions = {},
): SchemaError | null {
  const first = new Walker(options).errors(schema, instance, [], []).next();
  return first.done ? null : first.value;
}
