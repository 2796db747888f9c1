import type { Microversion } from '../../platform/http/microversion.js';
import { type RequestSchema, requestSchema, type Schema, types } from './validation.js';

/**
 * Cinder's volume request schemas (`cinder/api/schemas/volumes.py`), per microversion where
 * they change. Body types are what the schema guarantees; values stay as sent (strings for
 * sizes, etc.).
 */

type Bool = boolean | string;

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

const createSchemas = new Map<string, RequestSchema<CreateVolumeBody>>();

/** POST /volumes: four schemas (3.0, 3.13, 3.47, 3.53), chosen by the request's version. */
export function volumeCreateBody(mv: Microversion) {
  const key = ['3.13', '3.47', '3.53'].map((v) => mv.atLeast(v)).join();
  let schema = createSchemas.get(key);
  if (!schema) {
    schema = requestSchema<CreateVolumeBody>(volumeCreateSchema(mv));
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
  return requestSchema<UpdateVolumeBody>({
    type: 'object',
    properties: { volume },
    required: ['volume'],
    additionalProperties: false,
  });
}
