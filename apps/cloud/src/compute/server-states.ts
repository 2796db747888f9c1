/**
 * Nova's instance states (`compute/vm_states.py`, `task_states.py`, `power_state.py`) and the
 * API status derived from them (`api/openstack/common.py` `_STATE_MAP`).
 */
export const VM = {
  active: 'active',
  building: 'building',
  stopped: 'stopped',
  resized: 'resized',
  error: 'error',
  deleted: 'deleted',
  shelved: 'shelved',
  shelvedOffloaded: 'shelved_offloaded',
  paused: 'paused',
  suspended: 'suspended',
  rescued: 'rescued',
} as const;

export const POWER = { nostate: 0, running: 1, paused: 3, shutdown: 4, suspended: 7 } as const;

const DEFAULT = 'default';

/** vm_state -> task_state (or 'default') -> status. */
const STATE_MAP: Record<string, Record<string, string>> = {
  active: {
    [DEFAULT]: 'ACTIVE',
    rebooting: 'REBOOT',
    reboot_pending: 'REBOOT',
    reboot_started: 'REBOOT',
    rebooting_hard: 'HARD_REBOOT',
    reboot_pending_hard: 'HARD_REBOOT',
    reboot_started_hard: 'HARD_REBOOT',
    updating_password: 'PASSWORD',
    rebuilding: 'REBUILD',
    rebuild_block_device_mapping: 'REBUILD',
    rebuild_spawning: 'REBUILD',
    migrating: 'MIGRATING',
    resize_prep: 'RESIZE',
    resize_migrating: 'RESIZE',
    resize_migrated: 'RESIZE',
    resize_finish: 'RESIZE',
  },
  building: { [DEFAULT]: 'BUILD' },
  stopped: {
    [DEFAULT]: 'SHUTOFF',
    resize_prep: 'RESIZE',
    resize_migrating: 'RESIZE',
    resize_migrated: 'RESIZE',
    resize_finish: 'RESIZE',
    rebuilding: 'REBUILD',
    rebuild_block_device_mapping: 'REBUILD',
    rebuild_spawning: 'REBUILD',
  },
  resized: { [DEFAULT]: 'VERIFY_RESIZE', resize_reverting: 'REVERT_RESIZE' },
  paused: { [DEFAULT]: 'PAUSED', migrating: 'MIGRATING' },
  suspended: { [DEFAULT]: 'SUSPENDED' },
  rescued: { [DEFAULT]: 'RESCUE' },
  error: {
    [DEFAULT]: 'ERROR',
    rebuilding: 'REBUILD',
    rebuild_block_device_mapping: 'REBUILD',
    rebuild_spawning: 'REBUILD',
  },
  deleted: { [DEFAULT]: 'DELETED' },
  soft_deleted: { [DEFAULT]: 'SOFT_DELETED' },
  shelved: { [DEFAULT]: 'SHELVED' },
  shelved_offloaded: { [DEFAULT]: 'SHELVED_OFFLOADED' },
};

export function statusFromState(vmState: string, taskState: string | null): string {
  const map = STATE_MAP[vmState];
  if (!map) return 'UNKNOWN';
  return (taskState !== null ? map[taskState] : undefined) ?? map[DEFAULT] ?? 'UNKNOWN';
}

/**
 * `task_and_vm_state_from_status`: the vm_states and task_states behind API statuses. A
 * 'default' among the task states means "any task state".
 */
export function statesFromStatuses(statuses: readonly string[]): {
  vmStates: string[];
  taskStates: string[];
} {
  const wanted = new Set(statuses.map((s) => s.trim().toLowerCase()));
  const vmStates = new Set<string>();
  const taskStates = new Set<string>();
  for (const [vm, map] of Object.entries(STATE_MAP)) {
    for (const [task, status] of Object.entries(map)) {
      if (wanted.has(status.toLowerCase())) {
        vmStates.add(vm);
        taskStates.add(task);
      }
    }
  }
  return { vmStates: [...vmStates].sort(), taskStates: [...taskStates].sort() };
}

export const ANY_TASK_STATE = DEFAULT;
