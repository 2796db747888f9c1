import { finishOpenEvents } from '../service/instance-actions-recorder.js';
import type { ComputeDeps } from '../deps.js';
import type { Tx } from '../../platform/db/store.js';
import { isTransientDatabaseError } from '../../platform/db/unavailable.js';
import { nowIso } from '../../platform/time.js';
import { type BdmRow, bdmsStore } from '../store/bdms.store.js';
import {
  type FlavorSnapshot,
  type ResizeSource,
  type ServerRow,
  serversStore,
} from '../store/servers.store.js';
import { parseJsonColumn } from '../../platform/db/json-column.js';
import type { Volume } from '../clients/volume-client.js';
import { listComputeHosts } from './compute-hosts.js';
import {
  claimHost,
  type GroupPolicy,
  NO_VALID_HOST,
  pickHost,
  type ScheduleRequest,
  selectHost,
} from './scheduler.js';
import { groupPoliciesOf } from '../service/server-groups.service.js';
import { POWER, VM } from '../server-states.js';
import { releaseServerPorts } from './server-ports.js';
import { advanceMigration, failMigration, openMigration } from './migration-records.js'; // cloud-rescue
import {
  connectBuildBatch,
  connectServerVolumes,
  createMappingVolume,
  releaseServerVolumes,
  reReserveServerVolumes,
  reserveCreatedVolume,
  volumeCreateState,
} from './volume-connect.js';

/**
 * The emulated conductor and compute hosts: every asynchronous step of a server's life, driven
 * by its (vm_state, task_state). Each step locks the server, checks it is still in the state the
 * step expects (a delete may have overtaken it), moves it on and schedules the next step, so
 * a step is safe to run twice and a restarted process resumes from the state alone
 * (`reconcileCompute`). Sequences follow capture 199.
 */

/** What the build needs that the server row does not hold: where the request pinned it. */
export interface Placement {
  forcedHost: string | null;
  forcedNode: string | null;
  requestedHost: string | null;
  requestedNode: string | null;
}

export interface StepContext {
  /** Where the create (or unshelve) request pinned the server; lost on a restart. */
  placement?: Placement;
}

type Outcome = 'next' | 'wait' | 'done';

/** Runs the server's next step after the backend delay. */
export function scheduleAdvance(
  deps: ComputeDeps,
  serverId: string,
  ctx: StepContext = {},
  delayMs?: number,
): void {
  deps.tasks.schedule(
    'compute: server step',
    () => advanceServer(deps, serverId, ctx),
    delayMs,
    `server:${serverId}`,
  );
}

export async function advanceServer(
  deps: ComputeDeps,
  serverId: string,
  ctx: StepContext = {},
): Promise<void> {
  const server = await serversStore.byIdIncludingDeleted(deps.store.db, serverId);
  if (!server || server.deleted === 1) return;
  const step = stepFor(server);
  if (!step) return;
  let outcome: Outcome;
  try {
    outcome = await step(deps, server, ctx);
  } catch (err) {
    // The database failed, not the step: the task runner runs it again; the server stays as it is.
    if (isTransientDatabaseError(err)) throw err;
    deps.logger.error({ err, serverId, task: server.task_state }, 'server step failed');
    await markError(deps, serverId, server.task_state, err instanceof Error ? err.message : String(err));
    return;
  }
  if (outcome === 'next') scheduleAdvance(deps, serverId, ctx);
  // Waiting on another backend (a volume being created): look again shortly.
  if (outcome === 'wait') scheduleAdvance(deps, serverId, ctx, Math.max(deps.tasks.delayMs, 5));
}

type Step = (deps: ComputeDeps, server: ServerRow, ctx: StepContext) => Promise<Outcome>;

