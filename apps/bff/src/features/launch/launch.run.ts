import type { LaunchRequest } from '@sv/shared';
import { writersOf } from '../../openstack/attachments.js';
import { type CinderVolume, findVolume } from '../../openstack/cinder.js';
import type { CloudClient } from '../../openstack/cloud-client.js';
import { OpenStackFault } from '../../openstack/fault.js';
import {
  ATTACH_CONCURRENCY,
  CREATE_CONCURRENCY,
  isVolumeBusy,
  launchBlockDevices,
  type VolumeMapping,
} from '../../openstack/launch-calls.js';
import {
  attachVolume,
  type CreateServersInput,
  createServers,
  findServer,
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
  /** How long servers may take to build, and one attach to complete. */
  buildTimeoutMs: number;
  attachTimeoutMs: number;
}

export const DEFAULT_TIMING: LaunchTiming = {
  pollMinMs: 100,
  pollMaxMs: 2_000,
  busyTries: 12,
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
  /** True once this process stops driving launches (shutdown): the run lets go without a word. */
  stopped: () => boolean;
}

/** Thrown inside a run when its process stops: another process picks the launch up. */
class Stopped extends Error {}

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
 * Sends requests that each reserve the same shared volume (the creates of a launch booting from it,
 * or the attaches of one data volume). They go in parallel until the cloud refuses one because the
 * volume is between states: a Cinder without the fix for bug 1747985 (Zed's, for one) reserves a
 * shared volume for one request at a time, each create or attach holding it `reserved` until its
 * host connects (about half a second on the reference Zed cloud). From then on the requests go one
 * at a time, each sent as soon as `reservable` says the volume is free again, instead of all of
 * them retrying on a growing backoff and colliding again (which left the last of 3 creates 2.5 s
 * after the first there; one at a time it is ~0.6 s per server, what the cloud's rule allows).
 */
export function sharedVolumeGate(t: Pick<LaunchTiming, 'busyTries'>, reservable: () => Promise<void>) {
  let contended = false;
  let turn: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = turn.then(fn);
    turn = next.catch(() => {});
    return next;
  };
  return async function send<T>(fn: () => Promise<T>, onRetry: (attempt: number) => void = () => {}) {
    let attempt = 1;
    if (!contended) {
      try {
        return await fn();
      } catch (err) {
        if (!isVolumeBusy(err)) throw err;
        contended = true;
        onRetry(attempt++);
      }
    }
    return oneAtATime(async () => {
      for (; ; attempt++) {
        await reservable();
        try {
          return await fn();
        } catch (err) {
          if (!isVolumeBusy(err) || attempt >= t.busyTries) throw err;
          onRetry(attempt);
        }
      }
    });
  };
}

/** Cinder's statuses in which a reserve is refused for a while and then allowed. */
const BETWEEN_STATES = new Set(['reserved', 'attaching', 'detaching']);

/**
 * Waits until none of the volumes is between states, reading them at the launch's poll pace.
 * A read that fails, a volume gone, or the attach timeout passing ends the wait: the next request
 * is sent anyway and the cloud's answer decides.
 */
async function untilReservable(run: LaunchRun, volumeIds: readonly string[]): Promise<void> {
  const { cloud, timing } = run;
  const started = Date.now();
  const deadline = started + timing.attachTimeoutMs;
  let delay = timing.pollMinMs;
  while (Date.now() < deadline) {
    if (run.stopped()) throw new Stopped();
    let volumes: (CinderVolume | null)[];
    try {
      volumes = await Promise.all(volumeIds.map((id) => findVolume(cloud, id)));
    } catch (err) {
      if (sessionEnded(err)) throw err;
      return;
    }
    if (!volumes.some((v) => v && BETWEEN_STATES.has(v.status))) return;
    await sleep(delay);
    // The next request waits on this read, so it is read often while a reservation is young.
    if (Date.now() - started > RESERVABLE_FAST_MS)
      delay = Math.min(RESERVABLE_POLL_MAX_MS, Math.ceil(delay * 1.5));
  }
}
/**
 * A reservation lasts as long as the host takes to connect the volume: about a second on the
 * reference Zed cloud, so it is read every pollMinMs for the first 3 s, then less often.
 */
const RESERVABLE_FAST_MS = 3_000;
const RESERVABLE_POLL_MAX_MS = 500;

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
    // Every create (the one multi-create, each serial one, a retry) takes the launch's ports, groups and key.
    ...(r.networks !== undefined ? { networks: r.networks } : {}),
    ...(r.securityGroups?.length ? { securityGroups: r.securityGroups } : {}),
    ...(r.keyName ? { keyName: r.keyName } : {}),
  };
}

