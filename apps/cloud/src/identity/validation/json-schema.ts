import { type PyValue, pformat, pyRepr } from './py-repr.js';

/**
 * The part of JSON Schema draft 4 that Keystone's request schemas use, checked the way
 * python-jsonschema's `Validator.validate` does: keywords in schema order, the first error wins,
 * and the error reads like `str(jsonschema.ValidationError)`.
 */
export type Schema = { [k: string]: PyValue };

export interface SchemaError {
  message: string;
  validator: string;
  /** Where in the instance (keys and indexes). */
  path: (string | number)[];
  /** Where in the schema, ending with the failing keyword. */
  schemaPath: (string | number)[];
  /** The (sub)schema that holds the failing keyword, and the value it judged. */
  schema: Schema;
  instance: PyValue;
}

const isDict = (v: PyValue | undefined): v is { [k: string]: PyValue } =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function isType(v: PyValue, type: string): boolean {
  switch (type) {
    case 'object':
      return isDict(v);
    case 'array':
      return Array.isArray(v);
    case 'string':
      return typeof v === 'string';
    case 'boolean':
      return typeof v === 'boolean';
    case 'null':
      return v === null;
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number';
    default:
      return false;
  }
}

function equal(a: PyValue, b: PyValue): boolean {
  return pyRepr(a) === pyRepr(b);
}

/** An error on its way up: nested errors already carry their validator, schema and instance. */
type Pending = Pick<SchemaError, 'message' | 'path' | 'schemaPath'> &
  Partial<Pick<SchemaError, 'schema' | 'instance' | 'validator'>>;

function* keyword(name: string, value: PyValue, instance: PyValue, schema: Schema): Generator<Pending> {
  const fail = (message: string): Pending => ({ message, path: [], schemaPath: [] });
  switch (name) {
    case 'type': {
      const types = Array.isArray(value) ? value.map(String) : [String(value)];
      if (!types.some((t) => isType(instance, t))) {
        yield fail(`${pyRepr(instance)} is not of type ${types.map((t) => pyRepr(t)).join(', ')}`);
      }
      return;
    }
    case 'enum':
      if (Array.isArray(value) && !value.some((e) => equal(e, instance))) {
        yield fail(`${pyRepr(instance)} is not one of ${pyRepr(value)}`);
      }
      return;
    case 'minLength':
      if (typeof instance === 'string' && [...instance].length < Number(value))
        yield fail(`${pyRepr(instance)} is too short`);
      return;
    case 'maxLength':
      if (typeof instance === 'string' && [...instance].length > Number(value))
        yield fail(`${pyRepr(instance)} is too long`);
      return;
    case 'pattern':
      if (typeof instance === 'string' && !new RegExp(String(value), 'u').test(instance)) {
        yield fail(`${pyRepr(instance)} does not match ${pyRepr(value)}`);
      }
      return;
    case 'minItems':
      if (Array.isArray(instance) && instance.length < Number(value))
        yield fail(`${pyRepr(instance)} is too short`);
      return;
    case 'maxItems':
      if (Array.isArray(instance) && instance.length > Number(value))
        yield fail(`${pyRepr(instance)} is too long`);
      return;
    case 'uniqueItems':
      if (
        value === true &&
        Array.isArray(instance) &&
        new Set(instance.map(pyRepr)).size !== instance.length
      ) {
        yield fail(`${pyRepr(instance)} has non-unique elements`);
      }
      return;
    case 'minProperties':
      if (isDict(instance) && Object.keys(instance).length < Number(value)) {
        yield fail(`${pyRepr(instance)} does not have enough properties`);
      }
      return;
    case 'required':
      if (isDict(instance) && Array.isArray(value)) {
        for (const p of value)
          if (typeof p === 'string' && !(p in instance)) yield fail(`${pyRepr(p)} is a required property`);
      }
      return;
    case 'additionalProperties': {
      if (!isDict(instance) || value !== false) return;
      const props = isDict(schema.properties) ? schema.properties : {};
      const extras = Object.keys(instance)
        .filter((k) => !(k in props))
        .sort();
      if (extras.length > 0) {
        const verb = extras.length === 1 ? 'was' : 'were';
        yield fail(
          `Additional properties are not allowed (${extras.map((e) => pyRepr(e)).join(', ')} ${verb} unexpected)`,
        );
      }
      return;
    }
    case 'properties':
      if (!isDict(instance) || !isDict(value)) return;
      for (const [prop, sub] of Object.entries(value)) {
        if (prop in instance && isDict(sub)) {
          for (const e of iterErrors(instance[prop] ?? null, sub)) {
            yield { ...e, path: [prop, ...e.path], schemaPath: [prop, ...e.schemaPath] };
          }
        }
      }
      return;
    case 'items':
      if (!Array.isArray(instance) || !isDict(value)) return;
      for (const [i, item] of instance.entries()) {
        for (const e of iterErrors(item, value)) yield { ...e, path: [i, ...e.path] };
      }
      return;
    default:
      return;
  }
}

function* iterErrors(instance: PyValue, schema: Schema): Generator<SchemaError> {
  for (const [k, v] of Object.entries(schema)) {
    for (const e of keyword(k, v, instance, schema)) {
      yield {
        message: e.message,
        path: e.path,
        schemaPath: [k, ...e.schemaPath],
        validator: e.validator ?? k,
        schema: e.schema ?? schema,
        instance: e.instance === undefined ? instance : e.instance,
      };
    }
  }
}

/** The first error python-jsonschema would raise, or null when the instance is valid. */
export function firstSchemaError(instance: PyValue, schema: Schema): SchemaError | null {
  for (const e of iterErrors(instance, schema)) return e;
  return null;
}

const asIndex = (container: string, indices: (string | number)[]) =>
  container + indices.map((i) => `[${pyRepr(i)}]`).join('');

const indentRest = (text: string) => text.split('\n').join('\n    ');

/** `str(error)` as python-jsonschema renders it. */
export function schemaErrorText(e: SchemaError): string {
  return [
    e.message,
    '',
    `Failed validating ${pyRepr(e.validator)} in ${asIndex('schema', e.schemaPath.slice(0, -1))}:`,
    `    ${indentRest(pformat(e.schema))}`,
    '',
    `On ${asIndex('instance', e.path)}:`,
    `    ${indentRest(pformat(e.instance))}`,
  ].join('\n');
}

/** Keystone's SchemaValidationError detail: the field path first when there is one. */
export function keystoneSchemaDetail(e: SchemaError): string {
  const text = schemaErrorText(e);
  return e.path.length > 0 ? `Invalid input for field '${e.path.join('/')}': ${text}` : text;
}
