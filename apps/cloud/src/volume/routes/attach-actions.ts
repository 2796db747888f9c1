import type { Request, Response } from 'express';
import { authOf } from '../../platform/http/context.js';
import type { AttachmentsService } from '../service/attachments.service.js';
import { callerOf as volumeCallerOf } from '../service/caller.js';
import type { ActionHandler } from './action-types.js';
import { parseBody } from '../schemas/validation.js';
import { attachBody, detachBody, initializeBody, terminateBody } from '../schemas/volume-actions.schemas.js';

/**
 * The legacy attach actions of `POST /volumes/{id}/action` (Cinder's `contrib/volume_actions.py`)
 * that clients older than the attachments API still use. All answer 202 with an empty body,
 * except os-initialize_connection (200 with the connection info).
 */

const callerOf = (req: Request) => volumeCallerOf(authOf(req.ctx));
const accepted = (res: Response) => res.status(202).type('application/json').end();

export function attachActionHandlers(attachments: AttachmentsService): Record<string, ActionHandler> {
  return {
    'os-reserve': async (req, res, volumeId) => {
      await attachments.reserveVolume(callerOf(req), volumeId);
      accepted(res);
    },

    'os-unreserve': async (req, res, volumeId) => {
      await attachments.unreserveVolume(callerOf(req), volumeId);
      accepted(res);
    },

    'os-begin_detaching': async (req, res, volumeId) => {
      await attachments.beginDetaching(callerOf(req), volumeId);
      accepted(res);
    },

    'os-roll_detaching': async (req, res, volumeId) => {
      await attachments.rollDetaching(callerOf(req), volumeId);
      accepted(res);
    },

    'os-attach': async (req, res, volumeId, args) => {
      const { 'os-attach': body } = parseBody(attachBody, { 'os-attach': args });
      await attachments.attachVolume(callerOf(req), {
        volumeId,
        instanceUuid: body.instance_uuid ?? null,
        hostName: body.host_name ?? null,
        mountpoint: body.mountpoint,
        mode: body.mode ?? 'rw',
      });
      accepted(res);
    },

    'os-detach': async (req, res, volumeId, args) => {
      const { 'os-detach': body } = parseBody(detachBody, { 'os-detach': args });
      await attachments.detachVolume(callerOf(req), volumeId, body?.attachment_id ?? null);
      accepted(res);
    },

    'os-initialize_connection': async (req, res, volumeId, args) => {
      parseBody(initializeBody, { 'os-initialize_connection': args });
      const info = await attachments.initializeConnection(callerOf(req), volumeId);
      res.status(200).json({ connection_info: info });
    },

    'os-terminate_connection': async (req, res, volumeId, args) => {
      parseBody(terminateBody, { 'os-terminate_connection': args });
      await attachments.terminateConnection(callerOf(req), volumeId);
      accepted(res);
    },
  };
}
