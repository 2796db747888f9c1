import type { LaunchRequest } from '@sv/shared';
import { writersOf } from '../../openstack/attachments.js';
import { findVolume } from '../../openstack/cinder.js';
import type { CloudClient } from '../../openstack/cloud-client.js';
import { OpenStackFault } from '../../openstack/fault.js';
import { isVolumeBusy, launchBlockDevices, type VolumeMapping } from '../../openstack/launch-calls.js';
import {
  attachVolume,
  type CreateServersInput,
  createServers,
  findServer,
  listServerAttachments,
  listServers,
  type NovaServer,
} from '../../openstack/nova.js';
import { ApiError, conflict } from '../../platform/errors.js';
import type { Logger } from '../../platform/logger.js';
import type { VolumeLock } from '../../platform/volume-lock.js';
import { isFinal, type LaunchTracker } from './launch.progress.js';

/** How long and how often a launch waits on the cloud. */
export interface LaunchTiming {
  /** Polling starts this often and slows down to pollMaxMs while nothing changes. */
  pollMinMs: number;
  pollMaxMs: number;
  /** Tries of one create or attach while Cinder says the volume is reserved/attaching. */
  busyTries: number;
  busyBaseMs: number;
  busyMaxMs: number;
  /** How long servers may take to build, and one attach to complete. */
  buildTimeoutMs: number;
  attachTimeoutMs: number;
}

export const DEFAULT_TIMING: LaunchTiming = {
  pollMinMs: 100,
  pollMaxMs: 2_000,
  busyTries: 12,
  busyBaseMs: 500,
  busyMaxMs: 5_000,
  buildTimeoutMs: 15 * 60_000,
  attachTimeoutMs: 5 * 60_000,
};

/** Shared volumes the launch maps read-write, under the two-writer rule. */
export interface LaunchWrites {
  volumeIds: string[];
  /** The user confirmed several writers (acknowledgeMultipleWriters). */
  acknowledged: boolean;
  /** Names the messages use. */
  labels: Map<string, string>;
}

export interface LaunchRun {
  cloud: CloudClient;
  tracker: LaunchTracker;
  request: LaunchRequest;
  timing: LaunchTiming;
  log: Logger;
  writes: LaunchWrites;
  volumeLock: VolumeLock;
}

/** The two-writer rule's words for a launch (the plan's problem and a refusal at run time). */
export const launchWritersMessage = (label: string, newWriters: number, existing: string[]) =>
  `${label} would be written by ${newWriters + existing.length} servers at once` +
  (existing.length > 0 ? ` (it already has read-write holders: ${existing.join(', ')})` : '') +
  '. Two servers writing to one volume corrupt its data unless they run a cluster file system ' +
  '(such as GFS2 or OCFS2) that coordinates their writes. Choose read-only, or confirm that the ' +
  'servers use a cluster file system.';

/**
 * Adds holders under the two-writer rule, as an attach does: inside the sections of the shared
 * volumes it writes, the holders are read again and, unless acknowledged, `fn` runs only if the
 * volume ends with one writer at most. `fn` is the create or attach that adds the holders.
 */
async function addingWriters<T>(
  run: LaunchRun,
  volumeIds: readonly string[],
  newWriters: number,
  exceptServerId: string | null,
  fn: () => Promise<T>,
): Promise<T> {
  const guarded = volumeIds.filter((id) => run.writes.volumeIds.includes(id));
  if (guarded.length === 0) return fn();
  return run.volumeLock.hold(guarded, async () => {
    if (!run.writes.acknowledged) {
      for (const id of guarded) {
        const writers = await writersOf(run.cloud, id, exceptServerId);
        if (writers.length + newWriters > 1) {
          const label = run.writes.labels.get(id) ?? `Volume ${id}`;
          throw conflict(
            'multiple_writers_unacknowledged',
            launchWritersMessage(
              label,
              newWriters,
              writers.map((w) => w.serverName ?? w.serverId),
            ),
          );
        }
      }
    }
    return fn();
  });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A growing pause between polls, reset when something moved. */
function poller(t: LaunchTiming) {
  let delay = t.pollMinMs;
  return {
    async wait(progressed: boolean) {
      delay = progressed ? t.pollMinMs : Math.min(t.pollMaxMs, Math.ceil(delay * 1.5));
      await sleep(delay);
    },
  };
}

export function messageOf(err: unknown): string {
  if (err instanceof OpenStackFault || err instanceof ApiError) return err.message;
  return 'The dashboard backend hit an unexpected error.';
}

/** The session's token no longer works: nothing further can be done on the user's behalf. */
const sessionEnded = (err: unknown) =>
  (err instanceof OpenStackFault && err.status === 401) ||
  (err instanceof ApiError && err.code === 'session_expired');

/** A hiccup worth waiting out while following servers: the cloud unreachable or failing. */
const transient = (err: unknown) =>
  (err instanceof OpenStackFault && err.status >= 500) ||
  (err instanceof ApiError && err.code === 'cloud_unreachable');

/** One round of a polling loop; after a transient failure it answers `otherwise` (nothing moved). */
async function round<T>(run: LaunchRun, fn: () => Promise<T>, otherwise: T): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (!transient(err)) throw err;
    run.log.warn({ err }, 'the cloud failed while a launch was being followed; trying again');
    return otherwise;
  }
}

