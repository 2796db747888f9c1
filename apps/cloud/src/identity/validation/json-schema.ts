import {
  firstSchemaError,
  type JsonSchema,
  type SchemaError,
} from '../../platform/validation/json-schema.js';
import { pformat, pyRepr } from '../../platform/validation/py-repr.js';

/**
 * Keystone's side of request validation (`keystone/common/validation/validators.py`): plain
 * Draft4Validator, and a SchemaValidationError whose text embeds `str(jsonschema.ValidationError)`,
 * which prints the failing schema and instance with pformat.
 */

/** Keystone's schemas also carry keys jsonschema ignores (they show up in the printed schema). */
export type Schema = JsonSchema & { readonly [annotation: string]: unknown };

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
