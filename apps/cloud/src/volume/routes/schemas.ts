import type { Microversion } from '../../platform/http/microversion.js';
import { cinderSchema, type Schema, types } from './json-schema.js';

/**
 * Cinder's request schemas (cinder/api/schemas/*.py), per microversion where they change.
 * Body types are what the schema guarantees; values stay as sent (strings for sizes, etc.).
 */

type Bool = boolean | string;
type OptStr = string | null | undefined;

export interface CreateVolumeBody {
  volume: {
    name?: string | null;
    description?: string | null;
    display_name?: string | null;
    display_description?: string | null;
    volume_type?: string | null;
    metadata?: Record<string, string> | null;
    snapshot_id?: string | null;
    source_volid?: string | null;
    consistencygroup_id?: string | null;
    size?: number | string;
    availability_zone?: string | null;
    multiattach?: Bool | null;
    image_id?: string | null;
    imageRef?: string | null;
    group_id?: string | null;
    backup_id?: string | null;
    [k: string]: unknown;
  };
}

const volumeCreateProps: Record<string, Schema> = {
  name: { type: ['string', 'null'], format: 'name_non_mandatory_remove_white_spaces' },
  description: { type: ['string', 'null'], format: 'description_non_mandatory_remove_white_spaces' },
  display_name: { type: ['string', 'null'], format: 'name_non_mandatory_remove_white_spaces' },
  display_description: { type: ['string', 'null'], format: 'description_non_mandatory_remove_white_spaces' },
  volume_type: types.nameAllowZeroMinLength,
  metadata: types.metadataAllowsNull,
  snapshot_id: types.optionalUuid,
  source_volid: types.optionalUuid,
  consistencygroup_id: types.optionalUuid,
  size: types.volumeSize,
  availability_zone: { type: ['string', 'null'], format: 'availability_zone' },
  multiattach: types.optionalBoolean,
  image_id: { type: ['string', 'null'], minLength: 0, maxLength: 255 },
  imageRef: { type: ['string', 'null'], minLength: 0, maxLength: 255 },
};

function volumeCreateSchema(mv: Microversion): Schema {
  const props: Record<string, Schema> = { ...volumeCreateProps };
  if (mv.atLeast('3.13')) props['group_id'] = { type: ['string', 'null'], minLength: 0, maxLength: 255 };
  if (mv.atLeast('3.47')) props['backup_id'] = types.optionalUuid;
  return {
    type: 'object',
    properties: {
      // Unknown keys inside `volume` are ignored until 3.53 (capture 232).
      volume: { type: 'object', properties: props, additionalProperties: mv.below('3.53') },
      'OS-SCH-HNT:scheduler_hints': { type: ['object', 'null'] },
    },
    required: ['volume'],
    additionalProperties: false,
  };
}

const createSchemas = new Map<string, ReturnType<typeof cinderSchema<CreateVolumeBody>>>();

/** POST /volumes: four schemas (3.0, 3.13, 3.47, 3.53), chosen by the request's version. */
export function volumeCreateBody(mv: Microversion) {
  const key = ['3.13', '3.47', '3.53'].map((v) => mv.atLeast(v)).join();
  let schema = createSchemas.get(key);
  if (!schema) {
    schema = cinderSchema<CreateVolumeBody>(volumeCreateSchema(mv));
    createSchemas.set(key, schema);
  }
  return schema;
}

export interface UpdateVolumeBody {
  volume: {
    name?: string | null;
    description?: string | null;
    display_name?: string | null;
    display_description?: string | null;
    metadata?: Record<string, string>;
  };
}

export function volumeUpdateBody(mv: Microversion) {
  const volume: Schema = {
    type: 'object',
    properties: {
      name: { type: ['string', 'null'], format: 'name_non_mandatory_remove_white_spaces' },
      description: { type: ['string', 'null'], format: 'description_non_mandatory_remove_white_spaces' },
      display_name: { type: ['string', 'null'], format: 'name_non_mandatory_remove_white_spaces' },
      display_description: {
        type: ['string', 'null'],
        format: 'description_non_mandatory_remove_white_spaces',
      },
      metadata: types.extraSpecs,
    },
    additionalProperties: false,
    ...(mv.atLeast('3.53')
      ? {
          anyOf: [
            { required: ['name'] },
            { required: ['description'] },
            { required: ['display_name'] },
            { required: ['display_description'] },
            { required: ['metadata'] },
          ],
        }
      : {}),
  };
  return cinderSchema<UpdateVolumeBody>({
    type: 'object',
    properties: { volume },
    required: ['volume'],
    additionalProperties: false,
  });
}

/** `{"<action>": {...}}` with the action's own properties (volume_actions.py schemas). */
const action = (name: string, inner: Schema): Schema => ({
  type: 'object',
  properties: { [name]: inner },
  required: [name],
  additionalProperties: false,
});

export const extendBody = cinderSchema<{ 'os-extend': { new_size: number | string } }>(
  action('os-extend', {
    type: 'object',
    properties: { new_size: types.volumeSize },
    required: ['new_size'],
    additionalProperties: false,
  }),
);

export const retypeBody = cinderSchema<{ 'os-retype': { new_type: string; migration_policy?: OptStr } }>(
  action('os-retype', {
    type: 'object',
    properties: {
      new_type: { type: 'string' },
      migration_policy: { type: ['string', 'null'], enum: ['on-demand', 'never'] },
    },
    required: ['new_type'],
    additionalProperties: false,
  }),
);

export const setBootableBody = cinderSchema<{ 'os-set_bootable': { bootable: Bool } }>(
  action('os-set_bootable', {
    type: 'object',
    properties: { bootable: types.boolean },
    required: ['bootable'],
    additionalProperties: false,
  }),
);

export const readonlyBody = cinderSchema<{ 'os-update_readonly_flag': { readonly: Bool } }>(
  action('os-update_readonly_flag', {
    type: 'object',
    properties: { readonly: types.boolean },
    required: ['readonly'],
    additionalProperties: false,
  }),
);

export interface ResetStatusBody {
  'os-reset_status': {
    status?: string | null;
    attach_status?: string | null;
    migration_status?: string | null;
  };
}

export const resetStatusBody = cinderSchema<ResetStatusBody>(
  action('os-reset_status', {
    type: 'object',
    format: 'validate_volume_reset_body',
    properties: {
      status: { type: ['string', 'null'], format: 'volume_status' },
      attach_status: { type: ['string', 'null'], format: 'volume_attach_status' },
      migration_status: { type: ['string', 'null'], format: 'volume_migration_status' },
    },
    additionalProperties: false,
  }),
);

export interface CreateTypeBody {
  volume_type: {
    name: string;
    description?: string | null;
    extra_specs?: Record<string, string | null> | null;
    'os-volume-type-access:is_public'?: Bool;
  };
}

export const createTypeBody = cinderSchema<CreateTypeBody>({
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

export const updateTypeBody = cinderSchema<UpdateTypeBody>({
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

export const createExtraSpecsBody = cinderSchema<{ extra_specs: Record<string, string | null> }>({
  type: 'object',
  properties: { extra_specs: types.extraSpecsNoSpacesKey },
  required: ['extra_specs'],
  additionalProperties: false,
});

export const updateExtraSpecBody = cinderSchema<Record<string, string | null>>({
  ...types.extraSpecsNoSpacesKey,
  minProperties: 1,
  maxProperties: 1,
});
