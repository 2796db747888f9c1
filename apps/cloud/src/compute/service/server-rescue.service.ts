import { recordAction } from './instance-actions-recorder.js';
import { checkState } from './server-actions.service.js';
import { generatePassword } from './server-create.service.js';
import { instanceNotFound } from './servers.service.js';
import type { ComputeDeps } from '../deps.js';
import type { AuthContext } from '../../platform/http/context.js';
import { badRequest, policyForbidden } from '../../platform/http/errors.js';
import { nowIso } from '../../platform/time.js';
import { assertProjectWriter } from '../policy.js';
import {
  type FlavorSnapshot,
  type ResizeSource,
  type ServerRow,
  serversStore,
} from '../store/servers.store.js';
import { parseJsonColumn } from '../../platform/db/json-column.js';
import type { Tx } from '../../platform/db/store.js';
import type { RescueAction } from '../schemas/server-rescue.schemas.js';
import { computeHostExists } from '../host/scheduler.js';
import { scheduleAdvance } from '../host/server-lifecycle.js';
import { VM } from '../server-states.js';

/**
 * `rescue`, `unrescue` (`api/openstack/compute/rescue.py`) and cold `migrate`
 * (`migrate_server.py`), with `compute/api.py`'s checks: lookup (404), policy, lock, state, then
 * the task state the emulated host picks up (`host/server-lifecycle.ts`).
 */

export const RESCUE_RULES = {
  rescue: 'os_compute_api:os-rescue',
  unrescue: 'os_compute_api:os-unrescue',
  migrate: 'os_compute_api:os-migrate-server:migrate',
} as const;

/** `CONF.api.enable_instance_password` is on in the reference cloud: rescue answers the password. */
export type RescueAnswer = { adminPass: string } | null;

export async function rescueAction(
  deps: ComputeDeps,
  auth: AuthContext,
  id: string,
  action: RescueAction,
): Promise<RescueAnswer> {
  let answer: RescueAnswer = null;
  await deps.store.transaction(async (tx) => {
    const s = await serversStore.lockById(deps.store, tx, id);
    if (!s || !(auth.isAdmin || s.project_id === auth.projectId)) throw instanceNotFound(id);
    const rule = RESCUE_RULES[action.name];
    // Rescue is a member's action; migrate the admin's alone.
    if (action.name === 'migrate' && !auth.isAdmin) throw policyForbidden(rule);
    assertProjectWriter(auth, rule);
    const set = (changes: Partial<ServerRow>) =>
      serversStore.update(tx, id, { ...changes, updated_at: nowIso() });
    switch (action.name) {
      case 'rescue':
        checkState(s, auth, 'rescue', { vmStates: [VM.active, VM.stopped, VM.error] });
        // No stable rescue here (as in the reference before 2.87 and without rescue image
        // properties after it, captures 884-885): a server booted from a volume cannot be rescued.
        if (s.image_id === null) {
          throw badRequest(`Instance ${id} cannot be rescued: Cannot rescue a volume-backed instance`);
        }
        await set({ task_state: 'rescuing' });
        answer = { adminPass: action.adminPass ?? generatePassword() };
        break;
      case 'unrescue':
        checkState(s, auth, 'unrescue', { vmStates: [VM.rescued] });
        await set({ task_state: 'unrescuing' });
        break;
      case 'migrate':
        await set(await migrationStart(tx, s, auth, action.host));
        break;
    }
    await recordAction(tx, {
      serverId: id,
      action: action.name,
      auth,
      event: EVENTS[action.name],
      // The conductor's cold_migrate runs inside migrate_server: both events, closed together (907).
      ...(action.name === 'migrate' ? { moreEvents: ['cold_migrate'] } : {}),
    });
  });
  scheduleAdvance(deps, id);
  return answer;
}

/** The compute (or conductor, for migrate) event each action opens (capture 907). */
const EVENTS: Record<RescueAction['name'], string> = {
  rescue: 'compute_rescue_instance',
  unrescue: 'compute_unrescue_instance',
  migrate: 'conductor_migrate_server',
};

/**
 * `API.resize` without a flavor: a resize to the server's own flavor on another host, which the
 * host's resize steps carry out (VERIFY_RESIZE, then confirm or revert). With no other host the
 * server stays as it is (capture 901-902: 202, still ACTIVE).
 */
async function migrationStart(
  tx: Tx,
  s: ServerRow,
  auth: AuthContext,
  host: string | null,
): Promise<Partial<ServerRow>> {
  checkState(s, auth, 'migrate', { vmStates: [VM.active, VM.stopped] });
  if (host !== null) {
    if (host === s.host) throw badRequest('Cannot migrate to the host where the server exists.');
    if (!(await computeHostExists(tx, host, null)))
      throw badRequest(`Compute host ${host} could not be found.`);
  }
  const flavor = parseJsonColumn<FlavorSnapshot>(s.flavor, {} as FlavorSnapshot);
  const source: ResizeSource = {
    flavor,
    newFlavor: flavor,
    host: s.host,
    node: s.node,
    availabilityZone: s.availability_zone,
    vmState: s.vm_state,
    dest: null,
    ...(host !== null ? { requestedHost: host } : {}),
  };
  return { task_state: 'resize_prep', old_flavor: JSON.stringify(source) };
}
