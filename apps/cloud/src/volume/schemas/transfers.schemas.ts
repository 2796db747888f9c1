import { requestSchema, type Schema, types } from './validation.js';

/** Cinder's transfer requests (`cinder/api/schemas/volume_transfer.py`). */

export interface CreateTransferBody {
  transfer: { volume_id: string; name?: string | null; no_snapshots?: boolean | string };
}

const transferProperties: Record<string, Schema> = {
  volume_id: { type: 'string', format: 'uuid' },
  name: { type: ['string', 'null'], maxLength: 255 },
};

export const createTransferBody = requestSchema<CreateTransferBody>({
  type: 'object',
  properties: {
    transfer: {
      type: 'object',
      properties: transferProperties,
      required: ['volume_id'],
      additionalProperties: false,
    },
  },
  required: ['transfer'],
  additionalProperties: false,
});

/** 3.55's `volume-transfers` also takes `no_snapshots`. */
export const createTransferBodyV355 = requestSchema<CreateTransferBody>({
  type: 'object',
  properties: {
    transfer: {
      type: 'object',
      properties: { ...transferProperties, no_snapshots: types.boolean },
      required: ['volume_id'],
      additionalProperties: false,
    },
  },
  required: ['transfer'],
  additionalProperties: false,
});

export const acceptTransferBody = requestSchema<{ accept: { auth_key: string | number } }>({
  type: 'object',
  properties: {
    accept: {
      type: 'object',
      properties: { auth_key: { type: ['string', 'integer'] } },
      required: ['auth_key'],
      additionalProperties: false,
    },
  },
  required: ['accept'],
  additionalProperties: false,
});