function stepFor(s: ServerRow): Step | null {
  if (s.task_state === 'deleting') return terminate;
  if (s.vm_state === VM.deleted) return purge;
  switch (s.task_state) {
    case 'scheduling':
      return s.vm_state === VM.building ? buildSchedule : null;
    case 'block_device_mapping':
      return s.vm_state === VM.building ? buildBlockDevices : null;
    case 'spawning':
      return s.vm_state === VM.building ? buildSpawn : unshelveSpawn;
    case 'powering-off':
      return finish('powering-off', { vm_state: VM.stopped, power_state: POWER.shutdown, task_state: null });
    case 'powering-on':
      return finish('powering-on', { vm_state: VM.active, power_state: POWER.running, task_state: null });
    case 'rebooting':
    case 'rebooting_hard':
      return finish(s.task_state, { vm_state: VM.active, power_state: POWER.running, task_state: null });
    // --- C1: pause, suspend ---
    case 'pausing':
      return finish('pausing', { vm_state: VM.paused, power_state: POWER.paused, task_state: null });
    case 'unpausing':
      return finish('unpausing', { vm_state: VM.active, power_state: POWER.running, task_state: null });
    case 'suspending':
      return finish('suspending', { vm_state: VM.suspended, power_state: POWER.suspended, task_state: null });
    case 'resuming':
      return finish('resuming', { vm_state: VM.active, power_state: POWER.running, task_state: null });
    // --- end C1 ---
    // --- cloud-rescue: rescue, unrescue ---
    case 'rescuing':
      return finish('rescuing', { vm_state: VM.rescued, power_state: POWER.running, task_state: null });
    case 'unrescuing':
      return finish('unrescuing', { vm_state: VM.active, power_state: POWER.running, task_state: null });
    // --- end cloud-rescue ---
    case 'shelving':
      return shelve;
    case 'shelving_offloading':
      return offload;
    case 'unshelving':
      return unshelveSchedule;
    case 'resize_prep':
      return resizePrep;
    case 'resize_migrating':
      return resizeMigrate;
    case 'resize_migrated':
      return resizeMigrated;
    case 'resize_finish':
      return resizeFinish;
    case 'resize_reverting':
      return resizeRevert;
    // --- cloud-rebuild ---
    case 'rebuilding':
      return moveTo('rebuilding', 'rebuild_block_device_mapping');
    case 'rebuild_block_device_mapping':
      return moveTo('rebuild_block_device_mapping', 'rebuild_spawning');
    case 'rebuild_spawning':
      return rebuildSpawn;
    // --- end cloud-rebuild ---
    case null:
      return s.vm_state === VM.resized && resizeOf(s)?.confirming ? resizeConfirm : null;
    default:
      return null;
  }
}

export const resizeOf = (s: Pick<ServerRow, 'old_flavor'>) =>
  parseJsonColumn<ResizeSource | null>(s.old_flavor, null);
const flavorOf = (s: Pick<ServerRow, 'flavor'>) =>
  parseJsonColumn<FlavorSnapshot>(s.flavor, {} as FlavorSnapshot);

/**
 * Locks the server and applies `fn`'s changes if it is still at `task`; returns the changes
 * made (null when the server moved on meanwhile).
 */
async function transition(
  deps: ComputeDeps,
  serverId: string,
  task: string | null,
  fn: (tx: Tx, s: ServerRow) => Promise<Partial<ServerRow> | null>,
): Promise<Partial<ServerRow> | null> {
  return deps.store.transaction(async (tx) => {
    const s = await serversStore.lockById(deps.store, tx, serverId);
    if (!s || s.task_state !== task) return null;
    const changes = await fn(tx, s);
    if (!changes) return null;
    await serversStore.update(tx, serverId, { ...changes, updated_at: nowIso() });
    const after = { ...s, ...changes };
    // The task is over: the events the request opened end with it.
    if (after.task_state === null) await finishOpenEvents(tx, [after]);
    return changes;
  });
}

/** A one-transaction step that ends the task. */
function finish(task: string, changes: Partial<ServerRow>): Step {
  return async (deps, server) => {
    await transition(deps, server.id, task, async () => changes);
    return 'done';
  };
}

function faultJson(message: string, details: string): string {
  return JSON.stringify({ code: 500, message, details, created: nowIso() });
}