/** Runs `fn` on each item, at most `limit` at a time. */
export async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * How a run starts: a new launch; a launch picked up after its process stopped; or the user's
 * retry of some of its servers (reset to `pending` by the caller).
 */
export type RunMode = { kind: 'start' } | { kind: 'resume' } | { kind: 'retry'; indices: number[] };

/** Runs a launch (or part of it) to the end; never throws (what went wrong is on the launch). */
export async function runLaunch(run: LaunchRun, mode: RunMode = { kind: 'start' }): Promise<void> {
  const { tracker } = run;
  const targets =
    mode.kind === 'retry'
      ? mode.indices
      : tracker.launch.servers.filter((s) => !isFinal(s)).map((s) => s.index);
  try {
    if (mode.kind === 'resume') await adoptCreated(run, targets);
    const toCreate = targets.filter((i) => !tracker.server(i).serverId);
    if (
      mode.kind === 'start' &&
      tracker.launch.strategy === 'multi-create' &&
      toCreate.length === tracker.launch.servers.length
    ) {
      await multiCreate(run);
    } else if (!(mode.kind === 'resume' && tracker.launch.reservationId)) {
      await createEach(run, toCreate);
    }
    await follow(run, targets);
  } catch (err) {
    if (err instanceof Stopped || run.stopped()) return;
    run.log.error({ err, launch: tracker.launch.id }, 'launch stopped unexpectedly');
    const message = sessionEnded(err) ? 'Your session ended before the launch finished.' : messageOf(err);
    for (const i of targets) tracker.fail(i, message);
  }
  if (run.stopped()) return;
  tracker.finish();
  await tracker.save();
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Nova's name filter (a regular expression) for a launch's servers: `name` and `name-K`. */
export const launchNameFilter = (name: string) => `^${escapeRegex(name)}(-[0-9]+)?$`;

/**
 * After a restart: a server whose create was in flight has no id on record. If the cloud has a
 * server of its name made since the launch started that no other server of the launch claims,
 * that is it; otherwise it is created again.
 */
async function adoptCreated(run: LaunchRun, targets: number[]): Promise<void> {
  const { tracker, cloud } = run;
  if (tracker.launch.reservationId) return;
  const unknown = targets.filter((i) => !tracker.server(i).serverId);
  if (unknown.length === 0) return;
  const known = new Set(tracker.launch.servers.flatMap((s) => (s.serverId ? [s.serverId] : [])));
  const listed = await listServers(cloud, { name: launchNameFilter(tracker.launch.request.name) });
  for (const i of unknown) {
    const s = tracker.server(i);
    const found = listed.find(
      (m) => m.name === s.name && !known.has(m.id) && m.createdAt >= tracker.launch.startedAt.slice(0, 19),
    );
    if (found) {
      known.add(found.id);
      tracker.update(i, { serverId: found.id, state: 'building', status: found.status });
    } else tracker.update(i, { state: 'pending' });
  }
  await tracker.save();
}

// --- One request for every server (compute 2.105) -------------------------------------------------

async function multiCreate(run: LaunchRun): Promise<void> {
  const { tracker, cloud, request } = run;
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
    if (sessionEnded(err)) throw err;
    tracker.failRest(messageOf(err));
    return;
  }
  const { reservationId, serverId } = created;
  if (!reservationId && !serverId) {
    tracker.failRest('The cloud did not say which servers it created.');
    return;
  }
  tracker.launch.reservationId = reservationId;
  for (const s of tracker.launch.servers) {
    tracker.update(s.index, { state: 'building', ...(n === 1 ? { serverId } : {}) });
  }
  await tracker.save();
}

/**
 * One create per server, a few at a time (the cloud takes them in parallel; a shared volume that
 * is busy between states is waited out). With compute 2.105 each create maps every volume; on the
 * serial path only the boot volume, the data volumes being attached once the server is ACTIVE.
 */