/**
 * Runs `fn`, and again with exponential backoff (and a little jitter) while the cloud reports
 * the volume busy between states, up to `busyTries` in all.
 */
export async function withBusyRetry<T>(
  t: Pick<LaunchTiming, 'busyTries' | 'busyBaseMs' | 'busyMaxMs'>,
  fn: () => Promise<T>,
  onRetry: (attempt: number, err: unknown) => void = () => {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!isVolumeBusy(err) || attempt >= t.busyTries) throw err;
      onRetry(attempt, err);
      const base = Math.min(t.busyMaxMs, t.busyBaseMs * 2 ** (attempt - 1));
      await sleep(base * (0.8 + Math.random() * 0.4));
    }
  }
}

const mappings = (r: LaunchRequest) => ({
  boot: r.boot.source === 'volume' ? { volumeId: r.boot.volumeId, mode: r.boot.mode } : null,
  imageId: r.boot.source === 'image' ? r.boot.imageId : null,
  data: r.dataVolumes.map((d) => ({ volumeId: d.volumeId, mode: d.mode })),
});

/** The create for `count` servers named `name`, with these volumes in its mappings. */
function createInput(
  r: LaunchRequest,
  name: string,
  count: number,
  data: VolumeMapping[],
): CreateServersInput {
  const { boot, imageId } = mappings(r);
  return {
    name,
    flavorId: r.flavorId,
    ...(imageId && !boot ? { imageId } : {}),
    ...(r.availabilityZone ? { availabilityZone: r.availabilityZone } : {}),
    blockDevices: launchBlockDevices(boot, imageId, data),
    ...(count > 1 ? { minCount: count, maxCount: count } : {}),
  };
}

/** Runs a launch to the end; never throws (what went wrong is on the launch). */
export async function runLaunch(run: LaunchRun): Promise<void> {
  const { tracker } = run;
  try {
    if (tracker.launch.strategy === 'multi-create') await multiCreate(run);
    else await serial(run);
  } catch (err) {
    run.log.error({ err, launch: tracker.launch.id }, 'launch stopped unexpectedly');
    tracker.failRest(sessionEnded(err) ? 'Your session ended before the launch finished.' : messageOf(err));
  }
  tracker.finish();
  await tracker.save();
}

/** Copies the device names and modes the cloud reports for a server's volumes. */
async function recordVolumes(run: LaunchRun, index: number, serverId: string): Promise<void> {
  const reported = await listServerAttachments(run.cloud, serverId);
  for (const a of run.tracker.server(index).attachments) {
    const r = reported.find((x) => x.volumeId === a.volumeId);
    if (!r) continue;
    a.device = r.device ?? a.device;
    if (r.mode) a.mode = r.mode;
  }
}

/** A server that is ACTIVE with every volume attached. */
async function settleActive(run: LaunchRun, index: number, serverId: string): Promise<void> {
  await recordVolumes(run, index, serverId);
  run.tracker.update(index, { state: 'active', error: null });
}

function applyServer(run: LaunchRun, index: number, info: NovaServer): boolean {
  const s = run.tracker.server(index);
  const changed = s.status !== info.status || s.serverId !== info.id || s.host !== info.host;
  run.tracker.update(index, { serverId: info.id, status: info.status, host: info.host });
  return changed;
}

// --- One request for every server (compute 2.105) -------------------------------------------------