/** A step that blew up: the server ends in ERROR with the error as its fault (Nova's wrap). */
async function markError(
  deps: ComputeDeps,
  serverId: string,
  task: string | null,
  message: string,
): Promise<void> {
  await transition(deps, serverId, task, async () => ({
    vm_state: VM.error,
    task_state: null,
    fault: faultJson(message, `Traceback (most recent call last):\n  ...\n${message}\n`),
  }));
}

// --- Scheduling ----------------------------------------------------------------------------------

/** The scheduler's view of a server: its flavor and what its volumes need of a host. */
async function scheduleRequest(
  deps: ComputeDeps,
  tx: Tx,
  s: ServerRow,
  flavor: FlavorSnapshot,
  opts: ScheduleOptions,
): Promise<ScheduleRequest> {
  const bdms = await bdmsStore.forServer(tx, s.id);
  const volumeIds = bdms.flatMap((b) => (b.volume_id ? [b.volume_id] : []));
  const volumes = volumeIds.length ? await deps.volumes.getMany(volumeIds, tx) : [];
  const group = (await groupPoliciesOf(tx, [s.id])).get(s.id) ?? null;
  return requestOf(s, flavor, bdms, volumes, { ...opts, group });
}

interface ScheduleOptions {
  placement?: Placement;
  ignoreHosts?: string[];
  availabilityZone: string | null;
  /** The server's group (cloud15: server groups); shared by the servers of one batch. */
  group?: GroupPolicy | null;
}

function requestOf(
  s: ServerRow,
  flavor: FlavorSnapshot,
  bdms: readonly BdmRow[],
  volumes: readonly Volume[],
  opts: ScheduleOptions,
): ScheduleRequest {
  return {
    flavor,
    volumeBacked: s.image_id === null,
    availabilityZone: opts.availabilityZone,
    forcedHost: opts.placement?.forcedHost ?? null,
    forcedNode: opts.placement?.forcedNode ?? null,
    requestedHost: opts.placement?.requestedHost ?? null,
    requestedNode: opts.placement?.requestedNode ?? null,
    needsMultiattach: volumes.some((v) => v.multiattach),
    needsAttachMode: bdms.some((b) => b.attach_mode === 'ro'),
    ignoreHosts: opts.ignoreHosts ?? [],
    group: opts.group ?? null,
  };
}

const NO_VALID_HOST_DETAILS = `Traceback (most recent call last):
  File "/usr/lib/python3/dist-packages/nova/conductor/manager.py", line 1580, in schedule_and_build_instances
    host_lists = self._schedule_instances(context, request_specs[0],
  File "/usr/lib/python3/dist-packages/nova/scheduler/manager.py", line 243, in select_destinations
    raise exception.NoValidHost(reason=reason)
nova.exception.NoValidHost: ${NO_VALID_HOST}
`;

// --- Build ---------------------------------------------------------------------------------------

/** The conductor's scheduling: a host, or ERROR with NoValidHost and the volumes let go. */
const buildSchedule: Step = async (deps, server, ctx) => {
  const changes = await transition(deps, server.id, 'scheduling', async (tx, s) => {
    if (s.vm_state !== VM.building) return null;
    await serversStore.lockScheduler(deps.store, tx);
    const req = await scheduleRequest(deps, tx, s, flavorOf(s), {
      ...(ctx.placement ? { placement: ctx.placement } : {}),
      availabilityZone: s.requested_availability_zone,
    });
    const host = await selectHost(tx, req);
    if (!host) {
      await releaseServerVolumes(deps, tx, s, { deleteOnTermination: false });
      return { vm_state: VM.error, task_state: null, fault: faultJson(NO_VALID_HOST, NO_VALID_HOST_DETAILS) };
    }
    return {
      host: host.host,
      node: host.node,
      availability_zone: host.zone,
      task_state: 'block_device_mapping',
    };
  });
  return changes?.task_state === 'block_device_mapping' ? 'next' : 'done';
};

