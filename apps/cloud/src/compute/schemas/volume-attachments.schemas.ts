import type { Microversion } from '../../platform/http/microversion.js';
import { BOOLEAN_ENUM } from '../../platform/validation/parameter-types.js';
import { ENHANCEMENTS_VERSION } from '../microversions.js';
import {
  type JsonSchema,
  MAX_LIMIT,
  multiParams,
  NON_NEGATIVE_INTEGER,
  type RequestSchema,
  requestSchema,
  validateBody,
  validateQuery,
} from './validation.js';

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

type Bool = boolean | string;

/** What the attach schemas accept: each key only from the microversion that adds it. */
interface AttachRequestBody {
  volumeAttachment: {
    volumeId: string;
    device?: string | null;
    tag?: string;
    delete_on_termination?: Bool;
    attach_mode?: 'ro' | 'rw';
  };
}

/** What the update schemas accept: only volumeId below 2.85. */
interface UpdateRequestBody {
  volumeAttachment: {
    volumeId: string;
    device?: string | null;
    tag?: string;
    delete_on_termination?: Bool;
    serverId?: string;
    id?: string;
  };
}

function wrapped<T>(properties: Record<string, JsonSchema>): RequestSchema<T> {
  return requestSchema({
    type: 'object',
    properties: {
      volumeAttachment: { type: 'object', properties, required: ['volumeId'], additionalProperties: false },
    },
    required: ['volumeAttachment'],
    additionalProperties: false,
  });
}

/** `create`, `create_v249` (tag), `create_v279` (delete_on_termination), and the spec's 2.105 (attach_mode). */
const create = wrapped<AttachRequestBody>({ volumeId: uuid, device });
const createV249 = wrapped<AttachRequestBody>({ volumeId: uuid, device, tag });
const createV279 = wrapped<AttachRequestBody>({
  volumeId: uuid,
  device,
  tag,
  delete_on_termination: boolean,
});
const createV2105 = wrapped<AttachRequestBody>({
  volumeId: uuid,
  device,
  tag,
  delete_on_termination: boolean,
  attach_mode: attachMode,
});

/** `update` (swap only) and `update_v285`, whose other keys must not change. The spec leaves PUT alone. */
const update = wrapped<UpdateRequestBody>({ volumeId: uuid });
const updateV285 = wrapped<UpdateRequestBody>({
  volumeId: uuid,
  device,
  tag,
  delete_on_termination: boolean,
  serverId: uuid,
  id: uuid,
});

export interface AttachBody {
  volumeId: string;
  device: string | null;
  tag: string | null;
  deleteOnTermination: boolean;
  attachMode: 'ro' | 'rw' | null;
}

/** POST: the microversion's schema, then the body with its defaults. */
export function parseAttachBody(body: unknown, version: Microversion): AttachBody {
  const schema = version.atLeast(ENHANCEMENTS_VERSION)
    ? createV2105
    : version.atLeast('2.79')
      ? createV279
      : version.atLeast('2.49')
        ? createV249
        : create;
  const att = validateBody(schema, body).volumeAttachment;
  return {
    volumeId: att.volumeId,
    device: att.device ?? null,
    tag: att.tag ?? null,
    deleteOnTermination: toBool(att.delete_on_termination),
    attachMode: att.attach_mode ?? null,
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

/** PUT: the microversion's schema; keys given are kept (they must match what the attachment has). */
export function parseUpdateBody(body: unknown, version: Microversion): UpdateBody {
  const att = validateBody(version.atLeast('2.85') ? updateV285 : update, body).volumeAttachment;
  const out: UpdateBody = { volumeId: att.volumeId };
  if (att.id !== undefined) out.id = att.id;
  if (att.serverId !== undefined) out.serverId = att.serverId;
  if (att.device !== undefined) out.device = att.device;
  if (att.tag !== undefined) out.tag = att.tag;
  if (att.delete_on_termination !== undefined) out.deleteOnTermination = toBool(att.delete_on_termination);
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