async function createEach(run: LaunchRun, indices: number[]): Promise<void> {
  const { tracker, cloud, request, timing, log } = run;
  if (indices.length === 0) return;
  const { boot, data } = mappings(request);
  const withData = tracker.launch.strategy === 'multi-create';
  for (const i of indices) tracker.update(i, { state: 'creating' });
  await tracker.save();
  const guarded = [...(boot ? [boot.volumeId] : []), ...(withData ? data.map((d) => d.volumeId) : [])];
  const send = sharedVolumeGate(timing, () => untilReservable(run, guarded));
  await eachLimited(indices, CREATE_CONCURRENCY, async (i) => {
    if (run.stopped()) throw new Stopped();
    const s = tracker.server(i);
    try {
      const { serverId } = await send(
        () =>
          addingWriters(run, guarded, 1, null, () =>
            createServers(cloud, createInput(request, s.name, 1, withData ? data : [])),
          ),
        (attempt) => log.info({ server: i, attempt }, 'volume busy; retrying the create'),
      );
      if (!serverId)
        throw new ApiError(502, 'cloud_error', 'The cloud did not return the server it created.');
      tracker.update(i, { serverId, state: 'building' });
      tracker.announce('servers', [serverId]);
    } catch (err) {
      if (sessionEnded(err)) throw err;
      tracker.fail(i, messageOf(err));
    }
    await tracker.save();
  });
}

// --- Following: one servers listing and one look per shared volume a round ------------------------

interface AttachWait {
  since: number;
  /** Rounds in which neither Nova nor Cinder listed the volume on the server. */
  missing: number;
}

/**
 * Follows the servers until each is active or failed. A round costs one servers listing (by the
 * reservation while a multi-create's ids are unknown, else by the launch's name) and, while
 * attachments are awaited, one read per volume: Cinder lists who holds it. On the serial path it
 * also sends each ACTIVE server's data-volume attaches, a few at a time.
 */