/** `_build_resources`' failure: BuildAbortException, ERROR, the volumes detached. */
async function abortBuild(deps: ComputeDeps, serverId: string, reason: string): Promise<Outcome> {
  const message = `Build of instance ${serverId} aborted: ${reason}`;
  await transition(deps, serverId, 'block_device_mapping', async (tx, s) => {
    await releaseServerVolumes(deps, tx, s, { deleteOnTermination: true });
    return { vm_state: VM.error, task_state: null, fault: faultJson(message, message) };
  });
  return 'done';
}

/**
 * `_prep_block_device`: create the image and blank volumes (waiting for Cinder), reserve them,
 * then connect every volume on the host (the attach engineer's core).
 */
const buildBlockDevices: Step = async (deps, server) => {
  const bdms = await bdmsStore.forServer(deps.store.db, server.id);
  for (const b of bdms) {
    if (
      b.destination_type === 'volume' &&
      !b.volume_id &&
      (b.source_type === 'blank' || b.source_type === 'image')
    ) {
      await createMappingVolume(deps, server, b);
    }
  }
  const fresh = await bdmsStore.forServer(deps.store.db, server.id);
  for (const b of fresh) {
    if (!b.volume_id || b.attachment_id) continue;
    const state = await volumeCreateState(deps, server, b.volume_id);
    if (state === 'creating') return 'wait';
    if (state !== 'ready') {
      return abortBuild(
        deps,
        server.id,
        `Volume ${b.volume_id} did not finish being created even after we waited 0 seconds or 1 attempts. And its status is ${state}.`,
      );
    }
    const ok = await transition(deps, server.id, 'block_device_mapping', async (tx, s) => {
      await reserveCreatedVolume(deps, tx, s, b.uuid);
      return { task_state: 'block_device_mapping' };
    });
    if (!ok) return 'done';
  }
  const current = await serversStore.byId(deps.store.db, server.id);
  if (current?.task_state !== 'block_device_mapping') return 'done';
  const outcomes = await connectServerVolumes(deps, server.id);
  const failed = outcomes.find((o) => !o.ok);
  if (failed)
    return abortBuild(deps, server.id, failed.error ?? `Failed to attach volume ${failed.volumeId}`);
  const moved = await transition(deps, server.id, 'block_device_mapping', async () => ({
    task_state: 'spawning',
  }));
  return moved ? 'next' : 'done';
};

const buildSpawn: Step = async (deps, server) => {
  await transition(deps, server.id, 'spawning', async (_tx, s) =>
    s.vm_state === VM.building
      ? { vm_state: VM.active, task_state: null, power_state: POWER.running, launched_at: nowIso() }
      : null,
  );
  return 'done';
};

// --- Batched build (the servers of one multi-create) ---------------------------------------------

/**
 * Builds the servers of one multi-create together, as Nova's conductor places all instances of
 * a request in one select_destinations call: each step (schedule, connect the volumes, spawn) is
 * one transaction for the whole batch, after the same delay, and leaves every server in the
 * state the one-server step would, so `advanceServer` can take any of them over (after a
 * restart, or when a step fails and each server's own failure must be recorded). The task
 * declares every server it moves on.
 */
export function scheduleBuildBatch(
  deps: ComputeDeps,
  serverIds: readonly string[],
  ctx: StepContext = {},
  delayMs?: number,
): void {
  if (serverIds.length === 1) scheduleAdvance(deps, serverIds[0]!, ctx, delayMs);
  if (serverIds.length <= 1) return;
  deps.tasks.schedule(
    'compute: build batch',
    () => advanceBuildBatch(deps, serverIds, ctx),
    delayMs,
    serverIds.map((id) => `server:${id}` as const),
  );
}

/** A batched step: the servers it moved on to the next step, and those left to the one-server path. */
type BatchStep = (
  deps: ComputeDeps,
  ids: readonly string[],
  ctx: StepContext,
) => Promise<{ next: string[]; alone: string[] }>;

/** The ids of `ids` not in `taken`. */
const others = (ids: readonly string[], taken: readonly string[]) => {
  const set = new Set(taken);
  return ids.filter((id) => !set.has(id));
};

