import type { Tx } from '../../platform/db/store.js';
import type { AuthContext } from '../../platform/http/context.js';
import { newRequestId, newUuid } from '../../platform/ids.js';
import { nowIso } from '../../platform/time.js';
import { currentRequestId } from '../request-scope.js';
import { instanceActionsStore } from '../store/instance-actions.store.js';

/**
 * Records instance actions as Nova's API does (`_record_action_start`) and their events as the
 * conductor and compute manager do (`wrap_instance_event`): an action per accepted request, in
 * the request's transaction, with the event the host will run left open; the host's step that
 * ends the task closes every open event of the server (`finishOpenEvents`).
 */

export interface ActionStart {
  serverId: string;
  action: string;
  auth: Pick<AuthContext, 'userId' | 'projectId'>;
  /** The host-side event the action starts (none for lock, unlock and other API-only actions). */
  event?: string;
  /** The event is over already (an action the API finishes itself). */
  finished?: { result: 'Success' | 'Error'; host: string | null };
  /** The server was created in this transaction: this is its first action. */
  fresh?: boolean;
  /** cloud-rebuild: events opened beside `event` (the conductor's, as rebuild's `rebuild_server`). */
  moreEvents?: readonly string[];
}

export async function recordAction(tx: Tx, a: ActionStart): Promise<void> {
  const now = nowIso();
  const actionId = newUuid();
  await instanceActionsStore.insert(tx, {
    id: actionId,
    server_id: a.serverId,
    seq: a.fresh ? 1 : await instanceActionsStore.nextSeq(tx, a.serverId),
    action: a.action,
    request_id: currentRequestId() ?? newRequestId(),
    user_id: a.auth.userId,
    project_id: a.auth.projectId,
    start_time: now,
    finish_time: null,
    message: a.finished?.result === 'Error' ? 'Error' : null,
    created_at: now,
    updated_at: now,
  });
  for (const event of [...(a.event ? [a.event] : []), ...(a.moreEvents ?? [])]) {
    await insertEvent(tx, actionId, a, event, now);
  }
}

async function insertEvent(tx: Tx, actionId: string, a: ActionStart, event: string, now: string) {
  await instanceActionsStore.insertEvent(tx, {
    id: newUuid(),
    action_id: actionId,
    server_id: a.serverId,
    event,
    start_time: now,
    finish_time: a.finished ? now : null,
    result: a.finished?.result ?? null,
    traceback: null,
    host: a.finished?.host ?? null,
    details: null,
  });
}

/**
 * The host finished the servers' tasks: their open events end, `Error` (with the fault's
 * traceback, and the action's message) when the server went to ERROR, else `Success`.
 */
export async function finishOpenEvents(
  tx: Tx,
  servers: readonly { id: string; host: string | null; vm_state: string; fault?: string | null }[],
): Promise<void> {
  if (servers.length === 0) return;
  const open = await instanceActionsStore.openEvents(
    tx,
    servers.map((s) => s.id),
  );
  if (open.length === 0) return;
  const byId = new Map(servers.map((s) => [s.id, s]));
  const now = nowIso();
  for (const e of open) {
    const s = byId.get(e.server_id);
    if (!s) continue;
    const failed = s.vm_state === 'error';
    let traceback: string | null = null;
    if (failed && s.fault) {
      try {
        traceback = (JSON.parse(s.fault) as { details?: string }).details ?? null;
      } catch {
        traceback = null;
      }
    }
    await instanceActionsStore.finishEvent(tx, e.id, {
      finish_time: now,
      result: failed ? 'Error' : 'Success',
      traceback,
      host: s.host,
    });
    await instanceActionsStore.touchAction(tx, e.action_id, {
      updated_at: now,
      ...(failed ? { message: 'Error' } : {}),
    });
  }
}