async function multiCreate(run: LaunchRun): Promise<void> {
  const { tracker, cloud, request, timing } = run;
  const { boot, data } = mappings(request);
  const n = request.count;
  for (const s of tracker.launch.servers) tracker.update(s.index, { state: 'creating' });
  await tracker.save();

  let created: { reservationId: string | null; serverId: string | null };
  try {
    created = await addingWriters(
      run,
      [...(boot ? [boot.volumeId] : []), ...data.map((d) => d.volumeId)],
      n,
      null,
      () => createServers(cloud, createInput(request, request.name, n, data)),
    );
  } catch (err) {
    tracker.failRest(messageOf(err));
    return;
  }
  const { reservationId, serverId } = created;
  if (!reservationId && !serverId) {
    tracker.failRest('The cloud did not say which servers it created.');
    return;
  }
  tracker.launch.reservationId = reservationId;
  for (const s of tracker.launch.servers) tracker.update(s.index, { state: 'building', serverId });
  await tracker.save();

  const volumes = [...(boot ? [boot] : []), ...data];
  const deadline = Date.now() + timing.buildTimeoutMs;
  const poll = poller(timing);
  const seen = new Set<string>();
  while (!tracker.launch.servers.every(isFinal)) {
    if (Date.now() > deadline) {
      tracker.failRest('Timed out waiting for the server to become active.');
      break;
    }
    const progressed = await round(
      run,
      async () => {
        let progressed = false;
        // A single server comes back by id; a reservation's members by Nova's filter.
        const members = reservationId
          ? await listServers(cloud, { reservationId })
          : [await findServer(cloud, serverId!)].filter((m): m is NovaServer => m !== null);
        const indexed = indexMembers(request.name, n, members);
        const fresh = members.filter((m) => !seen.has(m.id)).map((m) => m.id);
        for (const id of fresh) seen.add(id);
        tracker.announce('servers', fresh);

        // Cinder says which attachments are complete: one look per volume, not per server.
        const waiting = [...indexed].some(([i, m]) => m.status === 'ACTIVE' && !isFinal(tracker.server(i)));
        const attachedTo = new Map<string, Map<string, string | null>>();
        if (waiting) {
          for (const v of volumes) attachedTo.set(v.volumeId, await attachedServers(cloud, v.volumeId));
        }
        for (const [i, m] of indexed) {
          const s = tracker.server(i);
          if (isFinal(s)) continue;
          progressed = applyServer(run, i, m) || progressed;
          if (m.status === 'ERROR') {
            tracker.fail(i, m.fault ?? 'The server went into ERROR.');
            progressed = true;
          } else if (m.status === 'ACTIVE') {
            let all = true;
            for (const v of volumes) {
              const device = attachedTo.get(v.volumeId)?.get(m.id);
              if (device !== undefined) tracker.attachment(i, v.volumeId, { state: 'attached', device });
              else all = false;
            }
            if (all) {
              await settleActive(run, i, m.id);
              tracker.announce('attachments', [m.id, ...volumes.map((v) => v.volumeId)]);
              progressed = true;
            } else if (s.state !== 'attaching') {
              tracker.update(i, { state: 'attaching' });
              progressed = true;
            }
          }
        }
        if (progressed) await tracker.save();
        return progressed;
      },
      false,
    );
    if (!tracker.launch.servers.every(isFinal)) await poll.wait(progressed);
  }
  tracker.announce(
    'volumes',
    volumes.map((v) => v.volumeId),
  );
}

/** The servers Cinder lists as attached to a volume, with the device it names. */
async function attachedServers(cloud: CloudClient, volumeId: string): Promise<Map<string, string | null>> {
  const volume = await findVolume(cloud, volumeId);
  return new Map((volume?.attachments ?? []).map((a) => [a.serverId, a.device]));
}

/** Nova names multi-created servers `name-1` … `name-N`; a single one keeps the name. */
function indexMembers(name: string, n: number, members: NovaServer[]): Map<number, NovaServer> {
  const out = new Map<number, NovaServer>();
  const rest: NovaServer[] = [];
  for (const m of members) {
    const k = n === 1 && m.name === name ? 1 : Number(m.name.slice(name.length + 1));
    const i = k - 1;
    if (m.name.startsWith(`${name}-`) || n === 1) {
      if (Number.isInteger(i) && i >= 0 && i < n && !out.has(i)) {
        out.set(i, m);
        continue;
      }
    }
    rest.push(m);
  }
  // Renamed meanwhile: fill the gaps in a stable order.
  rest.sort((a, b) => (a.id < b.id ? -1 : 1));
  for (let i = 0; i < n && rest.length > 0; i++) if (!out.has(i)) out.set(i, rest.shift()!);
  return out;
}

// --- One server at a time, then one attach at a time ------------------------------------------------

