import { type RequestSchema, requestSchema, type Schema, types } from './validation.js';

/** `cinder/api/schemas/snapshots.py`, `snapshot_actions.py` and admin_actions' snapshot reset. */
export interface CreateSnapshotBody {
  snapshot: {
    name?: string | null;
    display_name?: string | null;
    description?: string | null;
    volume_id: string | null;
    force?: boolean | string;
    metadata?: Record<string, string> | null;
  };
}

export const snapshotCreateBody: RequestSchema<CreateSnapshotBody> = requestSchema<CreateSnapshotBody>({
  type: 'object',
  properties: {
    snapshot: {
      type: 'object',
      properties: {
        name: types.nameAllowZeroMinLength,
        display_name: types.nameAllowZeroMinLength,
        description: types.description,
        volume_id: types.optionalUuid,
        force: types.boolean,
        metadata: types.metadataAllowsNull,
      },
      required: ['volume_id'],
      additionalProperties: false,
    },
  },
  required: ['snapshot'],
  additionalProperties: false,
});

export interface UpdateSnapshotBody {
  snapshot: {
    name?: string | null;
    description?: string | null;
    display_name?: string | null;
    display_description?: string | null;
  };
}

export const snapshotUpdateBody: RequestSchema<UpdateSnapshotBody> = requestSchema<UpdateSnapshotBody>({
  type: 'object',
  properties: {
    snapshot: {
      type: 'object',
      properties: {
        name: types.nameAllowZeroMinLength,
        description: types.description,
        display_name: types.nameAllowZeroMinLength,
        display_description: types.description,
      },
      additionalProperties: false,
      anyOf: [
        { required: ['name'] },
        { required: ['description'] },
        { required: ['display_name'] },
        { required: ['display_description'] },
      ],
    },
  },
  required: ['snapshot'],
  additionalProperties: false,
});

const action = (name: string, inner: Schema): Schema => ({
  type: 'object',
  properties: { [name]: inner },
  required: [name],
  additionalProperties: false,
});

export const snapshotResetStatusBody = requestSchema<{ 'os-reset_status': { status: string } }>(
  action('os-reset_status', {
    type: 'object',
    properties: { status: { type: 'string', format: 'snapshot_status' } },
    required: ['status'],
    additionalProperties: false,
  }),
);

export const updateSnapshotStatusBody = requestSchema<{
  'os-update_snapshot_status': { status: string; progress?: string | null };
}>(
  action('os-update_snapshot_status', {
    type: 'object',
    properties: { status: { type: 'string' }, progress: { format: 'progress' } },
    required: ['status'],
    additionalProperties: false,
  }),
);
