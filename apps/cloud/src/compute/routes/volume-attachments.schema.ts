import type { Microversion } from '../../platform/http/microversion.js';
import { ENHANCEMENTS_VERSION } from '../microversions.js';
import { BOOLEAN_ENUM } from '../../platform/validation/parameter-types.js';
import {
  type JsonSchema,
  MAX_LIMIT,
  multiParams,
  NON_NEGATIVE_INTEGER,
  validateBody,
  validateQuery,
} from '../service/request-schema.js';

/**
 * The os-volume_attachments request schemas (nova/api/openstack/compute/schemas/volumes.py,
 * keys in Nova's order so the first error is Nova's), plus the enhancement's `attach_mode`.
 */

const uuid: JsonSchema = { type: 'string', format: 'uuid' };
/** nova/block_device.py match_device(), as the schema spells it (captures 216, 217). */
const device: JsonSchema = {
  type: ['string', 'null'],
  pattern: '(^/dev/x{0,1}[a-z]{0,1}d{0,1})([a-z]+)[0-9]*$',
};
const tag: JsonSchema = { type: 'string', minLength: 1, maxLength: 60, pattern: '^[^,/]*$' };
const boolean: JsonSchema = { type: ['boolean', 'string'], enum: BOOLEAN_ENUM };
/** The spec's schema for the new field. */
const attachMode: JsonSchema = { type: 'string', enum: ['ro', 'rw'] };

const TRUE_VALUES = new Set<unknown>(BOOLEAN_ENUM.slice(0, BOOLEAN_ENUM.indexOf(false)));
const toBool = (v: unknown) => TRUE_VALUES.has(v);

function wrapped(properties: Record<string, JsonSchema>): JsonSchema {
  return {
    type: 'object',
    properties: {
      volumeAttachment: { type: 'object', properties, required: ['volumeId'], additionalProperties: false },
    },
    required: ['volumeAttachment'],
    additionalProperties: false,
  };
}

export interface AttachBody {
  volumeId: string;
  device: string | null;
  tag: string | null;
  deleteOnTermination: boolean;
  attachMode: 'ro' | 'rw' | null;
}

/** POST: `create`, + tag (2.49), + delete_on_termination (2.79), + attach_mode (2.105). */
export function parseAttachBody(body: unknown, version: Microversion): AttachBody {
  const properties: Record<string, JsonSchema> = { volumeId: uuid, device };
  if (version.atLeast('2.49')) properties['tag'] = tag;
  if (version.atLeast('2.79')) properties['delete_on_termination'] = boolean;
  if (version.atLeast(ENHANCEMENTS_VERSION)) properties['attach_mode'] = attachMode;
  validateBody(wrapped(properties), body);
  const att = (body as { volumeAttachment: Record<string, unknown> }).volumeAttachment;
  return {
    volumeId: att['volumeId'] as string,
    device: (att['device'] as string | null | undefined) ?? null,
    tag: (att['tag'] as string | undefined) ?? null,
    deleteOnTermination: toBool(att['delete_on_termination']),
    attachMode: (att['attach_mode'] as 'ro' | 'rw' | undefined) ?? null,
  };
}

export interface UpdateBody {
  volumeId: string;
  id?: string;
  serverId?: string;
  device?: string | null;
  tag?: string;
  deleteOnTermination?: boolean;
}

/**
 * PUT: only volumeId below 2.85 (`device` is refused); from 2.85 also id/serverId/device/tag,
 * which must not change, and delete_on_termination. Never attach_mode (the spec leaves PUT alone).
 */
export function parseUpdateBody(body: unknown, version: Microversion): UpdateBody {
  const properties: Record<string, JsonSchema> = { volumeId: uuid };
  if (version.atLeast('2.85')) {
    Object.assign(properties, { device, tag, delete_on_termination: boolean, serverId: uuid, id: uuid });
  }
  validateBody(wrapped(properties), body);
  const att = (body as { volumeAttachment: Record<string, unknown> }).volumeAttachment;
  const out: UpdateBody = { volumeId: att['volumeId'] as string };
  if ('id' in att) out.id = att['id'] as string;
  if ('serverId' in att) out.serverId = att['serverId'] as string;
  if ('device' in att) out.device = att['device'] as string | null;
  if ('tag' in att) out.tag = att['tag'] as string;
  if ('delete_on_termination' in att) out.deleteOnTermination = toBool(att['delete_on_termination']);
  return out;
}

/**
 * The index query (`index_query`, closed from 2.75), then `common.limited`: the last value of
 * each parameter wins, and a limit of 0 or none means max_limit.
 */
export function parseListQuery(query: Record<string, unknown>, version: Microversion) {
  const asLists: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query)) asLists[k] = Array.isArray(v) ? v : [v];
  validateQuery(
    {
      type: 'object',
      properties: { limit: multiParams(NON_NEGATIVE_INTEGER), offset: multiParams(NON_NEGATIVE_INTEGER) },
      additionalProperties: version.below('2.75'),
    },
    asLists,
  );
  const last = (name: string) => {
    const v = asLists[name];
    return Array.isArray(v) && v.length > 0 ? Number(v.at(-1)) : 0;
  };
  const limit = last('limit');
  return { limit: Math.min(MAX_LIMIT, limit || MAX_LIMIT), offset: last('offset') };
}
