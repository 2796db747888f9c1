import { requestSchema, types } from './validation.js';

/**
 * Cinder's group requests (`cinder/api/schemas/group_types.py`, `group_specs.py`, `groups.py`,
 * `group_snapshots.py`).
 */

type Bool = boolean | string;

export interface CreateGroupTypeBody {
  group_type: {
    name: string;
    description?: string | null;
    is_public?: Bool;
    group_specs?: Record<string, string> | null;
  };
}
export const createGroupTypeBody = requestSchema<CreateGroupTypeBody>({
  type: 'object',
  properties: {
    group_type: {
      type: 'object',
      properties: {
        name: types.name,
        description: types.description,
        is_public: types.boolean,
        group_specs: types.metadataAllowsNull,
      },
      required: ['name'],
      additionalProperties: false,
    },
  },
  required: ['group_type'],
  additionalProperties: false,
});

export interface UpdateGroupTypeBody {
  group_type: { name?: string | null; description?: string | null; is_public?: Bool };
}
export const updateGroupTypeBody = requestSchema<UpdateGroupTypeBody>({
  type: 'object',
  properties: {
    group_type: {
      type: 'object',
      properties: {
        name: types.nameAllowZeroMinLength,
        description: types.description,
        is_public: types.boolean,
      },
      additionalProperties: false,
    },
  },
  required: ['group_type'],
  additionalProperties: false,
});

export const createGroupSpecsBody = requestSchema<{ group_specs: Record<string, string> }>({
  type: 'object',
  properties: { group_specs: types.extraSpecs },
  required: ['group_specs'],
  additionalProperties: false,
});

export const updateGroupSpecBody = requestSchema<Record<string, string>>({
  ...types.extraSpecs,
  minProperties: 1,
  maxProperties: 1,
});

export interface CreateGroupBody {
  group: {
    name?: string | null;
    description?: string | null;
    group_type: string;
    volume_types: string[];
    availability_zone?: string | null;
  };
}
export const createGroupBody = requestSchema<CreateGroupBody>({
  type: 'object',
  properties: {
    group: {
      type: 'object',
      properties: {
        description: types.description,
        group_type: { type: 'string', minLength: 1 },
        name: types.nameAllowZeroMinLength,
        volume_types: { type: 'array', minItems: 1, items: { type: 'string' }, uniqueItems: true },
        availability_zone: { type: ['string', 'null'], format: 'availability_zone' },
      },
      required: ['group_type', 'volume_types'],
      additionalProperties: false,
    },
  },
  required: ['group'],
  additionalProperties: false,
});

export interface CreateFromSourceBody {
  'create-from-src': {
    name?: string | null;
    description?: string | null;
    source_group_id?: string;
    group_snapshot_id?: string;
  };
}
export const createFromSourceBody = requestSchema<CreateFromSourceBody>({
  type: 'object',
  properties: {
    'create-from-src': {
      type: 'object',
      properties: {
        description: types.description,
        name: types.nameAllowZeroMinLength,
        source_group_id: { type: 'string', format: 'uuid' },
        group_snapshot_id: { type: 'string', format: 'uuid' },
      },
      oneOf: [{ required: ['group_snapshot_id'] }, { required: ['source_group_id'] }],
      additionalProperties: false,
    },
  },
  required: ['create-from-src'],
  additionalProperties: false,
});

export interface UpdateGroupBody {
  group: {
    name?: string | null;
    description?: string | null;
    add_volumes?: string | null;
    remove_volumes?: string | null;
  };
}
export const updateGroupBody = requestSchema<UpdateGroupBody>({
  type: 'object',
  properties: {
    group: {
      type: 'object',
      properties: {
        description: types.description,
        name: types.nameAllowZeroMinLength,
        add_volumes: { type: ['string', 'null'] },
        remove_volumes: { type: ['string', 'null'] },
      },
      anyOf: [
        { required: ['name'] },
        { required: ['description'] },
        { required: ['add_volumes'] },
        { required: ['remove_volumes'] },
      ],
      additionalProperties: false,
    },
  },
  required: ['group'],
  additionalProperties: false,
});

export const deleteGroupBody = requestSchema<{ delete: { 'delete-volumes'?: Bool } }>({
  type: 'object',
  properties: {
    delete: {
      type: 'object',
      properties: { 'delete-volumes': types.boolean },
      additionalProperties: false,
    },
  },
  required: ['delete'],
  additionalProperties: false,
});

/** reset_status of a group or a group snapshot; the service checks the status's value. */
export const resetStatusBody = requestSchema<{ reset_status: { status: string } }>({
  type: 'object',
  properties: {
    reset_status: {
      type: 'object',
      properties: { status: { type: 'string' } },
      required: ['status'],
      additionalProperties: false,
    },
  },
  required: ['reset_status'],
  additionalProperties: false,
});

export interface CreateGroupSnapshotBody {
  group_snapshot: { group_id: string; name?: string | null; description?: string | null };
}
export const createGroupSnapshotBody = requestSchema<CreateGroupSnapshotBody>({
  type: 'object',
  properties: {
    group_snapshot: {
      type: 'object',
      properties: {
        name: types.nameAllowZeroMinLength,
        description: types.description,
        group_id: { type: 'string', format: 'uuid' },
      },
      required: ['group_id'],
      additionalProperties: false,
    },
  },
  required: ['group_snapshot'],
  additionalProperties: false,
});