async function advanceBuildBatch(deps: ComputeDeps, ids: readonly string[], ctx: StepContext): Promise<void> {
  const servers = await serversStore.byIds(deps.store.db, ids);
  const byStep = new Map<BatchStep, string[]>();
  const alone: string[] = [];
  for (const s of servers) {
    const step = s.deleted === 0 && s.vm_state === VM.building ? batchStepFor(s.task_state) : null;
    if (!step) alone.push(s.id);
    else if (byStep.has(step)) byStep.get(step)!.push(s.id);
    else byStep.set(step, [s.id]);
  }
  for (const [step, stepIds] of byStep) {
    let moved: { next: string[]; alone: string[] };
    try {
      moved = await step(deps, stepIds, ctx);
    } catch (err) {
      // Nothing was written: each server takes this step on its own, which records its failure.
      deps.logger.warn({ err }, 'batched build step failed; building the servers one by one');
      alone.push(...stepIds);
      continue;
    }
    scheduleBuildBatch(deps, moved.next, ctx);
    alone.push(...moved.alone);
  }
  for (const id of alone) await advanceServer(deps, id, ctx);
}

function batchStepFor(task: string | null): BatchStep | null {
  if (task === 'scheduling') return batchSchedule;
  if (task === 'block_device_mapping') return batchBlockDevices;
  if (task === 'spawning') return batchSpawn;
  return null;
}

/** `buildSchedule` for the batch: hosts and usage read once, each claim subtracted in turn. */
const batchSchedule: BatchStep = (deps, ids, ctx) =>
  deps.store.transaction(async (tx) => {
    // Servers, then the scheduler: the order a one-server build takes its locks in.
    const servers = (await serversStore.lockByIds(deps.store, tx, ids))
      .filter((s) => s.vm_state === VM.building && s.task_state === 'scheduling')
      .sort((a, b) => a.launch_index - b.launch_index);
    await serversStore.lockScheduler(deps.store, tx);
    const bdms = await bdmsStore.forServers(
      tx,
      servers.map((s) => s.id),
    );
    const volumes = await deps.volumes.getMany(
      bdms.flatMap((b) => (b.volume_id ? [b.volume_id] : [])),
      tx,
    );
    const hosts = await listComputeHosts(tx);
    const groups = await groupPoliciesOf(
      tx,
      servers.map((s) => s.id),
    );
    const placed: ServerRow[] = [];
    const now = nowIso();
    for (const s of servers) {
      const own = bdms.filter((b) => b.server_id === s.id);
      const mapped = new Set(own.map((b) => b.volume_id));
      const req = requestOf(
        s,
        flavorOf(s),
        own,
        volumes.filter((v) => mapped.has(v.id)),
        {
          ...(ctx.placement ? { placement: ctx.placement } : {}),
          availabilityZone: s.requested_availability_zone,
          group: groups.get(s.id) ?? null,
        },
      );
      const host = pickHost(hosts, req);
      if (!host) {
        await releaseServerVolumes(deps, tx, s, { deleteOnTermination: false });
        const failed = {
          vm_state: VM.error,
          task_state: null,
          fault: faultJson(NO_VALID_HOST, NO_VALID_HOST_DETAILS),
          updated_at: now,
        };
        await serversStore.update(tx, s.id, failed);
        await finishOpenEvents(tx, [{ ...s, ...failed }]);
        continue;
      }
      claimHost(hosts, host, req);
      placed.push({
        ...s,
        host: host.host,
        node: host.node,
        availability_zone: host.zone,
        task_state: 'block_device_mapping',
        updated_at: now,
      });
    }
    await serversStore.updateEach(tx, placed, [
      'host',
      'node',
      'availability_zone',
      'task_state',
      'updated_at',
    ]);
    const next = placed.map((s) => s.id);
    return {
      next,
      alone: others(
        ids,
        servers.map((s) => s.id),
      ),
    };
  });