async function follow(run: LaunchRun, targets: number[]): Promise<void> {
  const { tracker, cloud, request, timing, log } = run;
  const { boot, data } = mappings(request);
  const serial = tracker.launch.strategy === 'serial';
  const volumes = [...(boot ? [boot] : []), ...data];
  const deadline = Date.now() + timing.buildTimeoutMs;
  const poll = poller(timing);
  const seen = new Set<string>();
  const waits = new Map<string, AttachWait>();
  const attaching = new Set<Promise<void>>();
  let inFlight = 0;
  /** An attach found the session over: the loop gives up with it. */
  let ended: unknown = null;
  const pendingAttaches: { index: number; volume: VolumeMapping }[] = [];
  const open = () => targets.filter((i) => !isFinal(tracker.server(i)));

  // One gate per data volume: its attaches to the launch's servers reserve it one by one where the cloud asks.
  const gates = new Map<string, ReturnType<typeof sharedVolumeGate>>();
  const gateOf = (volumeId: string) => {
    let gate = gates.get(volumeId);
    if (!gate) {
      gate = sharedVolumeGate(timing, () => untilReservable(run, [volumeId]));
      gates.set(volumeId, gate);
    }
    return gate;
  };
  const startAttaches = () => {
    while (inFlight < ATTACH_CONCURRENCY && pendingAttaches.length > 0) {
      const { index, volume } = pendingAttaches.shift()!;
      const serverId = tracker.server(index).serverId!;
      inFlight++;
      const p = gateOf(volume.volumeId)(
        () =>
          addingWriters(run, [volume.volumeId], 1, serverId, () =>
            attachVolume(cloud, serverId, volume.volumeId, volume.mode),
          ),
        (attempt) => log.info({ server: index, attempt }, 'volume busy; retrying the attach'),
      )
        .then(
          () => {
            waits.set(`${index}/${volume.volumeId}`, { since: Date.now(), missing: 0 });
          },
          (err: unknown) => {
            if (sessionEnded(err)) {
              ended = err;
              return;
            }
            tracker.attachment(index, volume.volumeId, { state: 'failed' });
            tracker.fail(index, `Attaching volume ${volume.volumeId} failed: ${messageOf(err)}`);
          },
        )
        .finally(() => {
          inFlight--;
          attaching.delete(p);
        });
      attaching.add(p);
    }
  };

  while (open().length > 0) {
    if (run.stopped()) throw new Stopped();
    if (ended) throw ended;
    if (Date.now() > deadline) {
      for (const i of open()) tracker.fail(i, 'Timed out waiting for the server to become active.');
      break;
    }
    const progressed = await round(
      run,
      async () => {
        let progressed = false;
        const needIds = open().some((i) => !tracker.server(i).serverId);
        const reservationId = tracker.launch.reservationId;
        const members =
          needIds && reservationId
            ? await listServers(cloud, { reservationId })
            : await listServers(cloud, { name: launchNameFilter(request.name) });
        const byId = new Map(members.map((m) => [m.id, m]));
        if (needIds && reservationId) {
          const taken = new Set(tracker.launch.servers.flatMap((s) => (s.serverId ? [s.serverId] : [])));
          for (const [i, m] of indexMembers(request.name, request.count, members)) {
            if (!tracker.server(i).serverId && !taken.has(m.id)) tracker.update(i, { serverId: m.id });
          }
        }
        const fresh = members.filter((m) => !seen.has(m.id)).map((m) => m.id);
        for (const id of fresh) seen.add(id);
        tracker.announce(
          'servers',
          fresh.filter((id) => tracker.launch.servers.some((s) => s.serverId === id)),
        );

        // Servers the listing did not show (renamed, or deleted meanwhile): one look each.
        const infos = new Map<number, NovaServer | null>();
        for (const i of open()) {
          const id = tracker.server(i).serverId;
          if (!id) continue;
          infos.set(i, byId.get(id) ?? (await findServer(cloud, id)));
        }

        // Cinder says which attachments are complete: one look per volume, not per server.
        const expecting = new Set<string>();
        for (const [i, info] of infos) {
          if (info?.status !== 'ACTIVE') continue;
          for (const a of tracker.server(i).attachments) {
            const isBoot = boot?.volumeId === a.volumeId;
            if (a.state === 'attached' || a.state === 'failed') continue;
            if (!serial || isBoot || waits.has(`${i}/${a.volumeId}`)) expecting.add(a.volumeId);
          }
        }
        const attachedTo = new Map<string, Map<string, string | null>>();
        for (const v of volumes) {
          if (expecting.has(v.volumeId)) attachedTo.set(v.volumeId, await attachedServers(cloud, v.volumeId));
        }

        for (const [i, info] of infos) {
          const s = tracker.server(i);
          if (isFinal(s)) continue;
          if (!info) {
            tracker.fail(i, 'The server was deleted while it was being built.');
            progressed = true;
            continue;
          }
          progressed = applyServer(run, i, info) || progressed;
          if (info.status === 'ERROR') {
            tracker.fail(i, info.fault ?? 'The server went into ERROR.');
            progressed = true;
            continue;
          }
          if (info.status !== 'ACTIVE') continue;
          let all = true;
          for (const a of s.attachments) {
            if (a.state === 'attached') continue;
            const device = attachedTo.get(a.volumeId)?.get(info.id);
            const key = `${i}/${a.volumeId}`;
            if (device !== undefined) {
              tracker.attachment(i, a.volumeId, { state: 'attached', device });
              tracker.announce('attachments', [info.id, a.volumeId]);
              waits.delete(key);
              progressed = true;
              continue;
            }
            all = false;
            if (serial && boot?.volumeId !== a.volumeId && a.state === 'pending') {
              tracker.attachment(i, a.volumeId, { state: 'attaching' });
              pendingAttaches.push({ index: i, volume: { volumeId: a.volumeId, mode: a.mode } });
              progressed = true;
            }
            const wait = waits.get(key);
            if (wait) {
              // From 2.101 Nova answers the attach before trying it; if its mapping disappears, the host gave up.
              wait.missing = info.volumeIds.includes(a.volumeId) ? 0 : wait.missing + 1;
              if (wait.missing >= 2) {
                tracker.attachment(i, a.volumeId, { state: 'failed' });
                tracker.fail(
                  i,
                  `Attaching volume ${a.volumeId} failed: The compute host could not attach the volume.`,
                );
              } else if (Date.now() - wait.since > timing.attachTimeoutMs) {
                tracker.attachment(i, a.volumeId, { state: 'failed' });
                tracker.fail(
                  i,
                  `Attaching volume ${a.volumeId} failed: Timed out waiting for the volume to be attached.`,
                );
              }
            }
          }
          if (isFinal(s)) progressed = true;
          else if (all) {
            tracker.update(i, { state: 'active', error: null });
            progressed = true;
          } else if (s.state !== 'attaching') {
            tracker.update(i, { state: 'attaching' });
            progressed = true;
          }
        }
        startAttaches();
        if (progressed) await tracker.save();
        return progressed;
      },
      false,
    );
    if (open().length > 0) await poll.wait(progressed);
  }
  await Promise.allSettled([...attaching]);
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

function applyServer(run: LaunchRun, index: number, info: NovaServer): boolean {
  const s = run.tracker.server(index);
  const changed = s.status !== info.status || s.serverId !== info.id || s.host !== info.host;
  run.tracker.update(index, { serverId: info.id, status: info.status, host: info.host });
  // Pages showing the server (lists, topology) refresh on this, not on every save of the launch.
  if (changed) run.tracker.announce('servers', [info.id]);
  return changed;
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
