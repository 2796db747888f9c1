import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { AttachMode, Launch, LaunchAction, LaunchPlan, LaunchRequest } from '@sv/shared';
import type { BffConfig } from '../../config.js';
import { writersOf } from '../../openstack/attachments.js';
import { type CinderVolume, findVolume } from '../../openstack/cinder.js';
import { cloudFor, type CloudClient } from '../../openstack/cloud-client.js';
import { findImage } from '../../openstack/glance.js';
import { describeMultiCreate, describeSerial } from '../../openstack/launch-calls.js';
import { OpenStackFault } from '../../openstack/fault.js';
import {
  deleteServer,
  type Flavor,
  findServer,
  listFlavors,
  listServers,
  listZones,
} from '../../openstack/nova.js';
import { adminCapacity, schedulerDryRun } from '../../openstack/capacity.js';
import { computeLimits } from '../../openstack/limits.js';
import { COMPUTE } from '../../openstack/microversions.js';
import { listProjectNetworks, listSecurityGroups } from '../../openstack/neutron.js';
import { findKeyPair } from '../../openstack/nova-keypairs.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import type { ChangeBus } from '../../platform/events.js';
import type { Logger } from '../../platform/logger.js';
import type { SessionData, SessionStore } from '../../platform/session-store.js';
import { MemoryVolumeLock, type VolumeLock } from '../../platform/volume-lock.js';
import {
  type CapacityFound,
  capacityCheck,
  networkProblems,
  quotaChecks,
  securityGroupProblems,
} from './launch.checks.js';
import { isFinal, LaunchTracker } from './launch.progress.js';
import {
  DEFAULT_TIMING,
  type LaunchTiming,
  type LaunchWrites,
  launchNameFilter,
  launchWritersMessage,
  messageOf,
  type RunMode,
  runLaunch,
} from './launch.run.js';
import { type LaunchRecord, type LaunchStore, SqlLaunchStore } from './launch.store.js';

type Problem = LaunchPlan['problems'][number];

/** Launches in PostgreSQL when the BFF keeps its sessions there, else in the embedded SQLite file. */
export function launchStoreFor(config: BffConfig, logger: Logger): LaunchStore {
  return config.sessionDatabaseUrl
    ? SqlLaunchStore.postgres(config.sessionDatabaseUrl, logger)
    : SqlLaunchStore.sqlite(config.databaseFile);
}

/** How a process holds the launches it drives, and how it looks for ones whose process stopped. */
export interface LaunchLeases {
  /** A lease lasts this long unless renewed. */
  leaseMs: number;
  /** Renewed this often. */
  renewMs: number;
  /** Launches left by a stopped process are looked for this often (and at start-up); 0: never. */
  sweepMs: number;
}

export const DEFAULT_LEASES: LaunchLeases = { leaseMs: 30_000, renewMs: 10_000, sweepMs: 15_000 };

/** A plan is reused at start for this long; after it, the cloud is asked again. */
export const PLAN_REUSE_MS = 60_000;

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

/**
 * How many of the servers the cloud can place now: the bundled cloud's dry run; on a real cloud,
 * for an admin, placement's or the hypervisors' figures; for a member nothing (null: unchecked).
 * A failure to count is not a reason to refuse the launch: it is then unchecked too.
 */
async function countCapacity(
  cloud: CloudClient,
  request: LaunchRequest,
  zone: string | undefined,
  flavors: Promise<Flavor[]>,
  volumes: (CinderVolume | null)[],
): Promise<CapacityFound | null> {
  const boot = request.boot;
  const dry = await schedulerDryRun(cloud, {
    flavorId: request.flavorId,
    count: request.count,
    ...(zone ? { availabilityZone: zone } : {}),
    volumeBacked: boot.source === 'volume',
    multiattach: volumes.some((v) => v?.multiattach),
    readOnly:
      (boot.source === 'volume' && boot.mode === 'ro') || request.dataVolumes.some((v) => v.mode === 'ro'),
  }).catch(() => null);
  if (dry) return { source: 'dry-run', answer: dry };
  if (!cloud.session.isAdmin) return null;
  const flavor = (await flavors.catch(() => [])).find((f) => f.id === request.flavorId);
  if (!flavor) return null;
  const size = {
    vcpus: flavor.vcpus,
    ramMb: flavor.ramMb,
    diskGb: boot.source === 'volume' ? 0 : flavor.diskGb,
  };
  return adminCapacity(cloud, size).catch(() => null);
}

