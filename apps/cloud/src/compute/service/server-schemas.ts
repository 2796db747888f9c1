import type { Microversion } from '../../platform/http/microversion.js';
import { BOOLEAN_ENUM } from '../../platform/validation/parameter-types.js';
import type { JsonSchema } from './request-schema.js';

/**
 * Nova's request schemas for POST /servers and the server actions we serve
 * (`nova/api/openstack/compute/schemas/servers.py`, `block_device_mapping*.py`,
 * `parameter_types.py`), rebuilt per microversion. Keys are in Nova's order: jsonschema reports
 * the first error in that order, and clients see which one.
 */

const name: JsonSchema = { type: 'string', minLength: 1, maxLength: 255, format: 'name' };
const description: JsonSchema = {
  type: ['string', 'null'],
  minLength: 0,
  maxLength: 255,
  format: 'name_with_leading_trailing_spaces',
};
/** `parameter_types.boolean`: a bool or one of oslo's boolean strings. */
const boolean: JsonSchema = { type: ['boolean', 'string'], enum: BOOLEAN_ENUM };
const positiveInteger: JsonSchema = {
  type: ['integer', 'string'],
  pattern: '^[0-9]*$',
  minimum: 1,
  minLength: 1,
};
const uuid: JsonSchema = { type: 'string', format: 'uuid' };
const tag: JsonSchema = { type: 'string', minLength: 1, maxLength: 60, pattern: '^[^,/]*$' };
const metadata: JsonSchema = {
  type: 'object',
  patternProperties: { '^[a-zA-Z0-9-_:. ]{1,255}$': { type: 'string', maxLength: 255 } },
  additionalProperties: false,
};
const fqdn: JsonSchema = { type: 'string', minLength: 1, maxLength: 255, pattern: '^[a-zA-Z0-9-._]*$' };
const hostname: JsonSchema = {
  type: 'string',
  minLength: 2,
  maxLength: 63,
  pattern: '^[a-zA-Z0-9]+[a-zA-Z0-9-]*[a-zA-Z0-9]+$',
};
const imageIdOrEmpty: JsonSchema = {
  oneOf: [
    { type: 'string', format: 'uuid' },
    { type: 'string', maxLength: 0 },
  ],
};
const volumeSize: JsonSchema = {
  type: ['integer', 'string'],
  pattern: '^[0-9]+$',
  minimum: 1,
  maximum: 2147483647,
};

function bdmItem(opts: { tag: boolean; volumeType: boolean; attachMode: boolean }): JsonSchema {
  // The legacy (v1) keys first, then the v2 keys Nova merges in, then the per-version additions.
  const properties: Record<string, JsonSchema> = {
    virtual_name: { type: 'string', maxLength: 255 },
    volume_id: uuid,
    snapshot_id: uuid,
    volume_size: volumeSize,
    device_name: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[a-zA-Z0-9._/-]*$' },
    delete_on_termination: boolean,
    no_device: {},
    connection_info: { type: 'string', maxLength: 16777215 },
    source_type: { type: 'string', enum: ['volume', 'image', 'snapshot', 'blank'] },
    uuid: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[a-zA-Z0-9._-]*$' },
    image_id: uuid,
    destination_type: { type: 'string', enum: ['local', 'volume'] },
    guest_format: { type: 'string', maxLength: 255 },
    device_type: { type: 'string', maxLength: 255 },
    disk_bus: { type: 'string', maxLength: 255 },
    boot_index: { type: ['integer', 'string', 'null'], pattern: '^-?[0-9]+$' },
  };
  if (opts.tag) properties.tag = tag;
  if (opts.volumeType) properties.volume_type = { type: ['string', 'null'], minLength: 0, maxLength: 255 };
  // The enhancement (seeds/002): `attach_mode` from 2.105 only.
  if (opts.attachMode) properties.attach_mode = { type: 'string', enum: ['ro', 'rw'] };
  return { type: 'object', properties, additionalProperties: false };
}

const legacyBdmItem: JsonSchema = {
  type: 'object',
  properties: {
    virtual_name: { type: 'string', maxLength: 255 },
    volume_id: uuid,
    snapshot_id: uuid,
    volume_size: volumeSize,
    device_name: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[a-zA-Z0-9._/-]*$' },
    delete_on_termination: boolean,
    no_device: {},
    connection_info: { type: 'string', maxLength: 16777215 },
  },
  additionalProperties: false,
};

const schedulerHints: JsonSchema = {
  type: 'object',
  properties: {
    group: uuid,
    different_host: { oneOf: [uuid, { type: 'array', items: uuid }] },
    same_host: { type: ['string', 'array'], items: uuid },
    query: { type: ['string', 'object'] },
    target_cell: name,
    different_cell: { type: ['string', 'array'], items: { type: 'string' } },
    build_near_host_ip: { type: 'string', format: 'ipv4' },
    cidr: { type: 'string', pattern: '^/[0-9a-f.:]+$' },
  },
  additionalProperties: true,
};

