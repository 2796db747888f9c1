import { requestSchema, types } from './validation.js';

/** Cinder's QoS specs requests (`cinder/api/schemas/qos_specs.py`). */

export interface CreateQosSpecsBody {
  qos_specs: { name: string } & Record<string, unknown>;
}

export const createQosSpecsBody = requestSchema<CreateQosSpecsBody>({
  type: 'object',
  properties: {
    qos_specs: {
      type: 'object',
      // name_skip_leading_trailing_spaces words its failures as the `name` format does.
      properties: { name: { type: 'string', format: 'name' } },
      required: ['name'],
      additionalProperties: true,
    },
  },
  required: ['qos_specs'],
  additionalProperties: false,
});

export const setQosKeysBody = requestSchema<{ qos_specs: Record<string, string | null> }>({
  type: 'object',
  properties: { qos_specs: { ...types.extraSpecsWithNull, type: 'object' } },
  required: ['qos_specs'],
  additionalProperties: false,
});

export const unsetQosKeysBody = requestSchema<{ keys: string[] }>({
  type: 'object',
  properties: {
    keys: {
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: 255 },
      uniqueItems: true,
    },
  },
  required: ['keys'],
  additionalProperties: false,
});
