import { badRequest, type OpenStackError } from '../../platform/http/errors.js';
import {
  type FormatCheck,
  firstSchemaError,
  type JsonSchema,
  type RequestSchema,
} from '../../platform/validation/json-schema.js';
import { BOOLEAN_ENUM } from '../../platform/validation/parameter-types.js';
import { pyRepr, pyStr } from '../../platform/validation/py-repr.js';
import { SNAPSHOT_STATUSES } from '../service/snapshots.service.js';
import { MIGRATION_STATUSES, RESET_ATTACH_STATUSES, VOLUME_STATUSES } from '../service/volumes.service.js';

/**
 * Cinder's side of request validation (`cinder/api/validation/validators.py`): its format
 * checkers and its wording of the first jsonschema error. The schemas of this folder (one file per
 * resource, one schema per microversion where it changes) are parsed with `parseBody`.
 */
export type Schema = JsonSchema;
export { type RequestSchema, requestSchema } from '../../platform/validation/json-schema.js';

export const DB_MAX_INT = 0x7fffffff;

const stringLengthCheck =
  (entity: string, mandatory: boolean, minLength: number, maxLength: number): FormatCheck =>
  (v) => {
    if (typeof v !== 'string') return 'valid';
    if (!mandatory && !v) return 'valid';
    if (mandatory && !v) return { raise: `The '${entity}' can not be None.` };
    const s = v.trim();
    // utils.check_string_length -> oslo strutils.check_string_length's wording.
    const len = [...s].length;
    if (len < minLength) {
      return { raise: `Invalid input received: ${entity} has ${len} characters, less than ${minLength}.` };
    }
    if (len > maxLength) {
      return { raise: `Invalid input received: ${entity} has ${len} characters, more than ${maxLength}.` };
    }
    return 'valid';
  };

/** Python's repr of a tuple. */
const pyTuple = (items: readonly string[]) => `(${items.map(pyRepr).join(', ')})`;

/** The status checkers raise InvalidParameterValue: its text, without a prefix. */
const statusCheck =
  (label: string, valid: readonly string[], shown: string): FormatCheck =>
  (v) =>
    typeof v === 'string' && v && !valid.includes(v.toLowerCase())
      ? { raise: `${label}: ${v} is invalid, valid statuses are: ${shown}.` }
      : 'valid';

/** Cinder's FormatChecker. Null is left to the type keyword (clients send null for unset ids). */
const CINDER_FORMATS: Readonly<Record<string, FormatCheck>> = Object.fromEntries(
  Object.entries({
    uuid: (v) =>
      typeof v === 'string' && !/^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(v)
        ? 'invalid'
        : 'valid',
    // Raises InvalidName, whose message Cinder returns as the whole detail.
    name: (v) => {
      if (typeof v !== 'string') return 'valid';
      if (!v) return { raise: "An invalid 'name' value was provided. The 'name' can not be None." };
      if (v.trim().length === 0)
        return { raise: "An invalid 'name' value was provided. The 'name' can not be empty." };
      return 'valid';
    },
    name_non_mandatory_remove_white_spaces: stringLengthCheck('name', false, 0, 255),
    description_non_mandatory_remove_white_spaces: stringLengthCheck('description', false, 0, 255),
    availability_zone: stringLengthCheck('availability_zone', true, 1, 255),
    volume_status: statusCheck('Volume status', VOLUME_STATUSES, pyTuple(VOLUME_STATUSES)),
    volume_attach_status: statusCheck(
      'Volume attach status',
      RESET_ATTACH_STATUSES,
      pyRepr([...RESET_ATTACH_STATUSES]),
    ),
    volume_migration_status: statusCheck(
      'Volume migration status',
      MIGRATION_STATUSES,
      pyTuple(MIGRATION_STATUSES),
    ),
    snapshot_status: (v) =>
      typeof v === 'string' &&
      !SNAPSHOT_STATUSES.includes(v.toLowerCase() as (typeof SNAPSHOT_STATUSES)[number])
        ? { raise: `Snapshot status: ${v} is invalid, valid statuses are: ${pyTuple(SNAPSHOT_STATUSES)}.` }
        : 'valid',
    progress: (v) => {
      if (typeof v !== 'string' || !v) return 'valid';
      const n = v.slice(0, -1).trim();
      if (!/^[+-]?\d+$/.test(n))
        return { raise: 'Invalid input received: progress must be an integer percentage' };
      const i = Number(n);
      if (i < 0 || i > 100 || !v.endsWith('%')) {
        return { raise: 'Invalid input received: progress must be an integer percentage between 0 and 100' };
      }
      return 'valid';
    },
    validate_volume_reset_body: (v) => {
      const o = v as Record<string, unknown>;
      return !o['status'] && !o['attach_status'] && !o['migration_status']
        ? { raise: "Must specify 'status', 'attach_status' or 'migration_status' for update." }
        : 'valid';
    },
  } satisfies Record<string, FormatCheck>).map(([name, check]): [string, FormatCheck] => [
    name,
    (v) => (v === null ? 'valid' : check(v)),
  ]),
);

/**
 * Cinder's `_SchemaValidator.validate`: the first error, worded as Cinder words it (a checker's
 * own exception as is, else the field prefix naming the last path element, or the bare message).
 */
export function firstError(schema: Schema, body: unknown): OpenStackError | null {
  const e = firstSchemaError(schema, body, { formats: CINDER_FORMATS, numericStrings: true });
  if (!e) return null;
  if (e.raised !== undefined) return badRequest(e.raised);
  const last = e.path.at(-1);
  if (last === undefined) return badRequest(e.message);
  return badRequest(`Invalid input for field/attribute ${last}. Value: ${pyStr(e.value)}. ${e.message}`);
}

/** Parses a request body with a Cinder schema, throwing Cinder's 400 on failure; the body, typed. */
export function parseBody<T>(schema: RequestSchema<T>, body: unknown): T {
  const err = firstError(schema.json, body);
  if (err) throw err;
  return body as T;
}

/** Cinder's `parameter_types`. */
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
  name: { type: 'string', minLength: 1, maxLength: 255, format: 'name' },
  nameAllowZeroMinLength: { type: ['string', 'null'], minLength: 0, maxLength: 255 },
  description: { type: ['string', 'null'], minLength: 0, maxLength: 255 },
  optionalUuid: { type: ['string', 'null'], format: 'uuid' },
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
