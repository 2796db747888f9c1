import { requestSchema } from './validation.js';

export interface EncryptionSpecs {
  provider?: string;
  control_location?: 'front-end' | 'back-end';
  cipher?: string | null;
  key_size?: number | string | null;
}

/** `cinder/api/schemas/volume_type_encryption.py`: create needs provider and control_location. */
const encryptionBody = (required: string[]) =>
  requestSchema<{ encryption: EncryptionSpecs }>({
    type: 'object',
    properties: {
      encryption: {
        type: 'object',
        properties: {
          key_size: { type: ['string', 'integer', 'null'], pattern: '^[0-9]+$', minimum: 0 },
          provider: { type: 'string', minLength: 0, maxLength: 255 },
          control_location: { type: 'string', enum: ['front-end', 'back-end'] },
          cipher: { type: ['string', 'null'], minLength: 0, maxLength: 255 },
        },
        required,
        additionalProperties: false,
      },
    },
    required: ['encryption'],
    additionalProperties: false,
  });

export const createEncryptionBody = encryptionBody(['provider', 'control_location']);
export const updateEncryptionBody = encryptionBody([]);
