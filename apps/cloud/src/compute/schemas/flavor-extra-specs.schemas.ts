import { type JsonSchema, requestSchema, validateBody } from './validation.js';

/** `schemas/flavors_extraspecs.py`: metadata whose values may also be numbers. */
const extraSpecs: JsonSchema = {
  type: 'object',
  patternProperties: { '^[a-zA-Z0-9-_:. ]{1,255}$': { type: ['string', 'number'], maxLength: 255 } },
  additionalProperties: false,
};

const createSchema = requestSchema<{ extra_specs: Record<string, string | number> }>({
  type: 'object',
  properties: { extra_specs: extraSpecs },
  required: ['extra_specs'],
  additionalProperties: false,
});

const updateSchema = requestSchema<Record<string, string | number>>({
  ...extraSpecs,
  minProperties: 1,
  maxProperties: 1,
});

/** POST /flavors/{id}/os-extra_specs: `{"extra_specs": {...}}`. */
export const parseExtraSpecsCreate = (body: unknown) => validateBody(createSchema, body).extra_specs;
/** PUT /flavors/{id}/os-extra_specs/{key}: `{key: value}`. */
export const parseExtraSpecUpdate = (body: unknown) => validateBody(updateSchema, body);
