import { randomUUID } from 'node:crypto';
import type { AttachMode, Launch, LaunchPlan, LaunchRequest } from '@sv/shared';
import type { BffConfig } from '../../config.js';
import { writersOf } from '../../openstack/attachments.js';
import { type CinderVolume, findVolume } from '../../openstack/cinder.js';
import { cloudFor, type CloudClient } from '../../openstack/cloud-client.js';
import { findImage } from '../../openstack/glance.js';
import { describeMultiCreate, describeSerial } from '../../openstack/launch-calls.js';
import { listFlavors, listZones } from '../../openstack/nova.js';
import { badRequest, notFound } from '../../platform/errors.js';
import type { ChangeBus } from '../../platform/events.js';
import type { Logger } from '../../platform/logger.js';
import type { SessionData } from '../../platform/session-store.js';
import { MemoryVolumeLock, type VolumeLock } from '../../platform/volume-lock.js';
import { LaunchTracker } from './launch.progress.js';
import {
  DEFAULT_TIMING,
  type LaunchTiming,
  type LaunchWrites,
  launchWritersMessage,
  runLaunch,
} from './launch.run.js';
import { type LaunchStore, MemoryLaunchStore, PgLaunchStore } from './launch.store.js';

type Problem = LaunchPlan['problems'][number];

/** Launch state in PostgreSQL when the BFF keeps its sessions there, else in memory. */
export function launchStoreFor(config: BffConfig, logger: Logger): LaunchStore {
  return config.sessionDatabaseUrl
    ? new PgLaunchStore(config.sessionDatabaseUrl, logger)
    : new MemoryLaunchStore();
}

/** The shared volumes a launch maps read-write, with their names for messages. */
function sharedWrites(
  request: LaunchRequest,
  bootVolume: CinderVolume | null,
  dataVolumes: (CinderVolume | null)[],
): LaunchWrites {
  const picks = [
    ...(request.boot.source === 'volume' ? [{ mode: request.boot.mode, volume: bootVolume }] : []),
    ...request.dataVolumes.map((d, i) => ({ mode: d.mode, volume: dataVolumes[i] ?? null })),
  ];
  const shared = picks.flatMap((p) => (p.volume?.multiattach && p.mode === 'rw' ? [p.volume] : []));
  return {
    volumeIds: shared.map((v) => v.id),
    acknowledged: request.acknowledgeMultipleWriters,
    labels: new Map(shared.map((v) => [v.id, v.name ? `Volume ${v.name}` : `Volume ${v.id}`])),
  };
}

/** Statuses a volume may be in for one more server to take it. */
const SHARED_OK = new Set(['available', 'in-use', 'reserved', 'attaching']);

/**
 * Launching N servers on shared volumes: the plan (what will happen, what stands in the way),
 * the launch itself run in the background, and reading its progress.
 */
