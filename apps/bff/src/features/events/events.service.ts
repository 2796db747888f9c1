import type { ChangeEvent } from '@sv/shared';
import { listVolumes } from '../../openstack/cinder.js';
import { cloudFor } from '../../openstack/cloud-client.js';
import { OpenStackFault } from '../../openstack/fault.js';
import { listServers } from '../../openstack/nova.js';
import { ApiError } from '../../platform/errors.js';
import type { ChangeBus } from '../../platform/events.js';
import type { Logger } from '../../platform/logger.js';
import { backgroundScope, outsideRequest, runInRequest } from '../../platform/request-id.js';
import type { SessionData } from '../../platform/session-store.js';

/**
 * Live updates. Changes made through this BFF reach the ChangeBus at once; changes made elsewhere
 * (another BFF, the openstack CLI, the cloud's own background work) are found by polling the cloud
 * cheaply while someone is listening, and published on the same bus.
 */

/** What a stream listens to: one project, or for admins the whole cloud. */
export const scopeOf = (session: SessionData): string => (session.isAdmin ? '*' : session.project.id);

interface Mark {
  projectId: string | null;
  /** Everything a listing shows that the dashboard draws, except attachments. */
  fingerprint: string;
  /** The other side of each attachment (volume ids of a server, server ids of a volume). */
  holds: string[];
}

export interface Snapshot {
  servers: Map<string, Mark>;
  volumes: Map<string, Mark>;
}

export interface Change {
  projectId: string | null;
  kind: ChangeEvent['kind'];
  ids: string[];
}

/** Two listings of the cloud → which servers, volumes and attachments changed, per project. */
export function diffSnapshots(before: Snapshot, after: Snapshot): Change[] {
  const changes = new Map<string, Change>();
  const note = (kind: ChangeEvent['kind'], projectId: string | null, ids: string[]) => {
    const key = `${kind}/${projectId ?? ''}`;
    const c = changes.get(key) ?? { kind, projectId, ids: [] };
    for (const id of ids) if (!c.ids.includes(id)) c.ids.push(id);
    changes.set(key, c);
  };
  const compare = (kind: 'servers' | 'volumes', a: Map<string, Mark>, b: Map<string, Mark>) => {
    for (const id of new Set([...a.keys(), ...b.keys()])) {
      const was = a.get(id);
      const now = b.get(id);
      const projectId = (now ?? was)?.projectId ?? null;
      if (was?.fingerprint !== now?.fingerprint) note(kind, projectId, [id]);
      const before = new Set(was?.holds ?? []);
      const after = new Set(now?.holds ?? []);
      const moved = [...before].filter((x) => !after.has(x)).concat([...after].filter((x) => !before.has(x)));
      if (moved.length > 0) note('attachments', projectId, [id, ...moved]);
    }
  };
  compare('servers', before.servers, after.servers);
  compare('volumes', before.volumes, after.volumes);
  const order = { servers: 0, volumes: 1, attachments: 2, launch: 3 };
  return [...changes.values()].sort((x, y) => order[x.kind] - order[y.kind]);
}

/** One cheap look at the cloud: servers detail and volumes detail, reduced to fingerprints. */
export async function snapshotOf(session: SessionData): Promise<Snapshot> {
  const cloud = cloudFor(session);
  const all = session.isAdmin ? { allProjects: true } : {};
  const [servers, volumes] = await Promise.all([listServers(cloud, all), listVolumes(cloud, all)]);
  const own = session.project.id;
  return {
    servers: new Map(
      servers.map((s) => [
        s.id,
        {
          projectId: s.projectId ?? own,
          fingerprint: [s.name, s.status, s.taskState, s.host ?? s.hostId].join('|'),
          holds: [...s.volumeIds].sort(),
        },
      ]),
    ),
    volumes: new Map(
      volumes.map((v) => [
        v.id,
        {
          projectId: v.projectId ?? own,
          fingerprint: [v.name, v.status, v.sizeGb, v.multiattach, v.bootable].join('|'),
          holds: v.attachments.map((a) => a.serverId).sort(),
        },
      ]),
    ),
  };
}

interface Listener {
  session: SessionData;
  /** Called when the session's token stops working: the stream should end. */
  expired: () => void;
}

interface Watch {
  listeners: Map<number, Listener>;
  last: Snapshot | null;
  timer: NodeJS.Timeout | null;
}

/**
 * One poller per scope (a project, or '*' for admins), running only while at least one stream of
 * that scope is open. It reads with the newest listener's token; diffs go on the bus, where every
 * stream of the scope (and the admins' '*') picks them up.
 */
export class CloudWatcher {
  readonly #watches = new Map<string, Watch>();
  #next = 0;

  constructor(
    private readonly bus: ChangeBus,
    private readonly log: Logger | null,
    private readonly pollMs: number,
    private readonly snapshot: (session: SessionData) => Promise<Snapshot> = snapshotOf,
  ) {}

  /** Starts (or joins) the poller for the session's scope; returns the function that leaves it. */
  watch(session: SessionData, expired: () => void): () => void {
    const scope = scopeOf(session);
    let watch = this.#watches.get(scope);
    if (!watch) {
      watch = { listeners: new Map(), last: null, timer: null };
      this.#watches.set(scope, watch);
    }
    const id = this.#next++;
    watch.listeners.set(id, { session, expired });
    if (!watch.timer) this.#schedule(scope, watch, 0);
    return () => this.#leave(scope, id);
  }

  /** Scopes being polled now (for tests and diagnostics). */
  get activeScopes(): string[] {
    return [...this.#watches.keys()];
  }

  #leave(scope: string, id: number): void {
    const watch = this.#watches.get(scope);
    if (!watch) return;
    watch.listeners.delete(id);
    if (watch.listeners.size === 0) {
      if (watch.timer) clearTimeout(watch.timer);
      this.#watches.delete(scope);
    }
  }

  #schedule(scope: string, watch: Watch, delay: number): void {
    // Each look is its own unit of work, not part of the stream request that happened to start the poller.
    const look = () => void this.#poll(scope, watch);
    watch.timer = setTimeout(
      () => (this.log ? runInRequest(backgroundScope(this.log, 'watch-cloud'), look) : outsideRequest(look)),
      delay,
    );
    watch.timer.unref();
  }

  async #poll(scope: string, watch: Watch): Promise<void> {
    const entry = [...watch.listeners.entries()].at(-1);
    if (!entry) return;
    const [id, listener] = entry;
    try {
      const next = await this.snapshot(listener.session);
      if (watch.last) {
        for (const c of diffSnapshots(watch.last, next)) {
          this.bus.publish(c.projectId ?? listener.session.project.id, c.kind, c.ids);
        }
      }
      watch.last = next;
    } catch (err) {
      if (isExpired(err)) {
        this.#leave(scope, id);
        listener.expired();
      } else {
        // A blip (cloud restarting, network): keep the streams open and try again.
        this.log?.warn({ err, scope }, 'watching the cloud for changes failed');
      }
    }
    if (this.#watches.get(scope) === watch && watch.listeners.size > 0)
      this.#schedule(scope, watch, this.pollMs);
  }
}

const isExpired = (err: unknown) =>
  (err instanceof OpenStackFault && err.status === 401) ||
  (err instanceof ApiError && err.code === 'session_expired');
