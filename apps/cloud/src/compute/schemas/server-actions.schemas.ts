import { badRequest } from '../../platform/http/errors.js';
import type { Microversion } from '../../platform/http/microversion.js';
import {
  isJsonObject,
  type JsonSchema,
  type RequestSchema,
  requestSchema,
  validateBody,
} from './validation.js';

/**
 * POST /servers/{id}/action for the lifecycle actions we serve: the body's one key names the
 * action (wsgi `action_peek`), and reboot, resize and (2.77+) unshelve have schemas of their own
 * (`schemas/servers.py`, `schemas/shelve.py`). Parsed into the action the service runs.
 */

export const SERVER_ACTIONS = [
  'os-stop',
  'os-start',
  'reboot',
  'shelve',
  'shelveOffload',
  'unshelve',
  'resize',
  'confirmResize',
  'revertResize',
  // --- C1 ---
  'lock',
  'unlock',
  'pause',
  'unpause',
  'suspend',
  'resume',
  // --- end C1 ---
  // --- cloudc2: admin actions ---
  'os-resetState',
  'forceDelete',
  'restore',
  'changePassword',
  // --- end cloudc2 ---
] as const;
export type ServerActionName = (typeof SERVER_ACTIONS)[number];

export type ServerAction =
  | { name: Exclude<ServerActionName, 'reboot' | 'resize' | 'unshelve' | 'lock' | 'os-resetState'> }
  | { name: 'os-resetState'; state: 'active' | 'error' }
  | { name: 'lock'; reason: string | null }
  | { name: 'reboot'; hard: boolean }
  | { name: 'resize'; flavorRef: string }
  | {
      name: 'unshelve';
      /** 2.77+: the body named a zone or a host (else the server unshelves where it may). */
      targeted: boolean;
      /** Given: a zone; null (2.91+) unpins the server. */
      availabilityZone?: string | null;
      host?: string;
    };

const fqdn: JsonSchema = { type: 'string', minLength: 1, maxLength: 255, pattern: '^[a-zA-Z0-9-._]*$' };

const rebootSchema = requestSchema<{ reboot: { type: string } }>({
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
});

const resizeSchema = requestSchema<{ resize: { flavorRef: string | number } }>({
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
});

interface UnshelveBody {
  unshelve: { availability_zone?: string | null; host?: string } | null;
}

/** 2.77 unshelve with an availability zone, 2.91 also a host (or null to unpin). */
function unshelveSchema(v: Microversion): RequestSchema<UnshelveBody> {
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
  return requestSchema({
    type: 'object',
    properties: { unshelve: body },
    required: ['unshelve'],
    additionalProperties: false,
  });
}

/** 2.73: `{"lock": null}` or `{"lock": {"locked_reason": ...}}` (`schemas/lock_server.py`). */
const lockSchema = requestSchema<{ lock: { locked_reason?: string } | null }>({
  type: 'object',
  properties: {
    lock: {
      type: ['object', 'null'],
      properties: { locked_reason: { type: 'string', minLength: 1, maxLength: 255 } },
      additionalProperties: false,
    },
  },
  required: ['lock'],
  additionalProperties: false,
});

/** `schemas/reset_server_state.py`: only the two states an admin may force (captures 703-706). */
const resetStateSchema = requestSchema<{ 'os-resetState': { state: 'active' | 'error' } }>({
  type: 'object',
  properties: {
    'os-resetState': {
      type: 'object',
      properties: { state: { type: 'string', enum: ['active', 'error'] } },
      required: ['state'],
      additionalProperties: false,
    },
  },
  required: ['os-resetState'],
  additionalProperties: false,
});

/** `schemas/admin_password.py` (capture 742); any string, even empty (capture 743). */
const changePasswordSchema = requestSchema<{ changePassword: { adminPass: string } }>({
  type: 'object',
  properties: {
    changePassword: {
      type: 'object',
      properties: { adminPass: { type: 'string' } },
      required: ['adminPass'],
      additionalProperties: false,
    },
  },
  required: ['changePassword'],
  additionalProperties: false,
});

/** wsgi `action_peek`: exactly one key, which must be an action the controller knows. */
function actionName(body: unknown): ServerActionName {
  if (!isJsonObject(body) || Object.keys(body).length !== 1) throw badRequest('Malformed request body');
  const name = Object.keys(body)[0] as string;
  const known = SERVER_ACTIONS.find((a) => a === name);
  if (!known) throw badRequest(`There is no such action: ${name}`);
  return known;
}

export function parseServerAction(body: unknown, v: Microversion): ServerAction {
  const name = actionName(body);
  switch (name) {
    case 'reboot': {
      const { reboot } = validateBody(rebootSchema, body);
      return { name, hard: reboot.type.toUpperCase() === 'HARD' };
    }
    case 'resize': {
      const { resize } = validateBody(resizeSchema, body);
      return { name, flavorRef: String(resize.flavorRef) };
    }
    case 'unshelve': {
      if (v.below('2.77')) return { name, targeted: false };
      const args = validateBody(unshelveSchema(v), body).unshelve ?? {};
      const targeted = 'availability_zone' in args || 'host' in args;
      return {
        name,
        targeted,
        ...(args.availability_zone !== undefined ? { availabilityZone: args.availability_zone } : {}),
        ...(args.host !== undefined ? { host: args.host } : {}),
      };
    }
    case 'lock': {
      if (v.below('2.73')) return { name, reason: null };
      const { lock } = validateBody(lockSchema, body);
      return { name, reason: lock?.locked_reason ?? null };
    }
    // --- cloudc2 ---
    case 'os-resetState':
      return { name, state: validateBody(resetStateSchema, body)['os-resetState'].state };
    case 'changePassword':
      validateBody(changePasswordSchema, body);
      return { name };
    // --- end cloudc2 ---
    default:
      return { name };
  }
}
