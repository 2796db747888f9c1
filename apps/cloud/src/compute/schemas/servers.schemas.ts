import type { Microversion } from '../../platform/http/microversion.js';
import { BOOLEAN_ENUM } from '../../platform/validation/parameter-types.js';
import { type JsonSchema, type RequestSchema, requestSchema, validateBody } from './validation.js';

/**
 * Nova's request schema for POST /servers (`nova/api/openstack/compute/schemas/servers.py`,
 * `block_device_mapping*.py`, `parameter_types.py`), one per microversion where it changes, and
 * the type of a body it accepts. Keys are in Nova's order: jsonschema reports the first error in
 * that order, and clients see which one.
 */

type Bool = boolean | string;
type IntLike = number | string;

/** A `block_device_mapping_v2` item (the legacy keys, the v2 keys, 2.42 tag, 2.67 volume_type, 2.105 attach_mode). */
export interface BdmV2Item {
  virtual_name?: string;
  volume_id?: string;
  snapshot_id?: string;
  volume_size?: IntLike;
  device_name?: string;
  delete_on_termination?: Bool;
  no_device?: unknown;
  connection_info?: string;
  source_type?: 'volume' | 'image' | 'snapshot' | 'blank';
  uuid?: string;
  image_id?: string;
  destination_type?: 'local' | 'volume';
  guest_format?: string;
  device_type?: string;
  disk_bus?: string;
  boot_index?: IntLike | null;
  tag?: string;
  volume_type?: string | null;
  attach_mode?: 'ro' | 'rw';
}

/** A legacy `block_device_mapping` item. */
export type LegacyBdmItem = Pick<
  BdmV2Item,
  | 'virtual_name'
  | 'volume_id'
  | 'snapshot_id'
  | 'volume_size'
  | 'device_name'
  | 'delete_on_termination'
  | 'no_device'
  | 'connection_info'
>;

export interface NetworkItem {
  fixed_ip?: string;
  port?: string | null;
  uuid?: string;
  tag?: string;
}

/** What `serverCreateSchema` accepts (each key only at the microversions that know it). */
export interface ServerCreateBody {
  server: {
    name: string;
    imageRef?: string;
    flavorRef: string | number;
    adminPass?: string;
    metadata?: Record<string, string>;
    networks?: NetworkItem[] | 'none' | 'auto';
    'OS-DCF:diskConfig'?: 'AUTO' | 'MANUAL';
    accessIPv4?: string;
    accessIPv6?: string;
    personality?: { path?: string; contents?: string }[];
    availability_zone?: string;
    block_device_mapping?: LegacyBdmItem[];
    block_device_mapping_v2?: BdmV2Item[];
    config_drive?: Bool;
    key_name?: string;
    min_count?: IntLike;
    max_count?: IntLike;
    return_reservation_id?: Bool;
    security_groups?: { name?: string }[];
    user_data?: string;
    description?: string | null;
    tags?: string[];
    trusted_image_certificates?: string[] | null;
    host?: string;
    hypervisor_hostname?: string;
    hostname?: string;
  };
  'os:scheduler_hints'?: Record<string, unknown>;
  'OS-SCH-HNT:scheduler_hints'?: Record<string, unknown>;
}

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
function serverCreateJson(v: Microversion): JsonSchema {
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

const createSchemas = new Map<string, RequestSchema<ServerCreateBody>>();

/** The create schema of a microversion (built once per microversion asked). */
export function serverCreateSchema(v: Microversion): RequestSchema<ServerCreateBody> {
  const key = v.toString();
  let schema = createSchemas.get(key);
  if (!schema) {
    schema = requestSchema<ServerCreateBody>(serverCreateJson(v));
    createSchemas.set(key, schema);
  }
  return schema;
}

/** POST /servers: the body, checked against the microversion's schema. */
export const parseServerCreate = (body: unknown, v: Microversion): ServerCreateBody =>
  validateBody(serverCreateSchema(v), body);
