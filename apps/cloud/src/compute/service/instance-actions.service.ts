import type { ComputeDeps } from '../deps.js';
import type { AuthContext } from '../../platform/http/context.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import type { Microversion } from '../../platform/http/microversion.js';
import {
  MAX_LIMIT,
  nonNegativeIntParam,
  type Query,
  rejectUnknownParams,
  singleValueParam,
} from '../schemas/validation.js';
import {
  type InstanceActionEventRow,
  type InstanceActionRow,
  instanceActionsStore,
} from '../store/instance-actions.store.js';
import { type ServerRow, serversStore } from '../store/servers.store.js';
import { getServer, instanceNotFound } from './servers.service.js';

/**
 * os-instance-actions (`instance_actions.py`): list and show for any role on the project (and
 * from 2.21 for a deleted server too); the events of an action for admins, and from 2.51 for the
 * project without tracebacks; 2.58 pages (limit, marker, changes-since), 2.66 changes-before.
 */

/** `_get_instance`: from 2.21 a deleted server's actions are still there. */
async function instanceFor(
  deps: ComputeDeps,
  auth: AuthContext,
  v: Microversion,
  id: string,
): Promise<ServerRow> {
  if (v.below('2.21')) return getServer(deps, auth, id);
  const s = await serversStore.byIdIncludingDeleted(deps.store.db, id);
  if (!s || !(auth.isAdmin || s.project_id === auth.projectId)) throw instanceNotFound(id);
  return s;
}

const dateTime = (name: string, value: string): string => {
  const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(ms)) {
    throw badRequest(
      `Invalid input for query parameters ${name}. Value: ${value}. '${value}' is not a 'date-time'`,
    );
  }
  return new Date(ms).toISOString();
};

export interface ActionPage {
  server: ServerRow;
  actions: InstanceActionRow[];
  /** The effective limit (2.58+), for the next link. */
  limit: number | null;
}

export async function listInstanceActions(
  deps: ComputeDeps,
  auth: AuthContext,
  v: Microversion,
  id: string,
  query: Query,
): Promise<ActionPage> {
  let limit: number | null = null;
  let marker: string | undefined;
  let since: string | undefined;
  let before: string | undefined;
  if (v.atLeast('2.58')) {
    const allowed = ['limit', 'marker', 'changes-since', ...(v.atLeast('2.66') ? ['changes-before'] : [])];
    rejectUnknownParams(query, allowed);
    const given = nonNegativeIntParam(query, 'limit', true);
    limit = Math.min(given ?? MAX_LIMIT, MAX_LIMIT);
    marker = singleValueParam(query, 'marker');
    const s = singleValueParam(query, 'changes-since');
    const b = v.atLeast('2.66') ? singleValueParam(query, 'changes-before') : undefined;
    if (s !== undefined) since = dateTime('changes-since', s);
    if (b !== undefined) before = dateTime('changes-before', b);
    if (since !== undefined && before !== undefined && before < since) {
      throw badRequest('The value of changes-since must be less than or equal to changes-before.');
    }
  }
  const server = await instanceFor(deps, auth, v, id);
  let actions = await instanceActionsStore.forServer(deps.store.db, server.id);
  if (since !== undefined) actions = actions.filter((a) => a.updated_at >= (since as string));
  if (before !== undefined) actions = actions.filter((a) => a.updated_at <= (before as string));
  if (limit === 0) return { server, actions: [], limit };
  if (marker !== undefined) {
    const at = actions.findIndex((a) => a.request_id === marker);
    // Nova's db api overwrites the marker with the failed lookup before it reports it.
    if (at < 0) throw badRequest('Marker None could not be found.');
    actions = actions.slice(at + 1);
  }
  if (limit !== null) actions = actions.slice(0, limit);
  return { server, actions, limit };
}

export interface ActionDetail {
  server: ServerRow;
  action: InstanceActionRow;
  /** Undefined when the caller may not see events at this microversion. */
  events?: InstanceActionEventRow[];
  showTraceback: boolean;
  showHost: boolean;
  showHostId: boolean;
  showDetails: boolean;
}

export async function showInstanceAction(
  deps: ComputeDeps,
  auth: AuthContext,
  v: Microversion,
  id: string,
  requestId: string,
): Promise<ActionDetail> {
  const server = await instanceFor(deps, auth, v, id);
  const action = await instanceActionsStore.byRequestId(deps.store.db, server.id, requestId);
  if (!action) throw notFound(`Action ${requestId} not found`);
  // `os-instance-actions:events` (and `events:details`) are admin rules.
  const showEvents = auth.isAdmin || v.atLeast('2.51');
  return {
    server,
    action,
    ...(showEvents ? { events: await instanceActionsStore.events(deps.store.db, action.id) } : {}),
    showTraceback: auth.isAdmin,
    showHost: auth.isAdmin && v.atLeast('2.62'),
    showHostId: v.atLeast('2.62'),
    showDetails: auth.isAdmin && v.atLeast('2.84'),
  };
}