export function launchService(deps: {
  store: LaunchStore;
  changes: ChangeBus;
  logger: Logger;
  timing?: Partial<LaunchTiming>;
  /** The section attaches take; alone, the service keeps its own. */
  volumeLock?: VolumeLock;
}) {
  const { store, changes, logger } = deps;
  const volumeLock = deps.volumeLock ?? new MemoryVolumeLock();
  const timing: LaunchTiming = { ...DEFAULT_TIMING, ...deps.timing };
  const running = new Set<Promise<void>>();

  function checkVolume(
    problems: Problem[],
    field: string,
    id: string,
    mode: AttachMode,
    v: CinderVolume | null,
    request: LaunchRequest,
    session: SessionData,
    boot: boolean,
  ) {
    const caps = session.capabilities;
    if (!v) {
      problems.push({ field: `${field}.volumeId`, message: `Volume ${id} was not found in this project.` });
      return;
    }
    const label = v.name ? `Volume ${v.name}` : `Volume ${v.id}`;
    if (boot && !v.bootable)
      problems.push({ field: `${field}.volumeId`, message: `${label} is not bootable.` });
    if (v.multiattach && !caps.multiattach) {
      problems.push({
        field: `${field}.volumeId`,
        message: `${label} is shared, and this cloud's compute API (${caps.compute.maxVersion}) attaches shared volumes only from 2.60.`,
      });
    }
    if (!v.multiattach && request.count > 1) {
      problems.push({
        field: `${field}.volumeId`,
        message: `${label} is not a shared (multiattach) volume, so only one server can use it. Launch 1 server or choose a shared volume.`,
      });
    }
    if (v.multiattach ? !SHARED_OK.has(v.status) : v.status !== 'available') {
      problems.push({
        field: `${field}.volumeId`,
        message:
          v.status === 'in-use'
            ? `${label} is attached to another server and is not shared.`
            : `${label} is ${v.status}; it must be available${v.multiattach ? ' or in use' : ''}.`,
      });
    }
    if (mode === 'ro' && !caps.readOnlyAttach.available) {
      problems.push({
        field: `${field}.mode`,
        message: caps.readOnlyAttach.reason ?? 'This cloud cannot attach volumes read-only.',
      });
    }
  }

  /**
   * The two-writer rule, predicted for the plan: read-write on a shared volume by more than one
   * server in all (this launch's and its present writers) needs the acknowledgement. The run
   * checks it again inside the volume's section when it adds the holders.
   */
  async function writerProblems(
    cloud: CloudClient,
    request: LaunchRequest,
    writes: LaunchWrites,
  ): Promise<Problem[]> {
    if (request.acknowledgeMultipleWriters || writes.volumeIds.length === 0) return [];
    // With several servers the answer is known without asking.
    const existing = await Promise.all(
      writes.volumeIds.map((id) => (request.count > 1 ? [] : writersOf(cloud, id))),
    );
    return writes.volumeIds.flatMap((id, i) => {
      const names = (existing[i] ?? []).map((w) => w.serverName ?? w.serverId);
      if (request.count + names.length <= 1) return [];
      return [
        {
          field: 'acknowledgeMultipleWriters',
          message: launchWritersMessage(writes.labels.get(id) ?? `Volume ${id}`, request.count, names),
        },
      ];
    });
  }

  async function analyse(
    cloud: CloudClient,
    request: LaunchRequest,
  ): Promise<{ plan: LaunchPlan; writes: LaunchWrites }> {
    const session = cloud.session;
    const caps = session.capabilities;
    const problems: Problem[] = [];
    const boot = request.boot;
    const [flavors, image, zones, bootVolume, dataVolumes] = await Promise.all([
      listFlavors(cloud),
      boot.source === 'image' ? findImage(cloud, boot.imageId) : Promise.resolve(null),
      request.availabilityZone ? listZones(cloud) : Promise.resolve([]),
      boot.source === 'volume' ? findVolume(cloud, boot.volumeId) : Promise.resolve(null),
      Promise.all(request.dataVolumes.map((d) => findVolume(cloud, d.volumeId))),
    ]);
    if (!flavors.some((f) => f.id === request.flavorId)) {
      problems.push({ field: 'flavorId', message: `Flavor ${request.flavorId} was not found.` });
    }
    if (boot.source === 'image') {
      if (!image) problems.push({ field: 'boot.imageId', message: `Image ${boot.imageId} was not found.` });
      else if (image.status !== 'active') {
        problems.push({
          field: 'boot.imageId',
          message: `Image ${image.name || image.id} is ${image.status}, not active.`,
        });
      }
    } else {
      checkVolume(problems, 'boot', boot.volumeId, boot.mode, bootVolume, request, session, true);
    }
    request.dataVolumes.forEach((d, i) => {
      checkVolume(
        problems,
        `dataVolumes.${i}`,
        d.volumeId,
        d.mode,
        dataVolumes[i] ?? null,
        request,
        session,
        false,
      );
    });
    const writes = sharedWrites(request, bootVolume, dataVolumes);
    problems.push(...(await writerProblems(cloud, request, writes)));
    // An admin's `zone:host` names a host in the zone.
    const zone = request.availabilityZone?.split(':')[0];
    if (zone !== undefined && !zones.some((z) => z.name === zone && z.available)) {
      problems.push({ field: 'availabilityZone', message: `There is no available zone named ${zone}.` });
    }

    const strategy = caps.launchStrategy;
    const bootMapping = boot.source === 'volume' ? { volumeId: boot.volumeId, mode: boot.mode } : null;
    const imageId = boot.source === 'image' ? boot.imageId : null;
    const data = request.dataVolumes.map((d) => ({ volumeId: d.volumeId, mode: d.mode }));
    const requests =
      strategy === 'multi-create'
        ? describeMultiCreate(request.count, bootMapping, imageId, data)
        : describeSerial(cloud, request.count, bootMapping, imageId, data);
    return {
      plan: {
        strategy,
        strategyReason: caps.launchStrategyReason,
        requests,
        problems,
        ok: problems.length === 0,
      },
      writes,
    };
  }

  function initialLaunch(session: SessionData, request: LaunchRequest, strategy: Launch['strategy']): Launch {
    const volumes = [
      ...(request.boot.source === 'volume'
        ? [{ volumeId: request.boot.volumeId, mode: request.boot.mode }]
        : []),
      ...request.dataVolumes,
    ];
    return {
      id: randomUUID(),
      strategy,
      status: 'running',
      request,
      reservationId: null,
      servers: Array.from({ length: request.count }, (_, index) => ({
        index,
        // Nova's own naming for a multi-create, used by the serial path too.
        name: request.count > 1 ? `${request.name}-${index + 1}` : request.name,
        serverId: null,
        state: 'pending' as const,
        status: null,
        host: null,
        attachments: volumes.map((v) => ({
          volumeId: v.volumeId,
          mode: v.mode,
          state: 'pending',
          device: null,
        })),
        error: null,
      })),
      startedAt: new Date().toISOString(),
      finishedAt: null,
      summary: session.capabilities.launchStrategyReason,
    };
  }

  async function readable(session: SessionData, id: string) {
    const record = await store.get(id);
    // Another project's launch does not exist, as far as this session can tell.
    if (!record || record.projectId !== session.project.id) throw notFound('There is no such launch.');
    return record.launch;
  }

  return {
    async plan(session: SessionData, request: LaunchRequest): Promise<LaunchPlan> {
      return (await analyse(cloudFor(session), request)).plan;
    },

    /** Checks the plan, records the launch and starts it; the caller answers at once. */
    async start(session: SessionData, request: LaunchRequest): Promise<Launch> {
      const cloud = cloudFor(session);
      const { plan, writes } = await analyse(cloud, request);
      if (!plan.ok) {
        const fields: Record<string, string> = {};
        for (const p of plan.problems) fields[p.field] ??= p.message;
        throw badRequest('launch_not_possible', plan.problems[0]?.message ?? 'This launch cannot run.', {
          fields,
          problems: plan.problems,
        });
      }
      const launch = initialLaunch(session, request, plan.strategy);
      const tracker = new LaunchTracker(
        { launch, projectId: session.project.id, userId: session.user.id },
        store,
        changes,
        logger,
      );
      await tracker.save();
      const log = logger.child({ launch: launch.id });
      const job = runLaunch({ cloud, tracker, request, timing, log, writes, volumeLock }).finally(() =>
        running.delete(job),
      );
      running.add(job);
      return structuredClone(launch);
    },

    get: readable,

    async list(session: SessionData, limit = 20): Promise<Launch[]> {
      return (await store.list(session.project.id, limit)).map((r) => r.launch);
    },

    /** Resolves when every launch this process drives has finished (tests, shutdown). */
    async idle(): Promise<void> {
      while (running.size > 0) await Promise.allSettled([...running]);
    },

    close: () => store.close(),
  };
}

export type LaunchService = ReturnType<typeof launchService>;