/**
 * `buildBlockDevices` for servers whose volumes all exist and are reserved (a volume still to
 * be created from an image or blank waits on Cinder: that server builds on its own): every
 * attachment connected and completed in one transaction, each volume's status settled once.
 */
const batchBlockDevices: BatchStep = async (deps, ids) => {
  const waiting = new Set(
    (await bdmsStore.forServers(deps.store.db, ids))
      .filter((b) => b.destination_type === 'volume' && (!b.volume_id || !b.attachment_id))
      .map((b) => b.server_id),
  );
  const ready = ids.filter((id) => !waiting.has(id));
  if (ready.length === 0) return { next: [], alone: [...ids] };
  return deps.store.transaction(async (tx) => {
    const servers = (await serversStore.lockByIds(deps.store, tx, ready)).filter(
      (s) => s.vm_state === VM.building && s.task_state === 'block_device_mapping',
    );
    const moving = servers.map((s) => s.id);
    await connectBuildBatch(deps, tx, servers, await bdmsStore.forServers(tx, moving));
    await serversStore.updateMany(tx, moving, { task_state: 'spawning', updated_at: nowIso() });
    return { next: moving, alone: others(ids, moving) };
  });
};

const batchSpawn: BatchStep = (deps, ids) =>
  deps.store.transaction(async (tx) => {
    const spawned = (await serversStore.lockByIds(deps.store, tx, ids)).filter(
      (s) => s.vm_state === VM.building && s.task_state === 'spawning',
    );
    const moving = spawned.map((s) => s.id);
    const now = nowIso();
    await serversStore.updateMany(tx, moving, {
      vm_state: VM.active,
      task_state: null,
      power_state: POWER.running,
      launched_at: now,
      updated_at: now,
    });
    await finishOpenEvents(
      tx,
      spawned.map((s) => ({ ...s, vm_state: VM.active })),
    );
    return { next: [], alone: others(ids, moving) };
  });

// --- Delete --------------------------------------------------------------------------------------

/** `terminate_instance`: volumes detached (and deleted when asked), then the DELETED state (299). */
const terminate: Step = async (deps, server) => {
  await transition(deps, server.id, 'deleting', async (tx, s) => {
    await releaseServerVolumes(deps, tx, s, { deleteOnTermination: true });
    await releaseServerPorts(deps, tx, s.id);
    const now = nowIso();
    return { vm_state: VM.deleted, task_state: null, power_state: POWER.nostate, terminated_at: now };
  });
  return 'next';
};

/** The row is soft-deleted: from now on the server is a 404. */
const purge: Step = async (deps, server) => {
  await deps.store.transaction(async (tx) => {
    const s = await serversStore.lockById(deps.store, tx, server.id);
    if (s?.vm_state === VM.deleted) await serversStore.softDelete(tx, s.id, nowIso());
  });
  return 'done';
};

// --- Shelve --------------------------------------------------------------------------------------

const offloadedChanges = (s: ServerRow): Partial<ServerRow> => ({
  vm_state: VM.shelvedOffloaded,
  task_state: null,
  power_state: POWER.shutdown,
  host: null,
  node: null,
  // Offloading unpins the zone unless the user asked for one (capture 163: "").
  availability_zone: s.requested_availability_zone,
});

/**
 * A volume-backed server has nothing to snapshot and is offloaded at once (capture 162); an
 * image-backed one passes through SHELVED first (shelved_offload_time 0 offloads right away).
 */
const shelve: Step = async (deps, server) => {
  const changes = await transition(deps, server.id, 'shelving', async (tx, s) => {
    if (s.image_id === null) {
      await reReserveServerVolumes(deps, tx, s);
      return offloadedChanges(s);
    }
    return { vm_state: VM.shelved, task_state: 'shelving_offloading', power_state: POWER.shutdown };
  });
  return changes?.task_state === 'shelving_offloading' ? 'next' : 'done';
};

const offload: Step = async (deps, server) => {
  await transition(deps, server.id, 'shelving_offloading', async (tx, s) => {
    await reReserveServerVolumes(deps, tx, s);
    return offloadedChanges(s);
  });
  return 'done';
};