function networksSchema(v: Microversion): JsonSchema {
  const withTag = (v.atLeast('2.32') && v.below('2.37')) || v.atLeast('2.42');
  const itemProps: Record<string, JsonSchema> = {
    fixed_ip: { type: 'string', format: 'ipv4' },
    port: { oneOf: [uuid, { type: 'null' }] },
    uuid: v.atLeast('2.37') ? uuid : { type: 'string' },
  };
  if (withTag) itemProps.tag = tag;
  const list: JsonSchema = {
    type: 'array',
    items: { type: 'object', properties: itemProps, additionalProperties: false },
  };
  if (v.below('2.37')) return list;
  return { oneOf: [list, { type: 'string', enum: ['none', 'auto'] }] };
}

/** `base_create` and its versioned copies, for the requested microversion. */
export function serverCreateSchema(v: Microversion): JsonSchema {
  const bdmTag = v.toString() === '2.32' || v.atLeast('2.42');
  const server: Record<string, JsonSchema> = {
    name,
    imageRef: imageIdOrEmpty,
    flavorRef: { type: ['string', 'integer'], minLength: 1 },
    adminPass: { type: 'string' },
    metadata,
    networks: networksSchema(v),
    'OS-DCF:diskConfig': { type: 'string', enum: ['AUTO', 'MANUAL'] },
    accessIPv4: { type: 'string', format: 'ipv4' },
    accessIPv6: { type: 'string', format: 'ipv6' },
    personality: {
      type: 'array',
      items: {
        type: 'object',
        properties: { path: { type: 'string' }, contents: { type: 'string', format: 'base64' } },
        additionalProperties: false,
      },
    },
    availability_zone: name,
    block_device_mapping: { type: 'array', items: legacyBdmItem },
    block_device_mapping_v2: {
      type: 'array',
      items: bdmItem({ tag: bdmTag, volumeType: v.atLeast('2.67'), attachMode: v.atLeast('2.105') }),
    },
    config_drive: boolean,
    key_name: name,
    min_count: positiveInteger,
    max_count: positiveInteger,
    return_reservation_id: boolean,
    security_groups: {
      type: 'array',
      items: { type: 'object', properties: { name }, additionalProperties: false },
    },
    user_data: { type: 'string', format: 'base64', maxLength: 65535 },
  };
  if (v.atLeast('2.19')) server.description = description;
  if (v.atLeast('2.52')) server.tags = { type: 'array', items: tag, maxItems: 50 };
  if (v.atLeast('2.57')) delete server.personality;
  if (v.atLeast('2.63')) {
    server.trusted_image_certificates = {
      type: ['array', 'null'],
      minItems: 1,
      maxItems: 50,
      items: { type: 'string', minLength: 1 },
    };
  }
  if (v.atLeast('2.74')) {
    server.host = fqdn;
    server.hypervisor_hostname = fqdn;
  }
  if (v.atLeast('2.90')) server.hostname = v.atLeast('2.94') ? fqdn : hostname;
  return {
    type: 'object',
    properties: {
      server: {
        type: 'object',
        properties: server,
        required: v.atLeast('2.37') ? ['name', 'flavorRef', 'networks'] : ['name', 'flavorRef'],
        additionalProperties: false,
      },
      'os:scheduler_hints': schedulerHints,
      'OS-SCH-HNT:scheduler_hints': schedulerHints,
    },
    required: ['server'],
    additionalProperties: false,
  };
}

/** Action bodies (`schemas/servers.py` reboot/resize, `schemas/shelve.py` unshelve). */
export const rebootSchema: JsonSchema = {
  type: 'object',
  properties: {
    reboot: {
      type: 'object',
      properties: { type: { type: 'string', enum: ['HARD', 'Hard', 'hard', 'SOFT', 'Soft', 'soft'] } },
      required: ['type'],
      additionalProperties: false,
    },
  },
  required: ['reboot'],
  additionalProperties: false,
};

export const resizeSchema: JsonSchema = {
  type: 'object',
  properties: {
    resize: {
      type: 'object',
      properties: {
        flavorRef: { type: ['string', 'integer'], minLength: 1 },
        'OS-DCF:diskConfig': { type: 'string', enum: ['AUTO', 'MANUAL'] },
      },
      required: ['flavorRef'],
      additionalProperties: false,
    },
  },
  required: ['resize'],
  additionalProperties: false,
};

/** 2.77 unshelve with an availability zone, 2.91 also a host (or null to unpin). */
export function unshelveSchema(v: Microversion): JsonSchema {
  const az: JsonSchema = { type: 'string', minLength: 1, maxLength: 255, format: 'name' };
  const body: JsonSchema = v.atLeast('2.91')
    ? {
        type: ['object', 'null'],
        properties: { availability_zone: { oneOf: [az, { type: 'null' }] }, host: fqdn },
        additionalProperties: false,
      }
    : {
        type: ['object', 'null'],
        properties: { availability_zone: az },
        additionalProperties: false,
      };
  return {
    type: 'object',
    properties: { unshelve: body },
    required: ['unshelve'],
    additionalProperties: false,
  };
}