async function serial(run: LaunchRun): Promise<void> {
  const { tracker, cloud, request, timing, log } = run;
  const { boot, data } = mappings(request);
  const retryLog = (index: number, what: string) => (attempt: number) =>
    log.info({ server: index, attempt }, `volume busy; retrying the ${what}`);

  // 1. The creates, one after another. A shared boot volume is reserved again by each one.
  for (const s of tracker.launch.servers) {
    tracker.update(s.index, { state: 'creating' });
    await tracker.save();
    try {
      const { serverId } = await withBusyRetry(
        timing,
        () =>
          addingWriters(run, boot ? [boot.volumeId] : [], 1, null, () =>
            createServers(cloud, createInput(request, s.name, 1, [])),
          ),
        retryLog(s.index, 'create'),
      );
      if (!serverId)
        throw new ApiError(502, 'cloud_error', 'The cloud did not return the server it created.');
      tracker.update(s.index, { serverId, state: 'building' });
      tracker.announce('servers', [serverId]);
    } catch (err) {
      if (sessionEnded(err)) throw err;
      tracker.fail(s.index, messageOf(err));
    }
    await tracker.save();
  }

  // 2. Wait for every created server to be ACTIVE or ERROR.
  const deadline = Date.now() + timing.buildTimeoutMs;
  const poll = poller(timing);
  const building = () => tracker.launch.servers.filter((s) => s.state === 'building');
  while (building().length > 0) {
    if (Date.now() > deadline) {
      for (const s of building()) tracker.fail(s.index, 'Timed out waiting for the server to become active.');
      break;
    }
    const progressed = await round(
      run,
      async () => {
        let progressed = false;
        for (const s of building()) {
          const info = await findServer(cloud, s.serverId!);
          if (!info) {
            tracker.fail(s.index, 'The server was deleted while it was being built.');
            progressed = true;
            continue;
          }
          progressed = applyServer(run, s.index, info) || progressed;
          if (info.status === 'ERROR') tracker.fail(s.index, info.fault ?? 'The server went into ERROR.');
          else if (info.status === 'ACTIVE') {
            if (boot) tracker.attachment(s.index, boot.volumeId, { state: 'attached' });
            if (data.length > 0) tracker.update(s.index, { state: 'attaching' });
            else await settleActive(run, s.index, info.id);
          }
        }
        if (progressed) await tracker.save();
        return progressed;
      },
      false,
    );
    if (building().length > 0) await poll.wait(progressed);
  }
  if (boot) tracker.announce('volumes', [boot.volumeId]);

  // 3. Each data volume onto each server in turn, waiting for each attach to complete.
  for (const s of tracker.launch.servers) {
    if (s.state !== 'attaching' || !s.serverId) continue;
    const serverId = s.serverId;
    let failed = false;
    for (const volume of data) {
      tracker.attachment(s.index, volume.volumeId, { state: 'attaching' });
      await tracker.save();
      try {
        await withBusyRetry(
          timing,
          () =>
            addingWriters(run, [volume.volumeId], 1, serverId, () =>
              attachVolume(cloud, serverId, volume.volumeId, volume.mode),
            ),
          retryLog(s.index, 'attach'),
        );
        const device = await waitAttached(run, serverId, volume);
        tracker.attachment(s.index, volume.volumeId, { state: 'attached', device });
        tracker.announce('attachments', [serverId, volume.volumeId]);
        tracker.announce('volumes', [volume.volumeId]);
      } catch (err) {
        if (sessionEnded(err)) throw err;
        tracker.attachment(s.index, volume.volumeId, { state: 'failed' });
        tracker.fail(s.index, `Attaching volume ${volume.volumeId} failed: ${messageOf(err)}`);
        failed = true;
      }
      await tracker.save();
      if (failed) break;
    }
    if (!failed) await settleActive(run, s.index, serverId);
    else await recordVolumes(run, s.index, serverId).catch(() => undefined);
    await tracker.save();
  }
}

/**
 * Waits until Cinder lists the server among the volume's attachments (the attach completed).
 * From 2.101 Nova answers the attach before trying it; if its mapping disappears, the compute
 * host gave up.
 */
async function waitAttached(run: LaunchRun, serverId: string, volume: VolumeMapping): Promise<string | null> {
  const { cloud, timing } = run;
  const deadline = Date.now() + timing.attachTimeoutMs;
  const poll = poller(timing);
  let missing = 0;
  for (;;) {
    const device = await round(
      run,
      async () => {
        const found = (await attachedServers(cloud, volume.volumeId)).get(serverId);
        if (found !== undefined) return found;
        const listed = (await listServerAttachments(cloud, serverId)).some(
          (v) => v.volumeId === volume.volumeId,
        );
        missing = listed ? 0 : missing + 1;
        return undefined;
      },
      undefined,
    );
    if (device !== undefined) return device;
    if (missing >= 2) {
      throw new ApiError(409, 'attach_failed', 'The compute host could not attach the volume.');
    }
    if (Date.now() > deadline) {
      throw new ApiError(504, 'attach_timeout', 'Timed out waiting for the volume to be attached.');
    }
    await poll.wait(false);
  }
}