/** The conductor's unshelve: a host (or back to SHELVED_OFFLOADED when none), then spawn there. */
const unshelveSchedule: Step = async (deps, server, ctx) => {
  const changes = await transition(deps, server.id, 'unshelving', async (tx, s) => {
    if (s.host) return { task_state: 'spawning' };
    await serversStore.lockScheduler(deps.store, tx);
    const req = await scheduleRequest(deps, tx, s, flavorOf(s), {
      ...(ctx.placement ? { placement: ctx.placement } : {}),
      availabilityZone: s.requested_availability_zone,
    });
    const host = await selectHost(tx, req);
    // NoValidHost on unshelve only clears the task (conductor's unshelve_instance).
    if (!host) return { task_state: null };
    return { host: host.host, node: host.node, availability_zone: host.zone, task_state: 'spawning' };
  });
  return changes?.task_state === 'spawning' ? 'next' : 'done';
};

const unshelveSpawn: Step = async (deps, server) => {
  const outcomes = await connectServerVolumes(deps, server.id);
  const failed = outcomes.find((o) => !o.ok);
  await transition(deps, server.id, 'spawning', async () =>
    failed
      ? {
          vm_state: VM.error,
          task_state: null,
          fault: faultJson(failed.error ?? 'unshelve failed', failed.error ?? ''),
        }
      : { vm_state: VM.active, task_state: null, power_state: POWER.running, launched_at: nowIso() },
  );
  return 'done';
};

// --- Resize --------------------------------------------------------------------------------------

const powerFor = (vmState: string) => (vmState === VM.stopped ? POWER.shutdown : POWER.running);

/** The conductor's migrate_server: another host for the new flavor, or back to where it was. */
const resizePrep: Step = async (deps, server) => {
  const changes = await transition(deps, server.id, 'resize_prep', async (tx, s) => {
    const rs = resizeOf(s);
    if (!rs) return { task_state: null };
    await serversStore.lockScheduler(deps.store, tx);
    const req = await scheduleRequest(deps, tx, s, rs.newFlavor, {
      availabilityZone: s.requested_availability_zone,
      ignoreHosts: s.host ? [s.host] : [],
      // cloud-rescue: a cold migrate may name its destination.
      ...(rs.requestedHost
        ? {
            placement: {
              forcedHost: null,
              forcedNode: null,
              requestedHost: rs.requestedHost,
              requestedNode: null,
            },
          }
        : {}),
    });
    const host = await selectHost(tx, req);
    // cloud-rescue: the migration record os-migrations lists, failed or on its way.
    await openMigration(tx, s, rs);
    if (host) await advanceMigration(tx, s.id, 'migrating', host);
    else await failMigration(tx, s, NO_VALID_HOST_DETAILS);
    // No other host (capture 183): the server is left as it was, with its old flavor.
    if (!host) return { task_state: null, old_flavor: null };
    const next: ResizeSource = { ...rs, dest: host };
    return { task_state: 'resize_migrating', old_flavor: JSON.stringify(next) };
  });
  return changes?.task_state === 'resize_migrating' ? 'next' : 'done';
};

/** The source host lets the volumes go (reserved again) and the server moves (resize_migrated). */
const resizeMigrate: Step = async (deps, server) => {
  const changes = await transition(deps, server.id, 'resize_migrating', async (tx, s) => {
    const rs = resizeOf(s);
    if (!rs?.dest) return null;
    await reReserveServerVolumes(deps, tx, s);
    return {
      host: rs.dest.host,
      node: rs.dest.node,
      availability_zone: rs.dest.zone,
      task_state: 'resize_migrated',
    };
  });
  return changes ? 'next' : 'done';
};

const resizeMigrated: Step = async (deps, server) => {
  const changes = await transition(deps, server.id, 'resize_migrated', async (_tx, s) => {
    const rs = resizeOf(s);
    if (!rs) return null;
    await advanceMigration(_tx, s.id, 'post-migrating'); // cloud-rescue
    return { flavor: JSON.stringify(rs.newFlavor), flavor_id: rs.newFlavor.id, task_state: 'resize_finish' };
  });
  return changes ? 'next' : 'done';
};