/** What every create of the launch carries besides its volumes: networks, groups, key pair. */
function describeJoins(
  request: LaunchRequest,
  networks: { network: { id: string; name: string } }[],
  networkChoice: boolean,
): string {
  const name = (id: string) => networks.find((n) => n.network.id === id)?.network.name || id;
  const nets = Array.isArray(request.networks)
    ? `networks [${request.networks.map((id) => `{uuid: ${id}} (${name(id)})`).join(', ')}]`
    : request.networks === 'none'
      ? 'networks "none" (no port)'
      : networkChoice
        ? `networks "auto" (the project's one network)`
        : "no networks (the cloud picks the project's one network)";
  const groups = request.securityGroups?.length
    ? `security_groups [${request.securityGroups.join(', ')}]`
    : "the project's default security group";
  const key = request.keyName ? `key_name ${request.keyName}` : 'no key pair';
  return `Every POST /servers carries ${nets}, ${groups} and ${key}`;
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
  /** Where a launch's session is found again when another process picks the launch up. */
  sessions?: SessionStore;
  leases?: Partial<LaunchLeases>;
  /** Nova's `[cinder] cross_az_attach` (BFF_CROSS_AZ_ATTACH); true, Nova's default, when not given. */
  crossAzAttach?: boolean;
}) {
  const { store, changes, logger } = deps;
  const crossAzAttach = deps.crossAzAttach ?? true;
  const leases: LaunchLeases = { ...DEFAULT_LEASES, ...deps.leases };
  /** This process, as the owner of the leases it holds. */
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  let stopped = false;
  const isStopped = () => stopped;
  /** The launches this process drives now. */
  const driving = new Set<string>();
  /** Plans made at /plan, by session and request, for start to reuse. */
  const plans = new Map<string, { at: number; plan: LaunchPlan; writes: LaunchWrites }>();
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
    // One round: every look the plan needs goes out at once; only the dry run waits for the volumes.
    const zone = request.availabilityZone?.split(':')[0];
    const volumesFound = Promise.all([
      boot.source === 'volume' ? findVolume(cloud, boot.volumeId) : Promise.resolve(null),
      Promise.all(request.dataVolumes.map((d) => findVolume(cloud, d.volumeId))),
    ] as const);
    const wantsNetworks = request.networks !== 'none';
    const wantsGroups = (request.securityGroups?.length ?? 0) > 0 && request.networks !== 'none';
    const flavorsFound = listFlavors(cloud);
    const [flavors, image, zones, [bootVolume, dataVolumes], networks, groups, keyPair, limits, counted] =
      await Promise.all([
        flavorsFound,
        boot.source === 'image' ? findImage(cloud, boot.imageId) : Promise.resolve(null),
        request.availabilityZone ? listZones(cloud) : Promise.resolve([]),
        volumesFound,
        wantsNetworks ? listProjectNetworks(cloud) : Promise.resolve([]),
        wantsGroups ? listSecurityGroups(cloud) : Promise.resolve([]),
        request.keyName ? findKeyPair(cloud, request.keyName) : Promise.resolve(null),
        computeLimits(cloud).catch((err: unknown) => {
          if (err instanceof OpenStackFault && err.status === 401) throw err;
          return null;
        }),
        // The dry run waits for the volumes only (are they shared?); the flavors only if it is not there.
        volumesFound.then(([b, d]) => countCapacity(cloud, request, zone, flavorsFound, [b, ...d])),
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
    if (zone !== undefined && !zones.some((z) => z.name === zone && z.available)) {
      problems.push({ field: 'availabilityZone', message: `There is no available zone named ${zone}.` });
    }
    const warnings: LaunchPlan['warnings'] = [];
    // Volumes in another zone than the servers: refused where Nova does not attach across zones.
    for (const v of [bootVolume, ...dataVolumes]) {
      if (!v || zone === undefined || !v.availabilityZone || v.availabilityZone === zone) continue;
      const label = v.name ? `Volume ${v.name}` : `Volume ${v.id}`;
      const words = `${label} is in availability zone ${v.availabilityZone} and the servers would be in ${zone}`;
      if (crossAzAttach) warnings.push({ field: 'availabilityZone', message: `${words}.` });
      else {
        problems.push({
          field: 'availabilityZone',
          message: `${words}; this cloud does not attach volumes across zones. Choose zone ${v.availabilityZone}.`,
        });
      }
    }
    problems.push(
      ...networkProblems(request, {
        service: cloud.hasNetwork,
        noneAllowed: cloud.computeHas(COMPUTE.networkChoice),
        projectId: session.project.id,
        isAdmin: session.isAdmin,
        networks,
      }),
      ...securityGroupProblems(request, cloud.hasNetwork, groups),
    );
    if (request.keyName && !keyPair) {
      problems.push({ field: 'keyName', message: `Key pair ${request.keyName} was not found.` });
    }
    const flavor = flavors.find((f) => f.id === request.flavorId) ?? null;
    const quota = limits
      ? quotaChecks(request.count, flavor, limits)
      : { quotas: [], problems: [], maxCount: null };
    if (!limits) {
      warnings.push({
        field: 'count',
        message: "The project's compute quotas could not be read; the cloud checks them at launch.",
      });
    }
    problems.push(...quota.problems);
    const capacity = capacityCheck(request.count, counted, zone);
    problems.push(...capacity.problems);
    warnings.push(...capacity.warnings);
    // The largest count both quotas and capacity allow, offered when the request is above it.
    const allowed = [quota.maxCount, capacity.fits].filter((n): n is number => n !== null);
    const most = allowed.length > 0 ? Math.min(...allowed) : null;
    const maxCount = most !== null && most < request.count && most >= 1 ? most : null;

    const strategy = caps.launchStrategy;
    const bootMapping = boot.source === 'volume' ? { volumeId: boot.volumeId, mode: boot.mode } : null;
    const imageId = boot.source === 'image' ? boot.imageId : null;
    const data = request.dataVolumes.map((d) => ({ volumeId: d.volumeId, mode: d.mode }));
    const requests =
      strategy === 'multi-create'
        ? describeMultiCreate(request.count, bootMapping, imageId, data)
        : describeSerial(cloud, request.count, bootMapping, imageId, data);
    requests.push(describeJoins(request, networks, cloud.computeHas(COMPUTE.networkChoice)));
    return {
      plan: {
        strategy,
        strategyReason: caps.launchStrategyReason,
        requests,
        problems,
        warnings,
        quotas: quota.quotas,
        capacity: capacity.capacity,
        maxCount,
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
      actions: [],
    };
  }

  async function readable(session: SessionData, id: string): Promise<LaunchRecord> {
    const record = await store.get(id);
    // Another project's launch does not exist, as far as this session can tell.
    if (!record || record.projectId !== session.project.id) throw notFound('There is no such launch.');
    return record;
  }

  const planKey = (session: SessionData, request: LaunchRequest) =>
    `${session.id}\n${session.project.id}\n${JSON.stringify(request)}`;

  function keepPlan(key: string, made: { plan: LaunchPlan; writes: LaunchWrites }) {
    const now = Date.now();
    for (const [k, v] of plans) if (now - v.at > PLAN_REUSE_MS || plans.size > 500) plans.delete(k);
    plans.set(key, { at: now, ...made });
  }

  /** Drives a launch this process holds the lease of, in the background. */
  function drive(record: LaunchRecord, session: SessionData, mode: RunMode, after?: () => Promise<void>) {
    const tracker = new LaunchTracker(record, store, changes, logger, isStopped);
    const log = logger.child({ launch: record.launch.id });
    driving.add(record.launch.id);
    const job = runLaunch(
      {
        cloud: cloudFor(session),
        tracker,
        request: record.launch.request,
        timing,
        log,
        writes: writesOf(record.launch),
        volumeLock,
        stopped: isStopped,
      },
      mode,
    )
      .then(async () => {
        if (stopped) return;
        await after?.();
        await store.release(record.launch.id, owner);
      })
      .catch((err: unknown) => log.error({ err }, 'could not finish a launch'))
      .finally(() => {
        driving.delete(record.launch.id);
        running.delete(job);
      });
    running.add(job);
  }

  /** The two-writer rule as the run checks it: the request's acknowledgement stands. */
  function writesOf(launch: Launch): LaunchWrites {
    const r = launch.request;
    const rw = [
      ...(r.boot.source === 'volume' && r.boot.mode === 'rw' ? [r.boot.volumeId] : []),
      ...r.dataVolumes.filter((d) => d.mode === 'rw').map((d) => d.volumeId),
    ];
    return {
      volumeIds: rw,
      acknowledged: r.acknowledgeMultipleWriters,
      labels: new Map(rw.map((id) => [id, `Volume ${id}`])),
    };
  }

  const action = (kind: LaunchAction['kind'], results: LaunchAction['results'] = []): LaunchAction => ({
    kind,
    at: new Date().toISOString(),
    results,
  });

  /** Whose project the launch is in, as a session, for a process that picks the launch up. */
  async function sessionFor(record: LaunchRecord): Promise<SessionData | null> {
    if (!record.sessionId || !deps.sessions) return null;
    const session = await deps.sessions.get(record.sessionId).catch(() => null);
    return session && session.project.id === record.projectId ? session : null;
  }

  /**
   * A launch whose process stopped: taken over by exactly one process (the lease), which goes on
   * with it using the session that started it; without that session (signed out, expired, kept in
   * the memory of the process that stopped), it is marked interrupted with what is known.
   */
  async function pickUp(id: string): Promise<void> {
    if (stopped || !(await store.claim(id, owner, leases.leaseMs))) return;
    const record = await store.get(id);
    if (record?.launch.status !== 'running') {
      await store.release(id, owner);
      return;
    }
    const launch = record.launch;
    const session = await sessionFor(record);
    if (session) {
      launch.actions = [...(launch.actions ?? []), action('resumed')];
      logger.info({ launch: id }, 'picked up a launch whose dashboard process stopped');
      drive(record, session, { kind: 'resume' });
      return;
    }
    const tracker = new LaunchTracker(record, store, changes, logger, isStopped);
    const results: LaunchAction['results'] = [];
    for (const s of launch.servers) {
      if (isFinal(s)) continue;
      const last = s.status ? `; it was last seen ${s.status}` : '';
      tracker.fail(
        s.index,
        s.serverId
          ? `The dashboard stopped while this server was being launched${last}.`
          : 'The dashboard stopped before this server was created.',
      );
      results.push({ index: s.index, name: s.name, serverId: s.serverId, outcome: s.error ?? '', ok: false });
    }
    launch.actions = [...(launch.actions ?? []), action('interrupted', results)];
    launch.status = 'interrupted';
    launch.finishedAt = new Date().toISOString();
    await tracker.save();
    await store.release(id, owner);
    logger.warn({ launch: id }, 'marked a launch interrupted: its session is gone');
  }

  async function sweep(): Promise<void> {
    if (stopped) return;
    try {
      for (const id of await store.orphans(20)) await pickUp(id);
    } catch (err) {
      logger.warn({ err }, 'looking for launches left by a stopped process failed');
    }
  }

  const timers: NodeJS.Timeout[] = [];
  if (leases.sweepMs > 0) {
    const first = setTimeout(() => void sweep(), 0);
    first.unref();
    const every = setInterval(() => void sweep(), leases.sweepMs);
    every.unref();
    timers.push(first, every);
  }
  const renew = setInterval(() => {
    if (driving.size === 0 || stopped) return;
    store
      .renew(owner, [...driving], leases.leaseMs)
      .catch((err: unknown) => logger.warn({ err }, 'could not renew the leases of running launches'));
  }, leases.renewMs);
  renew.unref();
  timers.push(renew);

  /** A launch that has ended, for the actions on its failed servers. */
  async function settled(session: SessionData, id: string): Promise<LaunchRecord> {
    const record = await readable(session, id);
    if (record.launch.status === 'running' || driving.has(id)) {
      throw conflict('conflict', 'The launch is still running; wait until it ends.');
    }
    return record;
  }

  /** A deleted server's row in a servers listing is gone (or DELETED) once the cloud has let it go. */
  async function confirmDeleted(session: SessionData, record: LaunchRecord): Promise<void> {
    const cloud = cloudFor(session);
    const deadline = Date.now() + timing.buildTimeoutMs;
    const poll = { delay: timing.pollMinMs };
    const launch = record.launch;
    const tracker = new LaunchTracker(record, store, changes, logger, isStopped);
    const last = launch.actions?.at(-1);
    for (;;) {
      const waiting = launch.servers.filter((s) => s.removal === 'deleting' && s.serverId);
      if (waiting.length === 0 || stopped) return;
      const listed = await listServers(cloud, { name: launchNameFilter(launch.request.name) }).catch(
        () => null,
      );
      if (listed) {
        const present = new Set(listed.filter((m) => m.status !== 'DELETED').map((m) => m.id));
        for (const s of waiting) {
          if (present.has(s.serverId!)) continue;
          s.removal = 'deleted';
          const r = last?.results.find((x) => x.index === s.index);
          if (r) r.outcome = 'Deleted';
        }
        tracker.announce(
          'servers',
          waiting.map((s) => s.serverId!),
        );
        await tracker.save();
      }
      if (Date.now() > deadline) return;
      await new Promise((r) => setTimeout(r, poll.delay));
      poll.delay = Math.min(timing.pollMaxMs, Math.ceil(poll.delay * 1.5));
    }
  }

  return {
    async plan(session: SessionData, request: LaunchRequest): Promise<LaunchPlan> {
      const made = await analyse(cloudFor(session), request);
      if (made.plan.ok) keepPlan(planKey(session, request), made);
      return made.plan;
    },

    /**
     * Checks the plan (the one /plan made for this request, when it is recent; else a new one),
     * records the launch and starts it; the caller answers at once.
     */
    async start(session: SessionData, request: LaunchRequest): Promise<Launch> {
      const key = planKey(session, request);
      const kept = plans.get(key);
      plans.delete(key);
      const { plan, writes } =
        kept && Date.now() - kept.at <= PLAN_REUSE_MS ? kept : await analyse(cloudFor(session), request);
      if (!plan.ok) {
        const fields: Record<string, string> = {};
        for (const p of plan.problems) fields[p.field] ??= p.message;
        throw badRequest('launch_not_possible', plan.problems[0]?.message ?? 'This launch cannot run.', {
          fields,
          problems: plan.problems,
        });
      }
      const launch = initialLaunch(session, request, plan.strategy);
      const record: LaunchRecord = {
        launch,
        projectId: session.project.id,
        userId: session.user.id,
        sessionId: session.id,
      };
      await store.save(record, { owner, leaseMs: leases.leaseMs });
      const started = structuredClone(launch);
      const tracker = new LaunchTracker(record, store, changes, logger, isStopped);
      tracker.announce('launch', [launch.id]);
      const log = logger.child({ launch: launch.id });
      driving.add(launch.id);
      const job = runLaunch({
        cloud: cloudFor(session),
        tracker,
        request,
        timing,
        log,
        writes,
        volumeLock,
        stopped: isStopped,
      })
        .then(() => (stopped ? undefined : store.release(launch.id, owner)))
        .catch((err: unknown) => log.error({ err }, 'could not finish a launch'))
        .finally(() => {
          driving.delete(launch.id);
          running.delete(job);
        });
      running.add(job);
      return started;
    },

    async get(session: SessionData, id: string): Promise<Launch> {
      return (await readable(session, id)).launch;
    },

    async list(session: SessionData, limit = 50): Promise<Launch[]> {
      return (await store.list(session.project.id, limit)).map((r) => r.launch);
    },

    /**
     * "Delete the failed servers": every failed server the cloud still has is deleted; each
     * one's outcome is on the launch's newest action, and its row says `deleting` until the
     * cloud has let it go.
     */
    async deleteFailed(session: SessionData, id: string): Promise<Launch> {
      const record = await settled(session, id);
      const launch = record.launch;
      const doomed = launch.servers.filter(
        (s) => s.state === 'failed' && s.serverId && s.removal !== 'deleted',
      );
      if (doomed.length === 0)
        throw conflict('conflict', 'No failed server of this launch is left to delete.');
      const cloud = cloudFor(session);
      const results: LaunchAction['results'] = [];
      await Promise.all(
        doomed.map(async (s) => {
          const base = { index: s.index, name: s.name, serverId: s.serverId };
          try {
            await deleteServer(cloud, s.serverId!);
            s.removal = 'deleting';
            results.push({ ...base, outcome: 'Deleting', ok: true });
          } catch (err) {
            if (err instanceof OpenStackFault && err.status === 404) {
              s.removal = 'deleted';
              results.push({ ...base, outcome: 'Already gone', ok: true });
            } else results.push({ ...base, outcome: messageOf(err), ok: false });
          }
        }),
      );
      results.sort((a, b) => a.index - b.index);
      launch.actions = [...(launch.actions ?? []), action('delete-failed', results)];
      const tracker = new LaunchTracker(record, store, changes, logger, isStopped);
      tracker.announce(
        'servers',
        doomed.map((s) => s.serverId!),
      );
      await tracker.save();
      const follow = confirmDeleted(session, record)
        .catch((err: unknown) => logger.warn({ err, launch: id }, 'could not confirm deleted servers'))
        .finally(() => running.delete(follow));
      running.add(follow);
      return structuredClone(launch);
    },

    /**
     * "Retry the failed ones": each failed server is looked at again. One that is ACTIVE with its
     * volumes after all counts as active; the others are deleted (if the cloud still has them) and
     * created again with the launch's plan (name, flavor, volumes and modes), then followed as the
     * launch was. The launch runs again until they settle.
     */
    async retryFailed(session: SessionData, id: string): Promise<Launch> {
      const record = await settled(session, id);
      const launch = record.launch;
      const failed = launch.servers.filter((s) => s.state === 'failed');
      if (failed.length === 0) throw conflict('conflict', 'No server of this launch has failed.');
      if (!(await store.claim(id, owner, leases.leaseMs))) {
        throw conflict('conflict', 'Another dashboard process is working on this launch.');
      }
      const cloud = cloudFor(session);
      const results: LaunchAction['results'] = [];
      const again: number[] = [];
      for (const s of failed) {
        const base = { index: s.index, name: s.name, serverId: s.serverId };
        const info = s.serverId && s.removal !== 'deleted' ? await findServer(cloud, s.serverId) : null;
        const volumes = info?.status === 'ACTIVE' ? new Set(info.volumeIds) : null;
        if (volumes && s.attachments.every((a) => volumes.has(a.volumeId))) {
          s.state = 'active';
          s.status = 'ACTIVE';
          s.error = null;
          for (const a of s.attachments) a.state = 'attached';
          results.push({ ...base, outcome: 'Was active with its volumes after all', ok: true });
          continue;
        }
        if (info) {
          try {
            await deleteServer(cloud, info.id);
          } catch (err) {
            if (!(err instanceof OpenStackFault && err.status === 404)) {
              results.push({
                ...base,
                outcome: `Could not delete it to retry: ${messageOf(err)}`,
                ok: false,
              });
              continue;
            }
          }
        }
        Object.assign(s, {
          serverId: null,
          state: 'pending',
          status: null,
          host: null,
          error: null,
          removal: null,
        });
        for (const a of s.attachments) Object.assign(a, { state: 'pending', device: null });
        again.push(s.index);
        results.push({
          ...base,
          outcome: info ? 'Deleted; creating it again' : 'Creating it again',
          ok: true,
        });
      }
      results.sort((a, b) => a.index - b.index);
      const retry = action('retry-failed', results);
      launch.actions = [...(launch.actions ?? []), retry];
      record.sessionId = session.id;
      launch.finishedAt = null;
      const tracker = new LaunchTracker(record, store, changes, logger, isStopped);
      if (again.length === 0) {
        tracker.finish();
        await tracker.save();
        await store.release(id, owner);
        return structuredClone(launch);
      }
      launch.status = 'running';
      await tracker.save();
      drive(record, session, { kind: 'retry', indices: again }, async () => {
        // Say how each re-created server ended.
        for (const r of retry.results) {
          const s = launch.servers[r.index];
          if (!s || !again.includes(r.index)) continue;
          r.serverId = s.serverId;
          r.ok = s.state === 'active';
          r.outcome = r.ok
            ? 'Created again; active'
            : `Created again, but failed: ${s.error ?? 'no reason given'}`;
        }
        await tracker.save();
      });
      return structuredClone(launch);
    },

    /** Looks once for launches whose process stopped, and picks them up (tests; also on a timer). */
    sweep,

    /** Resolves when every launch this process drives has finished (tests, shutdown). */
    async idle(): Promise<void> {
      while (running.size > 0) await Promise.allSettled([...running]);
    },

    /**
     * Stops driving launches (shutdown, or a test's stand-in for a crash): nothing more is sent
     * or saved; with `release`, the leases are let go so another process picks the launches up
     * at once, else they run out.
     */
    async stop(opts: { release?: boolean } = {}): Promise<void> {
      stopped = true;
      for (const t of timers) clearInterval(t);
      const held = [...driving];
      await Promise.allSettled([...running]);
      if (opts.release) await Promise.allSettled(held.map((id) => store.release(id, owner)));
    },

    async close(): Promise<void> {
      if (!stopped) await this.stop({ release: true });
      await store.close();
    },
  };
}

export type LaunchService = ReturnType<typeof launchService>;
