import { type JsonSchema, requestSchema, validateBody } from './validation.js';

/** /servers/{id}/metadata bodies (`schemas/server_metadata.py`, `parameter_types.metadata`). */

const metadata: JsonSchema = {
  type: 'object',
  patternProperties: { '^[a-zA-Z0-9-_:. ]{1,255}$': { type: 'string', maxLength: 255 } },
  additionalProperties: false,
};

const metadataSchema = requestSchema<{ metadata: Record<string, string> }>({
  type: 'object',
  properties: { metadata },
  required: ['metadata'],
  additionalProperties: false,
});

const metaSchema = requestSchema<{ meta: Record<string, string> }>({
  type: 'object',
  properties: { meta: { ...metadata, minProperties: 1, maxProperties: 1 } },
  required: ['meta'],
  additionalProperties: false,
});

/** POST (merge) and PUT (replace) of the whole set. */
export const parseMetadataBody = (body: unknown) => validateBody(metadataSchema, body).metadata;
/** PUT of one key: `{"meta": {key: value}}`. */
export const parseMetaBody = (body: unknown) => validateBody(metaSchema, body).meta;
