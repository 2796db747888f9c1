import { badRequest } from '../../platform/http/errors.js';
import type { Microversion } from '../../platform/http/microversion.js';
import type { AttachMode, Connector, ListRequest } from '../service/attachments.service.js';
import { parseListParams, type QueryParams } from '../service/paging.js';
import { parseBody, requestSchema, type Schema } from './validation.js';

/**
 * Cinder's attachments requests (`api/v3/attachments.py`, `api/schemas/attachments.py`): the
 * list query and its filters, the create (3.27, 3.54 `mode`) and update bodies. Checked with
 * Cinder's messages (captures 59, 256, 260).
 */

// --- List query ----------------------------------------------------------------------------------

const FILTERS = new Set(['volume_id', 'status', 'instance_id', 'attach_status']);

/** `GET /attachments[/detail]`'s query. */
export function parseAttachmentListQuery(
  query: QueryParams,
  isAdmin: boolean,
  version: Microversion,
): ListRequest {
  const list = parseListParams(query);
  const filters = list.filters;
  // From 3.34 (generalized filtering) an unknown filter is an error for members; before, it is
  // dropped. all_tenants is tolerated, as members may send it to the volumes list (capture 238).
  if (!isAdmin && version.atLeast('3.34')) {
    const keys = [...new Set(filters.pairs.map(([k]) => k))];
    const invalid = keys.filter((k) => !FILTERS.has(k) && k !== 'all_tenants');
    if (invalid.length > 0)
      throw badRequest(`Invalid filters ${invalid.join(',')} are found in query options.`);
  }
  const volumeId = filters.get('volume_id');
  const attachStatus = filters.get('attach_status') ?? filters.get('status');
  const instanceId = filters.get('instance_id');
  return {
    allTenants: filters.has('all_tenants'),
    ...(volumeId !== undefined ? { volumeId } : {}),
    ...(attachStatus !== undefined ? { attachStatus } : {}),
    ...(instanceId !== undefined ? { instanceId } : {}),
    marker: list.marker,
    limit: list.limit,
    offset: list.offset,
    sortKeys: list.sortKeys,
    sortDirs: list.sortDirs,
  };
}

// --- Bodies -------------------------------------------------------------------------------------

const uuid: Schema = { type: 'string', format: 'uuid' };

const CREATE_SCHEMA: Schema = {
  type: 'object',
  properties: {
    attachment: {
      type: 'object',
      properties: { instance_uuid: uuid, connector: { type: ['object', 'null'] }, volume_uuid: uuid },
      required: ['volume_uuid'],
      additionalProperties: false,
    },
  },
  required: ['attachment'],
  additionalProperties: false,
};

const CREATE_V354_SCHEMA: Schema = {
  ...CREATE_SCHEMA,
  properties: {
    attachment: {
      type: 'object',
      properties: {
        instance_uuid: uuid,
        connector: { type: ['object', 'null'] },
        volume_uuid: uuid,
        mode: { type: 'string', enum: ['rw', 'ro'] },
      },
      required: ['volume_uuid'],
      additionalProperties: false,
    },
  },
};

const UPDATE_SCHEMA: Schema = {
  type: 'object',
  properties: {
    attachment: {
      type: 'object',
      properties: { connector: { type: 'object', minProperties: 1 } },
      required: ['connector'],
      additionalProperties: false,
    },
  },
  required: ['attachment'],
  additionalProperties: false,
};

interface CreateBody {
  attachment: {
    volume_uuid: string;
    instance_uuid?: string;
    connector?: Connector | null;
    mode?: AttachMode;
  };
}
interface UpdateBody {
  attachment: { connector: Connector };
}

const createBody = requestSchema<CreateBody>(CREATE_SCHEMA);
const createBodyV354 = requestSchema<CreateBody>(CREATE_V354_SCHEMA);
const updateBody = requestSchema<UpdateBody>(UPDATE_SCHEMA);

/** `POST /attachments`: `create`, or from 3.54 `create_v354` with `mode`. An empty body is None. */
export const parseAttachmentCreate = (body: unknown, version: Microversion): CreateBody =>
  parseBody(version.atLeast('3.54') ? createBodyV354 : createBody, body);

/** `PUT /attachments/{id}`. */
export const parseAttachmentUpdate = (body: unknown): UpdateBody => parseBody(updateBody, body);

/**
 * `POST /attachments/{id}/action`, Cinder's `action_peek`: the body must hold exactly one key, the action's name. With no body at
 * all, Cinder looks up the action `None`.
 */
export function parseAttachmentAction(body: unknown): string {
  if (body === undefined) return 'None';
  if (body === null || typeof body !== 'object' || Array.isArray(body) || Object.keys(body).length !== 1) {
    throw badRequest('Malformed request body');
  }
  return Object.keys(body)[0] ?? 'None';
}
