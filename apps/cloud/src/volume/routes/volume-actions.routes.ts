import { Router } from 'express';
import { badRequest } from '../../platform/http/errors.js';
import type { AttachmentsService } from '../service/attachments.service.js';
import type { VolumeMetadataService } from '../service/volume-metadata.service.js';
import type { VolumesService } from '../service/volumes.service.js';
import type { ActionHandler } from './action-types.js';
import { attachActionHandlers } from './attach-actions.js';
import { boolFromString } from '../../platform/validation/parameter-types.js';
import { parseBody } from '../schemas/validation.js';
import { callerFor, param, sendEmpty, versionFor } from './route-helpers.js';
import {
  extendBody,
  forceDetachBody,
  readonlyBody,
  resetStatusBody,
  retypeBody,
  setBootableBody,
  setImageMetadataBody,
  unsetImageMetadataBody,
} from '../schemas/volume-actions.schemas.js';

/** The volume actions this file implements; the legacy attach actions come from attach-actions.ts. */
export function volumeActionHandlers(volumes: VolumesService): Record<string, ActionHandler> {
  return {
    // 200 with an empty body (capture 07).
    'os-set_bootable': async (req, res, id, args) => {
      const body = parseBody(setBootableBody, { 'os-set_bootable': args });
      await volumes.setBootable(callerFor(req), id, boolFromString(body['os-set_bootable'].bootable));
      sendEmpty(res, 200, 'json');
    },
    'os-update_readonly_flag': async (req, res, id, args) => {
      const body = parseBody(readonlyBody, { 'os-update_readonly_flag': args });
      await volumes.updateReadonlyFlag(
        callerFor(req),
        id,
        boolFromString(body['os-update_readonly_flag'].readonly),
      );
      sendEmpty(res, 202, 'json');
    },
    'os-retype': async (req, res, id, args) => {
      const body = parseBody(retypeBody, { 'os-retype': args });
      await volumes.retype(callerFor(req), id, body['os-retype'].new_type);
      sendEmpty(res, 202, 'json');
    },
    'os-reset_status': async (req, res, id, args) => {
      const body = parseBody(resetStatusBody, { 'os-reset_status': args })['os-reset_status'];
      await volumes.resetStatus(callerFor(req), id, {
        ...(body.status ? { status: body.status } : {}),
        ...(body.attach_status ? { attachStatus: body.attach_status } : {}),
        ...(body.migration_status ? { migrationStatus: body.migration_status } : {}),
      });
      sendEmpty(res, 202, 'json');
    },
    'os-extend': async (req, res, id, args) => {
      const body = parseBody(extendBody, { 'os-extend': args });
      await volumes.extend(callerFor(req), versionFor(req), id, Number(body['os-extend'].new_size));
      sendEmpty(res, 202, 'json');
    },
  };
}

/** The image-metadata actions (volume_image_metadata.py) and the admins' force actions. */
export function moreVolumeActionHandlers(
  volumes: VolumesService,
  attachments: AttachmentsService,
  metadata: VolumeMetadataService,
): Record<string, ActionHandler> {
  return {
    'os-show_image_metadata': async (req, res, id) => {
      res.json({ metadata: await metadata.imageMetadata(callerFor(req), id) });
    },
    'os-set_image_metadata': async (req, res, id, args) => {
      const body = parseBody(setImageMetadataBody, { 'os-set_image_metadata': args });
      const meta = await metadata.setImageMetadata(
        callerFor(req),
        id,
        body['os-set_image_metadata'].metadata,
      );
      res.json({ metadata: meta });
    },
    'os-unset_image_metadata': async (req, res, id, args) => {
      const body = parseBody(unsetImageMetadataBody, { 'os-unset_image_metadata': args });
      await metadata.unsetImageMetadata(callerFor(req), id, body['os-unset_image_metadata'].key);
      sendEmpty(res, 200, 'html');
    },
    'os-force_delete': async (req, res, id) => {
      await volumes.forceDelete(callerFor(req), id);
      sendEmpty(res, 202, 'json');
    },
    'os-force_detach': async (req, res, id, args) => {
      const body = parseBody(forceDetachBody, { 'os-force_detach': args })['os-force_detach'];
      await attachments.forceDetach(callerFor(req), id, body.attachment_id ?? null);
      sendEmpty(res, 202, 'json');
    },
  };
}

/**
 * POST /volumes/{id}/action: Cinder dispatches on the body's single key (wsgi action_peek);
 * any other body shape is "Malformed request body", an unknown key "There is no such action".
 */
export function volumeActionRoutes(
  volumes: VolumesService,
  attachments: AttachmentsService,
  metadata: VolumeMetadataService,
): Router {
  const router = Router({ mergeParams: true, strict: true });
  const own = {
    ...volumeActionHandlers(volumes),
    ...moreVolumeActionHandlers(volumes, attachments, metadata),
  };
  const attach = attachActionHandlers(attachments);
  router.post('/volumes/:volumeId/action', async (req, res) => {
    const body = req.ctx.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body) || Object.keys(body).length !== 1) {
      throw badRequest('Malformed request body');
    }
    const [name, args] = Object.entries(body)[0] as [string, unknown];
    const handler = Object.hasOwn(own, name)
      ? own[name]
      : Object.hasOwn(attach, name)
        ? attach[name]
        : undefined;
    if (!handler) throw badRequest(`There is no such action: ${name}`);
    await handler(req, res, param(req, 'volumeId'), args);
  });
  return router;
}
