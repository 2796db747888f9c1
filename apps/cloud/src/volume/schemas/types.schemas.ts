import { requestSchema, types } from './validation.js';

/**
 * Cinder's volume type requests (`cinder/api/schemas/volume_types.py`, `volume_type_specs.py`).
 */

type Bool = boolean | string;

export interface CreateTypeBody {
  volume_type: {
    name: string;
    description?: string | null;
    extra_specs?: Record<string, string | null> | null;
    'os-volume-type-access:is_public'?: Bool;
  };
}

export const createTypeBody = requestSchema<CreateTypeBody>({
  type: 'object',
  properties: {
    volume_type: {
      type: 'object',
      properties: {
        name: types.name,
        description: types.description,
        extra_specs: types.extraSpecsWithNull,
        'os-volume-type-access:is_public': types.boolean,
      },
      required: ['name'],
      additionalProperties: false,
    },
  },
  required: ['volume_type'],
  additionalProperties: false,
});

export interface UpdateTypeBody {
  volume_type: { name?: string | null; description?: string | null; is_public?: Bool };
}

export const updateTypeBody = requestSchema<UpdateTypeBody>({
  type: 'object',
  properties: {
    volume_type: {
      type: 'object',
      properties: {
        name: types.nameAllowZeroMinLength,
        description: types.description,
        is_public: types.boolean,
      },
      additionalProperties: false,
    },
  },
  required: ['volume_type'],
  additionalProperties: false,
});

export const createExtraSpecsBody = requestSchema<{ extra_specs: Record<string, string | null> }>({
  type: 'object',
  properties: { extra_specs: types.extraSpecsNoSpacesKey },
  required: ['extra_specs'],
  additionalProperties: false,
});

export const updateExtraSpecBody = requestSchema<Record<string, string | null>>({
  ...types.extraSpecsNoSpacesKey,
  minProperties: 1,
  maxProperties: 1,
});
