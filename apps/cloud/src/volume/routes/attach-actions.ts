import type { Request, Response } from 'express';
import type { CloudDeps } from '../../platform/deps.js';
import type { Tx } from '../../platform/db/store.js';
import { authOf } from '../../platform/http/context.js';
import {
  type AttachmentHooks,
  type AttachMode,
  ATTACHMENT_RULES,
  assertDeletionAllowed,
  attachmentToDetach,
  attachVolume,
  beginDetaching,
  detachVolume,
  initializeConnection,
  novaAttachmentProbe,
  reserveVolume,
  rollDetaching,
  terminateConnection,
  unreserveVolume,
  visibleVolume,
} from '../service/attachments.service.js';
import { callerOf as volumeCallerOf } from '../service/caller.js';
import { volumesStore } from '../store/volumes.store.js';
import type { ActionHandler } from './action-types.js';
import { cinderSchema, parseBody, type Schema } from './json-schema.js';

/**
 * The legacy attach actions of `POST /volumes/{id}/action` (Cinder's `contrib/volume_actions.py`)
 * that clients older than the attachments API still use. All answer 202 with an empty body,
 * except os-initialize_connection (200 with the connection info).
 */
type Deps = Pick<CloudDeps, 'store'> & AttachmentHooks;

// The ActionHandler contract carries no deps, so the shared handlers find their cloud from the
// request: by its Express app once `attachmentsRoutes` has seen a request of that app, else among
// the clouds no app has claimed yet (one per process outside tests), by which one has the volume.
const depsByApp = new WeakMap<object, Deps>();
const boundByApp = new WeakMap<object, Record<string, ActionHandler>>();
const unclaimed = new Set<WeakRef<Deps>>();

/** Called by `attachmentsRoutes(deps)` when it is built: a cloud whose app is not known yet. */
export function registerAttachActionDeps(deps: Deps): void {
  unclaimed.add(new WeakRef(deps));
}

/** Records which cloud serves this app; `attachmentsRoutes` calls it on each request it sees. */
export function rememberAttachActionDeps(app: object, deps: Deps): void {
  if (depsByApp.get(app) === deps) return;
  depsByApp.set(app, deps);
  boundByApp.delete(app);
  for (const ref of unclaimed) {
    const d = ref.deref();
    if (d === deps || d === undefined) unclaimed.delete(ref);
  }
}

async function depsFor(app: object, volumeId: string): Promise<Deps> {
  const known = depsByApp.get(app);
  if (known) return known;
  const candidates = [...unclaimed].map((r) => r.deref()).filter((d): d is Deps => d !== undefined);
  if (candidates.length === 1) {
    const only = candidates[0] as Deps;
    rememberAttachActionDeps(app, only);
    return only;
  }
  for (const candidate of candidates) {
    // A closed cloud's store throws: it is not the one serving this request.
    const found = await volumesStore.byId(candidate.store.db, volumeId).catch(() => undefined);
    if (found) {
      rememberAttachActionDeps(app, candidate);
      return candidate;
    }
  }
  // No cloud has the volume: any of them answers the same 404, so claim none.
  const first = candidates[0];
  if (!first) throw new Error('attach actions: attachmentsRoutes(deps) was never built');
  return first;
}

function boundHandler(name: string): ActionHandler {
  return async (req, res, volumeId, args) => {
    let bound = boundByApp.get(req.app);
    if (!bound) {
      const deps = await depsFor(req.app, volumeId);
      bound = createAttachActionHandlers(deps);
      if (depsByApp.get(req.app) === deps) boundByApp.set(req.app, bound);
    }
    const handler = bound[name];
    if (!handler) throw new Error(`attach actions: no handler ${name}`);
    await handler(req, res, volumeId, args);
  };
}

/**
 * The legacy attach actions for the volumes `/action` dispatcher. A dispatcher that has the deps
 * at hand should prefer `createAttachActionHandlers(deps)`, which needs no lookup.
 */
export const attachActionHandlers: Record<string, ActionHandler> = Object.fromEntries(
  [
    'os-reserve',
    'os-unreserve',
    'os-begin_detaching',
    'os-roll_detaching',
    'os-attach',
    'os-detach',
    'os-initialize_connection',
    'os-terminate_connection',
  ].map((name) => [name, boundHandler(name)]),
);

const callerOf = (req: Request) => volumeCallerOf(authOf(req.ctx));

/** The handlers bound to one cloud's store. */
export function createAttachActionHandlers(deps: Deps): Record<string, ActionHandler> {
  const { store } = deps;
  const inTx = (fn: (tx: Tx) => Promise<unknown>) =>
    store.transaction(async (tx) => {
      await fn(tx);
    });
  const accepted = (res: Response) => res.status(202).type('application/json').end();

  return {
    'os-reserve': async (req, res, volumeId) => {
      await inTx((tx) => reserveVolume(store, tx, callerOf(req), volumeId));
      accepted(res);
    },

    'os-unreserve': async (req, res, volumeId) => {
      await inTx((tx) => unreserveVolume(store, tx, callerOf(req), volumeId));
      accepted(res);
    },

    'os-begin_detaching': async (req, res, volumeId) => {
      await inTx((tx) => beginDetaching(store, tx, callerOf(req), volumeId));
      accepted(res);
    },

    'os-roll_detaching': async (req, res, volumeId) => {
      await inTx((tx) => rollDetaching(store, tx, callerOf(req), volumeId));
      accepted(res);
    },

    'os-attach': async (req, res, volumeId, args) => {
      const { 'os-attach': body } = parseBody(attachBody, { 'os-attach': args });
      await inTx((tx) =>
        attachVolume(store, tx, callerOf(req), {
          volumeId,
          instanceUuid: body.instance_uuid ?? null,
          hostName: body.host_name ?? null,
          mountpoint: body.mountpoint,
          mode: body.mode ?? 'rw',
        }),
      );
      accepted(res);
    },

    'os-detach': async (req, res, volumeId, args) => {
      const { 'os-detach': body } = parseBody(detachBody, { 'os-detach': args });
      const attachmentId = body?.attachment_id ?? null;
      const caller = callerOf(req);
      // OSSA-2023-003: a user may not detach what Nova still uses (capture 58). Asked before the
      // transaction, as Cinder asks Nova over HTTP first.
      const volume = await visibleVolume(store.db, caller, volumeId, ATTACHMENT_RULES.detach);
      const target = await attachmentToDetach(store.db, volume, attachmentId);
      if (target) await assertDeletionAllowed(caller, target, novaAttachmentProbe(deps));
      await inTx((tx) => detachVolume(store, tx, caller, volumeId, attachmentId));
      accepted(res);
    },

    'os-initialize_connection': async (req, res, volumeId, args) => {
      parseBody(initializeBody, { 'os-initialize_connection': args });
      const info = await initializeConnection(store.db, callerOf(req), volumeId);
      res.status(200).json({ connection_info: info });
    },

    'os-terminate_connection': async (req, res, volumeId, args) => {
      parseBody(terminateBody, { 'os-terminate_connection': args });
      await inTx((tx) => terminateConnection(store, tx, callerOf(req), volumeId));
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
