import { recordAction } from './instance-actions-recorder.js';
import { checkUpsizeQuota } from './quotas.service.js';
import type { ComputeDeps } from '../deps.js';
import type { Tx } from '../../platform/db/store.js';
import type { AuthContext } from '../../platform/http/context.js';
import { badRequest, conflict, policyForbidden } from '../../platform/http/errors.js';
import type { Microversion } from '../../platform/http/microversion.js';
import { nowIso } from '../../platform/time.js';
import { assertProjectWriter, SERVER_ACTION_RULES, UNLOCK_OVERRIDE_RULE } from '../policy.js';
import { flavorsStore } from '../store/flavors.store.js';
import {
  type FlavorSnapshot,
  type ResizeSource,
  type ServerRow,
  serversStore,
} from '../store/servers.store.js';
import { parseJsonColumn } from '../../platform/db/json-column.js';
import type { ServerAction } from '../schemas/server-actions.schemas.js';
import { availableZones } from '../host/scheduler.js';
import { flavorSnapshot } from './server-create.service.js';
import { resizeOf, type StepContext, scheduleAdvance } from '../host/server-lifecycle.js';
import { VM } from '../server-states.js';
import { instanceNotFound } from './servers.service.js';

/**
 * POST /servers/{id}/action for the lifecycle actions (`servers.py`, `shelve.py`,
 * `compute/api.py`), once the body is parsed (`schemas/server-actions.schemas.ts`): the instance
 * lookup (404), policy, lock, the `check_instance_state` rules, and the task state the host picks up.
 */

export const SHELVE_OFFLOAD_RULE = 'os_compute_api:os-shelve:shelve_offload';
const UNSHELVE_TO_HOST_RULE = 'os_compute_api:os-shelve:unshelve_to_host';

/** `common.raise_http_conflict_for_instance_invalid_state`. */
const invalidState = (action: string, id: string, attr: string, state: string | null) =>
  conflict(`Cannot '${action}' instance ${id} while it is in ${attr} ${state ?? 'None'}`);

export interface StateRule {
  vmStates: readonly string[];
  /** Allowed task states; `[null]` is Nova's default (no task in progress). */
  taskStates?: readonly (string | null)[];
  mustHaveLaunched?: boolean;
  /** `check_instance_host`: the action needs the server on a host. */
  needsHost?: boolean;
}

/** `check_instance_lock`, `check_instance_host`, `check_instance_state`, in decorator order. */
export function checkState(s: ServerRow, auth: AuthContext, action: string, rule: StateRule): void {
  if (s.locked === 1 && !auth.isAdmin) throw conflict(`Instance ${s.id} is locked`);
  if (rule.needsHost && !s.host) throw conflict(`Instance ${s.id} is not ready`);
  if (!rule.vmStates.includes(s.vm_state)) throw invalidState(action, s.id, 'vm_state', s.vm_state);
  const tasks = rule.taskStates ?? [null];
  if (!tasks.includes(s.task_state)) throw invalidState(action, s.id, 'task_state', s.task_state);
  if ((rule.mustHaveLaunched ?? true) && !s.launched_at) {
    throw conflict(`Instance ${s.id} is in an invalid state for '${action}'`);
  }
}

const REBOOT_TASKS = [
  null,
  'rebooting',
  'reboot_pending',
  'reboot_started',
  'rebooting_hard',
  'resuming',
  'unpausing',
  'pausing',
  'suspending',
];
const HARD_REBOOT_VM = ['active', 'stopped', 'paused', 'suspended', 'error'];

