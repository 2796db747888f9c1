import { type Request, Router } from 'express';
import { authOf } from '../../platform/http/context.js';
import { badRequest, notFound, WEBOB_NOT_FOUND } from '../../platform/http/errors.js';
import { versionOf } from '../../platform/http/microversion.js';
import type {
  AttachMode,
  AttachmentsService,
  Caller,
  Connector,
  ListRequest,
} from '../service/attachments.service.js';
import { callerOf as volumeCallerOf } from '../service/caller.js';
import { parseListParams, QueryParams } from '../service/paging.js';
import { attachmentDetail, attachmentList } from '../views/attachment.view.js';
import { cinderSchema, parseBody, type Schema } from './json-schema.js';

/**
 * Cinder's attachments API (`api/v3/attachments.py`), 3.27+, under /volume/v3/{project_id}.
 * Bodies are checked against Cinder's JSON schemas, with its messages (captures 59, 256, 260).
 */
export function attachmentsRoutes(attachments: AttachmentsService): Router {
  const router = Router({ mergeParams: true });

  // Every attachments route is "not found" below 3.27 (capture 46), whatever the method.
  router.use('/attachments', (req, _res, next) => {
    if (versionOf(req.ctx).below('3.27')) throw notFound(WEBOB_NOT_FOUND);
    next();
  });

  router.get('/attachments', async (req, res) => {
    const rows = await attachments.list(callerOf(req), parseListQuery(req));
    res.json(attachmentList(rows, false));
  });

  router.get('/attachments/detail', async (req, res) => {
    const rows = await attachments.list(callerOf(req), parseListQuery(req));
    res.json(attachmentList(rows, true));
  });

  router.get('/attachments/:attachmentId', async (req, res) => {
    const row = await attachments.get(callerOf(req), req.params.attachmentId);
    res.json({ attachment: attachmentDetail(row) });
  });

  router.post('/attachments', async (req, res) => {
    // An empty body is validated as None, as Cinder does.
    const { attachment } = parseBody(
      versionOf(req.ctx).atLeast('3.54') ? createBodyV354 : createBody,
      req.ctx.body,
    );
    const row = await attachments.create(callerOf(req), {
      volumeId: attachment.volume_uuid,
      instanceUuid: attachment.instance_uuid ?? null,
      connector: attachment.connector ?? null,
      mode: attachment.mode ?? null,
    });
    res.status(200).json({ attachment: attachmentDetail(row) });
  });

  router.put('/attachments/:attachmentId', async (req, res) => {
    const { attachment } = parseBody(updateBody, req.ctx.body);
    const row = await attachments.update(callerOf(req), req.params.attachmentId, attachment.connector);
    res.json({ attachment: attachmentDetail(row) });
  });

  router.delete('/attachments/:attachmentId', async (req, res) => {
    const remaining = await attachments.delete(callerOf(req), req.params.attachmentId);
    res.json(attachmentList(remaining, false));
  });

  router.post('/attachments/:attachmentId/action', async (req, res) => {
    const action = actionName(req.ctx.body);
    if (action !== 'os-complete') throw badRequest(`There is no such action: ${action}`);
    if (versionOf(req.ctx).below('3.44')) throw notFound(WEBOB_NOT_FOUND);
    await attachments.complete(callerOf(req), req.params.attachmentId);
    res.status(204).end();
  });

  return router;
}

/** The service's view of the authenticated caller. */
export function callerOf(req: Request): Caller {
  return volumeCallerOf(authOf(req.ctx));
}

/**
 * Cinder's `action_peek`: the body must hold exactly one key, the action's name. With no body at
 * all, Cinder looks up the action `None`.
 */
export function actionName(body: unknown): string {
  if (body === undefined) return 'None';
  if (body === null || typeof body !== 'object' || Array.isArray(body) || Object.keys(body).length !== 1) {
    throw badRequest('Malformed request body');
  }
  return Object.keys(body)[0] ?? 'None';
}

// --- List query ----------------------------------------------------------------------------------

const FILTERS = new Set(['volume_id', 'status', 'instance_id', 'attach_status']);

function parseListQuery(req: Request): ListRequest {
  const list = parseListParams(QueryParams.fromUrl(req.originalUrl));
  const filters = list.filters;
  // From 3.34 (generalized filtering) an unknown filter is an error for members; before, it is
  // dropped. all_tenants is tolerated, as members may send it to the volumes list (capture 238).
  if (!authOf(req.ctx).isAdmin && versionOf(req.ctx).atLeast('3.34')) {
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

// --- Cinder's request schemas (`api/schemas/attachments.py`) ----------------------------------

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

const createBody = cinderSchema<CreateBody>(CREATE_SCHEMA);
const createBodyV354 = cinderSchema<CreateBody>(CREATE_V354_SCHEMA);
const updateBody = cinderSchema<UpdateBody>(UPDATE_SCHEMA);
