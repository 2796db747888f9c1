import type { ChangeEvent, Launch, LaunchServerProgress } from '@sv/shared';
import type { Logger } from '../../platform/logger.js';
import type { ChangeBus } from '../../platform/events.js';
import type { LaunchRecord, LaunchStore } from './launch.store.js';

type ServerPatch = Partial<Omit<LaunchServerProgress, 'index' | 'attachments'>>;

const FINAL = new Set<LaunchServerProgress['state']>(['active', 'failed']);
export const isFinal = (s: LaunchServerProgress) => FINAL.has(s.state);

/**
 * One launch's progress as the runner changes it: every change is saved (in order) and
 * announced, so a page polling this or another BFF process sees it, and a server id is on
 * record the moment the cloud hands it out.
 */
export class LaunchTracker {
  #writes: Promise<void> = Promise.resolve();

  constructor(
    readonly record: LaunchRecord,
    private readonly store: LaunchStore,
    private readonly changes: ChangeBus,
    private readonly log: Logger,
    /** True once this process stops driving launches: nothing more is written. */
    private readonly stopped: () => boolean = () => false,
  ) {}

  get launch(): Launch {
    return this.record.launch;
  }

  server(index: number): LaunchServerProgress {
    const s = this.launch.servers[index];
    if (!s) throw new Error(`launch ${this.launch.id} has no server ${index}`);
    return s;
  }

  update(index: number, patch: ServerPatch): void {
    Object.assign(this.server(index), patch);
  }

  attachment(index: number, volumeId: string, patch: { state?: string; device?: string | null }) {
    const a = this.server(index).attachments.find((x) => x.volumeId === volumeId);
    if (a) Object.assign(a, patch);
  }

  fail(index: number, error: string): void {
    const s = this.server(index);
    if (isFinal(s)) return;
    s.state = 'failed';
    s.error = error;
    for (const a of s.attachments) if (a.state !== 'attached') a.state = 'failed';
  }

  /** Marks every server not yet settled as failed (the session ended, the wait ran out...). */
  failRest(error: string): void {
    for (const s of this.launch.servers) this.fail(s.index, error);
  }

  announce(kind: ChangeEvent['kind'], ids: string[]): void {
    if (ids.length > 0) this.changes.publish(this.record.projectId, kind, ids);
  }

  /** Settles the launch's status once every server is active or failed. */
  finish(): void {
    const servers = this.launch.servers;
    if (!servers.every(isFinal)) return;
    const active = servers.filter((s) => s.state === 'active').length;
    this.launch.status = active === servers.length ? 'succeeded' : active === 0 ? 'failed' : 'partial';
    this.launch.finishedAt = new Date().toISOString();
  }

  /** Saves the launch as it is now; writes never overtake each other. */
  save(): Promise<void> {
    if (this.stopped()) return this.#writes;
    this.launch.summary = summarise(this.launch);
    const snapshot = structuredClone(this.record);
    this.#writes = this.#writes
      .then(() => this.store.save(snapshot))
      .catch((err: unknown) =>
        this.log.error({ err, launch: snapshot.launch.id }, 'could not save a launch'),
      );
    this.announce('launch', [this.launch.id]);
    return this.#writes;
  }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function summarise(launch: Launch): string {
  const n = launch.servers.length;
  const active = launch.servers.filter((s) => s.state === 'active').length;
  const failed = launch.servers.filter((s) => s.state === 'failed');
  const firstError = failed.find((s) => s.error)?.error;
  switch (launch.status) {
    case 'succeeded':
      return n === 1 ? 'The server is active.' : `All ${n} servers are active.`;
    case 'interrupted':
      return `Interrupted: the dashboard stopped while this launch ran and could not continue it. ${active} of ${plural(n, 'server')} active when it stopped; retry the failed ones to finish it.`;
    case 'failed':
      return `No server could be launched${firstError ? `: ${firstError}` : '.'}`;
    case 'partial':
      return `${active} of ${plural(n, 'server')} active; ${failed.length} failed${firstError ? ` (${firstError})` : ''}.`;
    default: {
      const parts = [`${active} of ${plural(n, 'server')} active`];
      if (failed.length > 0) parts.push(`${failed.length} failed`);
      const busy = n - active - failed.length;
      if (busy > 0) parts.push(`${busy} in progress`);
      return `${parts.join(', ')}.`;
    }
  }
}