/** Runs one action; returns the HTTP status (202, or 204 for confirmResize). */
export async function serverAction(
  deps: ComputeDeps,
  auth: AuthContext,
  version: Microversion,
  id: string,
  action: ServerAction,
): Promise<202 | 204> {
  const ctx: StepContext = {};
  let skipRecord = false;
  await deps.store.transaction(async (tx) => {
    const s = await serversStore.lockById(deps.store, tx, id);
    if (!s || !(auth.isAdmin || s.project_id === auth.projectId)) throw instanceNotFound(id);
    assertProjectWriter(auth, SERVER_ACTION_RULES[action.name]);
    const set = (changes: Partial<ServerRow>) =>
      serversStore.update(tx, id, { ...changes, updated_at: nowIso() });
    await applyAction(tx, s, set);
    if (skipRecord) return;
    const recorded = ACTION_RECORDS[action.name];
    await recordAction(tx, {
      serverId: id,
      action: recorded.action,
      auth,
      event: recorded.event,
      ...(recorded.apiOnly ? { finished: { result: 'Success' as const, host: s.host } } : {}),
    });
  });
  scheduleAdvance(deps, id, ctx);
  return action.name === 'confirmResize' ? 204 : 202;

  async function applyAction(
    tx: Tx,
    s: ServerRow,
    set: (changes: Partial<ServerRow>) => Promise<unknown>,
  ): Promise<unknown> {
    switch (action.name) {
      case 'os-stop':
        checkState(s, auth, 'stop', { vmStates: ['active', 'error'], needsHost: true });
        return set({ task_state: 'powering-off' });
      case 'os-start':
        checkState(s, auth, 'start', { vmStates: ['stopped'], needsHost: true });
        return set({ task_state: 'powering-on' });
      case 'reboot': {
        const hard = action.hard;
        // reboot's own check, then _soft_reboot's (active, no task) or _hard_reboot's.
        checkState(s, auth, 'reboot', { vmStates: HARD_REBOOT_VM, taskStates: REBOOT_TASKS });
        if (!hard) checkState(s, auth, 'reboot', { vmStates: ['active'] });
        return set({ task_state: hard ? 'rebooting_hard' : 'rebooting' });
      }
      case 'shelve':
        checkState(s, auth, 'shelve', { vmStates: ['active', 'stopped', 'paused', 'suspended'] });
        return set({ task_state: 'shelving' });
      case 'shelveOffload':
        // Admin-only in the recorded cloud (capture 166); the lookup's 404 comes first.
        if (!auth.isAdmin) throw policyForbidden(SHELVE_OFFLOAD_RULE);
        checkState(s, auth, 'shelveOffload', { vmStates: [VM.shelved] });
        return set({ task_state: 'shelving_offloading' });
      case 'unshelve':
        return unshelve(tx, auth, version, s, action, ctx, set);
      case 'resize':
        return resize(tx, auth, s, action.flavorRef, set);
      case 'confirmResize': {
        checkState(s, auth, 'confirmResize', { vmStates: [VM.resized] });
        const rs = resizeOf(s);
        if (!rs || rs.confirming) throw badRequest('Instance has not been resized.');
        return set({ old_flavor: JSON.stringify({ ...rs, confirming: true }) });
      }
      case 'revertResize': {
        checkState(s, auth, 'revertResize', { vmStates: [VM.resized] });
        const rs = resizeOf(s);
        if (!rs || rs.confirming) throw badRequest('Instance has not been resized.');
        return set({ task_state: 'resize_reverting' });
      }
      // --- C1: lock, pause, suspend ---
      case 'lock':
        return lock(s, set);
      case 'unlock':
        if (!isExpectedLockedBy(s, auth) && !auth.isAdmin) throw policyForbidden(UNLOCK_OVERRIDE_RULE);
        return set({ locked: 0, locked_by: null, locked_reason: null });
      case 'pause':
        checkState(s, auth, 'pause', { vmStates: [VM.active] });
        return set({ task_state: 'pausing' });
      case 'unpause':
        checkState(s, auth, 'unpause', { vmStates: [VM.paused] });
        return set({ task_state: 'unpausing' });
      case 'suspend':
        checkState(s, auth, 'suspend', { vmStates: [VM.active] });
        return set({ task_state: 'suspending' });
      case 'resume':
        checkState(s, auth, 'resume', { vmStates: [VM.suspended] });
        return set({ task_state: 'resuming' });
      // --- end C1 ---
      // --- cloudc2 ---
      case 'os-resetState':
        // Admin only, and no lock or state check: it is how an admin gets a stuck server back.
        if (!auth.isAdmin) throw policyForbidden(SERVER_ACTION_RULES['os-resetState']);
        return set({ vm_state: action.state, task_state: null });
      case 'forceDelete':
        throw new Error('forceDelete is a delete: the route hands it to deleteServer');
      case 'restore':
        // Nova's restore turns InstanceIsLocked into its generic invalid-state conflict (capture 716).
        if (s.locked === 1 && !auth.isAdmin) {
          throw conflict(`Instance ${s.id} is in an invalid state for 'restore'`);
        }
        // Deletes are immediate here (reclaim_instance_interval 0, as on the reference cloud), so
        // no server is ever SOFT_DELETED and restore always refuses with the server's vm_state.
        checkState(s, auth, 'restore', { vmStates: [] });
        return;
      case 'changePassword':
        // The guest has no password to change (the reference's FakeDriver accepts and does
        // nothing), so the server never shows PASSWORD; the action is recorded as done.
        checkState(s, auth, 'changePassword', { vmStates: [VM.active] });
        return;
      // --- end cloudc2 ---
    }
  }

  /** `API.lock`: the owner locking an already locked server changes nothing and records nothing. */
  async function lock(
    s: ServerRow,
    set: (changes: Partial<ServerRow>) => Promise<unknown>,
  ): Promise<unknown> {
    const isOwner = s.project_id === auth.projectId;
    if (s.locked === 1 && isOwner) {
      skipRecord = true;
      return;
    }
    const reason = action.name === 'lock' ? action.reason : null;
    return set({
      locked: 1,
      locked_by: isOwner ? 'owner' : 'admin',
      ...(reason ? { locked_reason: reason } : {}),
    });
  }
}