/** finish_resize on the destination: volumes connected there, then VERIFY_RESIZE. */
const resizeFinish: Step = async (deps, server) => {
  const outcomes = await connectServerVolumes(deps, server.id);
  const failed = outcomes.find((o) => !o.ok);
  await transition(deps, server.id, 'resize_finish', async (_tx, s) => {
    await advanceMigration(_tx, s.id, failed ? 'error' : 'finished'); // cloud-rescue
    if (failed) {
      return { vm_state: VM.error, task_state: null, fault: faultJson(failed.error ?? 'resize failed', '') };
    }
    const rs = resizeOf(s);
    return {
      vm_state: VM.resized,
      task_state: null,
      power_state: powerFor(rs?.vmState ?? VM.active),
      launched_at: nowIso(),
    };
  });
  return 'done';
};

/** confirm_resize: the source is cleaned up; the server returns to its old vm_state. */
const resizeConfirm: Step = async (deps, server) => {
  await transition(deps, server.id, null, async (_tx, s) => {
    const rs = resizeOf(s);
    if (s.vm_state !== VM.resized || !rs?.confirming) return null;
    await advanceMigration(_tx, s.id, 'confirmed'); // cloud-rescue
    return { vm_state: rs.vmState, power_state: powerFor(rs.vmState), old_flavor: null };
  });
  return 'done';
};

/** revert_resize: back to the source host and the old flavor, volumes connected there again. */
const resizeRevert: Step = async (deps, server) => {
  const moved = await transition(deps, server.id, 'resize_reverting', async (tx, s) => {
    const rs = resizeOf(s);
    if (!rs) return { vm_state: VM.active, task_state: null };
    if (rs.revertMoved) return { task_state: 'resize_reverting' };
    await reReserveServerVolumes(deps, tx, s);
    return {
      host: rs.host,
      node: rs.node,
      availability_zone: rs.availabilityZone,
      flavor: JSON.stringify(rs.flavor),
      flavor_id: rs.flavor.id,
      old_flavor: JSON.stringify({ ...rs, revertMoved: true }),
    };
  });
  if (!moved || moved.task_state === null) return 'done';
  const outcomes = await connectServerVolumes(deps, server.id);
  const failed = outcomes.find((o) => !o.ok);
  await transition(deps, server.id, 'resize_reverting', async (_tx, s) => {
    const rs = resizeOf(s);
    await advanceMigration(_tx, s.id, failed ? 'error' : 'reverted'); // cloud-rescue
    if (failed)
      return { vm_state: VM.error, task_state: null, fault: faultJson(failed.error ?? 'revert failed', '') };
    const vmState = rs?.vmState ?? VM.active;
    return { vm_state: vmState, task_state: null, power_state: powerFor(vmState), old_flavor: null };
  });
  return 'done';
};

// --- cloud-rebuild: rebuild ------------------------------------------------------------------------

/** A step that only moves the task on (rebuild's, whose volumes stay attached as they are). */
function moveTo(task: string, next: string): Step {
  return async (deps, server) => {
    const moved = await transition(deps, server.id, task, async () => ({ task_state: next }));
    return moved ? 'next' : 'done';
  };
}

/**
 * `_do_rebuild_instance`: the guest is spawned again (ACTIVE, launched now); a server that was
 * stopped is then stopped again, as the compute manager does, so it ends SHUTOFF (capture 871).
 * An ERROR server ends ACTIVE.
 */
const rebuildSpawn: Step = async (deps, server) => {
  const changes = await transition(deps, server.id, 'rebuild_spawning', async (_tx, s) => ({
    vm_state: VM.active,
    power_state: POWER.running,
    task_state: s.vm_state === VM.stopped ? 'powering-off' : null,
    launched_at: nowIso(),
  }));
  return changes?.task_state === 'powering-off' ? 'next' : 'done';
};
// --- end cloud-rebuild ---
