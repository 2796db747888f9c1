import { type RequestSchema, requestSchema, types } from './validation.js';

/**
 * `cinder/api/schemas/volume_metadata.py` and `snapshot_metadata.py`: the same two bodies serve
 * volumes and snapshots. Other top-level keys are allowed and ignored.
 */
export interface MetadataBody {
  metadata: Record<string, string>;
}
export interface MetaItemBody {
  meta: Record<string, string>;
}

export const metadataBody: RequestSchema<MetadataBody> = requestSchema<MetadataBody>({
  type: 'object',
  properties: { metadata: types.extraSpecs },
  required: ['metadata'],
  additionalProperties: true,
});

export const metaItemBody: RequestSchema<MetaItemBody> = requestSchema<MetaItemBody>({
  type: 'object',
  properties: { meta: types.extraSpecs },
  required: ['meta'],
  additionalProperties: true,
});
