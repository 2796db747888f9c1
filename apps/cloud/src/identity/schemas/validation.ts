import { OpenStackError } from '../../platform/http/errors.js';
import {
  firstSchemaError,
  type JsonSchema,
  type RequestSchema,
  type SchemaError,
} from '../../platform/validation/json-schema.js';
import { pformat, pyRepr } from '../../platform/validation/py-repr.js';

/**
 * Keystone's side of request validation (`keystone/common/validation/validators.py`), used by the
 * request schemas of this folder (one file per resource): plain
 * Draft4Validator, and a SchemaValidationError whose text embeds `str(jsonschema.ValidationError)`,
 * which prints the failing schema and instance with pformat.
 */

/** Keystone's schemas also carry keys jsonschema ignores (they show up in the printed schema). */
export type Schema = JsonSchema & { readonly [annotation: string]: unknown };

/** A Keystone request schema (annotations and all) with the type of the values it accepts. */
export interface KeystoneSchema<T> extends RequestSchema<T> {
  readonly json: Schema;
}

export const requestSchema = <T>(json: Schema): KeystoneSchema<T> => ({ json });

const asIndex = (container: string, indices: readonly (string | number)[]) =>
  container + indices.map((i) => `[${pyRepr(i)}]`).join('');

const indentRest = (text: string) => text.split('\n').join('\n    ');

/** `str(error)` as python-jsonschema renders it. */
function schemaErrorText(e: SchemaError): string {
  return [
    e.message,
    '',
    `Failed validating ${pyRepr(e.keyword)} in ${asIndex('schema', e.schemaPath.slice(0, -1))}:`,
    `    ${indentRest(pformat(e.schema))}`,
    '',
    `On ${asIndex('instance', e.path)}:`,
    `    ${indentRest(pformat(e.value))}`,
  ].join('\n');
}

/**
 * The SchemaValidationError detail for the first error, or null when the value is valid: the
 * field path first when there is one. Unexpected keys are listed sorted here.
 */
export function keystoneSchemaDetail(schema: Schema, value: unknown): string | null {
  const e = firstSchemaError(schema, value, { sortUnexpected: true });
  if (!e) return null;
  const text = schemaErrorText(e);
  return e.path.length > 0 ? `Invalid input for field '${e.path.join('/')}': ${text}` : text;
}

/**
 * Keystone's `validation.lazy_validate`: the first jsonschema error as SchemaValidationError; the
 * value, typed, when valid. Keystone validates a body where its API code asks, after policy and
 * (for updates) the target's lookup, so the identity services call this at that point.
 */
export function validated<T>(schema: KeystoneSchema<T>, value: unknown): T {
  const detail = keystoneSchemaDetail(schema.json, value);
  if (detail !== null) throw new OpenStackError(400, detail);
  return value as T;
}
