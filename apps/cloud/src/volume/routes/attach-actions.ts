import type { Request, Response } from 'express';
import { authOf } from '../../platform/http/context.js';
import type { AttachMode, AttachmentsService } from '../service/attachments.service.js';
import { callerOf as volumeCallerOf } from '../service/caller.js';
import type { ActionHandler } from './action-types.js';
import { cinderSchema, parseBody, type Schema } from './json-schema.js';

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

// --- Cinder's request schemas (`api/schemas/volume_actions.py`) ----------------------------------

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

const attachBody = cinderSchema<{
  'os-attach': { instance_uuid?: string; mountpoint: string; host_name?: string; mode?: AttachMode };
}>(ATTACH_SCHEMA);
const detachBody = cinderSchema<{ 'os-detach': { attachment_id?: string | null } | null }>(DETACH_SCHEMA);
const initializeBody = cinderSchema<unknown>(INITIALIZE_SCHEMA);
const terminateBody = cinderSchema<unknown>(TERMINATE_SCHEMA);