/** `is_expected_locked_by`: an owner may undo its own lock, an admin its own. */
function isExpectedLockedBy(s: ServerRow, auth: AuthContext): boolean {
  const expected = s.project_id === auth.projectId ? 'owner' : 'admin';
  return !s.locked_by || s.locked_by === expected;
}

/** The instance action (`compute/instance_actions.py`) and host event each action records. */
const ACTION_RECORDS: Record<ServerAction['name'], { action: string; event?: string; apiOnly?: boolean }> = {
  // --- C1 ---
  lock: { action: 'lock', event: 'api_lock', apiOnly: true },
  unlock: { action: 'unlock', event: 'api_unlock', apiOnly: true },
  pause: { action: 'pause', event: 'compute_pause_instance' },
  unpause: { action: 'unpause', event: 'compute_unpause_instance' },
  suspend: { action: 'suspend', event: 'compute_suspend_instance' },
  resume: { action: 'resume', event: 'compute_resume_instance' },
  // --- end C1 ---
  // --- cloudc2: the API finishes resetState itself, with no event (capture 710) ---
  'os-resetState': { action: 'resetState', apiOnly: true },
  forceDelete: { action: 'delete', event: 'compute_terminate_instance' },
  restore: { action: 'restore', event: 'compute_restore_instance' },
  changePassword: { action: 'changePassword', event: 'compute_set_admin_password', apiOnly: true },
  // --- end cloudc2 ---
  'os-stop': { action: 'stop', event: 'compute_stop_instance' },
  'os-start': { action: 'start', event: 'compute_start_instance' },
  reboot: { action: 'reboot', event: 'compute_reboot_instance' },
  shelve: { action: 'shelve', event: 'compute_shelve_instance' },
  shelveOffload: { action: 'shelveOffload', event: 'compute_shelve_offload_instance' },
  unshelve: { action: 'unshelve', event: 'compute_unshelve_instance' },
  resize: { action: 'resize', event: 'compute_prep_resize' },
  confirmResize: { action: 'confirmResize', event: 'compute_confirm_resize' },
  revertResize: { action: 'revertResize', event: 'compute_revert_resize' },
};

async function unshelve(
  tx: Tx,
  auth: AuthContext,
  version: Microversion,
  s: ServerRow,
  action: Extract<ServerAction, { name: 'unshelve' }>,
  ctx: StepContext,
  set: (c: Partial<ServerRow>) => Promise<unknown>,
): Promise<unknown> {
  checkState(s, auth, 'unshelve', { vmStates: [VM.shelved, VM.shelvedOffloaded] });
  const changes: Partial<ServerRow> = { task_state: 'unshelving' };
  if (action.targeted) {
    if (s.vm_state !== VM.shelvedOffloaded) {
      throw conflict(
        `The availability_zone or host parameter cannot be specified when unshelving server ${s.id} with status SHELVED. The server status must be SHELVED_OFFLOADED.`,
      );
    }
    const az = action.availabilityZone;
    if (typeof az === 'string') {
      if (!(await availableZones(tx)).has(az)) {
        throw badRequest('The requested availability zone is not available');
      }
      changes.requested_availability_zone = az;
    } else if (az === null && version.atLeast('2.91')) {
      changes.requested_availability_zone = null;
    }
    if (action.host !== undefined) {
      if (!auth.isAdmin) throw policyForbidden(UNSHELVE_TO_HOST_RULE);
      ctx.placement = { forcedHost: null, forcedNode: null, requestedHost: action.host, requestedNode: null };
    }
  }
  return set(changes);
}

async function resize(
  tx: Tx,
  auth: AuthContext,
  s: ServerRow,
  flavorId: string,
  set: (c: Partial<ServerRow>) => Promise<unknown>,
): Promise<unknown> {
  checkState(s, auth, 'resize', { vmStates: [VM.active, VM.stopped] });
  const row = await flavorsStore.byId(tx, flavorId);
  if (!row || row.disabled === 1) throw badRequest(`Flavor ${flavorId} could not be found.`);
  const current = parseJsonColumn<FlavorSnapshot>(s.flavor, {} as FlavorSnapshot);
  if (current.id === row.id) throw badRequest('When resizing, instances must change flavor!');
  if (row.disk === 0 && s.image_id !== null) {
    throw badRequest(
      'Server disk was unable to be resized because: Resize to zero disk flavor is not allowed.',
    );
  }
  // `_check_quota_for_upsize` (C2): the growth in cores and RAM must fit the quota.
  await checkUpsizeQuota(tx, s, current, row);
  const source: ResizeSource = {
    flavor: current,
    newFlavor: flavorSnapshot(row),
    host: s.host,
    node: s.node,
    availabilityZone: s.availability_zone,
    vmState: s.vm_state,
    dest: null,
  };
  return set({ task_state: 'resize_prep', old_flavor: JSON.stringify(source) });
}
