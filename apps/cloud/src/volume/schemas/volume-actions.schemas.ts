import { type Schema, requestSchema, types } from './validation.js';

/**
 * The bodies of `POST /volumes/{id}/action` (`cinder/api/schemas/volume_actions.py`,
 * `volume_manage.py`): `{"<action>": {...}}`, one schema per action. The route hands the action's
 * value under its name, so each schema checks the whole one-key body, as Cinder's do.
 */

type Bool = boolean | string;
type OptStr = string | null | undefined;

/** `{"<action>": {...}}` with the action's own properties (volume_actions.py schemas). */
const action = (name: string, inner: Schema): Schema => ({
  type: 'object',
  properties: { [name]: inner },
  required: [name],
  additionalProperties: false,
});

export const extendBody = requestSchema<{ 'os-extend': { new_size: number | string } }>(
  action('os-extend', {
    type: 'object',
    properties: { new_size: types.volumeSize },
    required: ['new_size'],
    additionalProperties: false,
  }),
);

export const retypeBody = requestSchema<{ 'os-retype': { new_type: string; migration_policy?: OptStr } }>(
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

export const setBootableBody = requestSchema<{ 'os-set_bootable': { bootable: Bool } }>(
  action('os-set_bootable', {
    type: 'object',
    properties: { bootable: types.boolean },
    required: ['bootable'],
    additionalProperties: false,
  }),
);

export const readonlyBody = requestSchema<{ 'os-update_readonly_flag': { readonly: Bool } }>(
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

export const resetStatusBody = requestSchema<ResetStatusBody>(
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

// --- The legacy attach actions ------------------------------------------------------------------

const uuid: Schema = { type: 'string', format: 'uuid' };

const ATTACH_SCHEMA: Schema = {
  type: 'object',
  properties: {
    'os-attach': {
      type: 'object',
      properties: {
        instance_uuid: uuid,
        mountpoint: { type: 'string', minLength: 1, maxLength: 255 },
        host_name: { type: 'string', maxLength: 255 },
        mode: { type: 'string', enum: ['rw', 'ro'] },
      },
      required: ['mountpoint'],
      anyOf: [{ required: ['instance_uuid'] }, { required: ['host_name'] }],
      additionalProperties: false,
    },
  },
  required: ['os-attach'],
  additionalProperties: false,
};

const DETACH_SCHEMA: Schema = {
  type: 'object',
  properties: {
    'os-detach': {
      type: ['object', 'null'],
      // null is allowed for backward compatibility.
      properties: { attachment_id: { type: ['string', 'null'], format: 'uuid' } },
      additionalProperties: false,
    },
  },
  required: ['os-detach'],
  additionalProperties: false,
};

const INITIALIZE_SCHEMA: Schema = {
  type: 'object',
  properties: {
    'os-initialize_connection': {
      type: 'object',
      properties: { connector: { type: ['object', 'string'] } },
      required: ['connector'],
      additionalProperties: false,
    },
  },
  required: ['os-initialize_connection'],
  additionalProperties: false,
};

const TERMINATE_SCHEMA: Schema = {
  type: 'object',
  properties: {
    'os-terminate_connection': {
      type: 'object',
      properties: { connector: { type: ['string', 'object', 'null'] } },
      required: ['connector'],
      additionalProperties: false,
    },
  },
  required: ['os-terminate_connection'],
  additionalProperties: false,
};

export const attachBody = requestSchema<{
  'os-attach': { instance_uuid?: string; mountpoint: string; host_name?: string; mode?: 'rw' | 'ro' };
}>(ATTACH_SCHEMA);
export const detachBody = requestSchema<{ 'os-detach': { attachment_id?: string | null } | null }>(
  DETACH_SCHEMA,
);
export const initializeBody = requestSchema<{ 'os-initialize_connection': { connector: unknown } }>(
  INITIALIZE_SCHEMA,
);
export const terminateBody = requestSchema<{ 'os-terminate_connection': { connector: unknown } }>(
  TERMINATE_SCHEMA,
);

// --- V1: image metadata and admin actions ----------------------------------------------------------

export const setImageMetadataBody = requestSchema<{
  'os-set_image_metadata': { metadata: Record<string, string> };
}>(
  action('os-set_image_metadata', {
    type: 'object',
    properties: { metadata: types.extraSpecs },
    required: ['metadata'],
    additionalProperties: false,
  }),
);

export const unsetImageMetadataBody = requestSchema<{ 'os-unset_image_metadata': { key: string } }>(
  action('os-unset_image_metadata', {
    type: 'object',
    properties: { key: { type: 'string', minLength: 1, maxLength: 255 } },
    required: ['key'],
    additionalProperties: false,
  }),
);

export const forceDetachBody = requestSchema<{
  'os-force_detach': { connector?: unknown; attachment_id?: string | null };
}>(
  action('os-force_detach', {
    type: 'object',
    properties: {
      connector: { type: ['string', 'object', 'null'] },
      attachment_id: { type: ['string', 'null'] },
    },
    additionalProperties: false,
  }),
);
