import type { BulkDetachRequest, DetachOutcome } from '@sv/shared';
import { findVolume } from '../../openstack/cinder.js';
import { type CloudClient, cloudFor } from '../../openstack/cloud-client.js';
import { OpenStackFault, toApiError } from '../../openstack/fault.js';
import { detachVolume } from '../../openstack/nova.js';
import { ApiError } from '../../platform/errors.js';
import type { ChangeBus } from '../../platform/events.js';
import type { SessionData } from '../../platform/session-store.js';

export interface BulkDetachOptions {
  /** How long to wait for one detach to finish before moving on (it then reads `detaching`). */
  settleMs?: number;
  /** How often to look at the volume meanwhile. */
  pollMs?: number;
  /** Volumes worked on at once (each volume's detaches still run one after another). */
  concurrency?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Detaching several attachments in one request. Cinder refuses to begin a detach while the volume
 * is `detaching` ("Volume status must be 'in-use' …"), so the detaches of one volume run one after
 * another, each waited for; different volumes go in parallel, a few at a time. Detach adds no
 * holder, so it takes no volume lock (that guards the two-writer rule of attach) and an attach
 * waiting on one never waits for a whole batch.
 */
export function bulkDetachService(changes: ChangeBus, opts: BulkDetachOptions = {}) {
  const settleMs = opts.settleMs ?? 30_000;
  const pollMs = opts.pollMs ?? 250;
  const concurrency = opts.concurrency ?? 3;

  /** Until the server no longer holds the volume and the volume left `detaching`, or the wait ends. */
  async function settled(cloud: CloudClient, serverId: string, volumeId: string): Promise<boolean> {
    const deadline = Date.now() + settleMs;
    for (;;) {
      const v = await findVolume(cloud, volumeId);
      if (!v || (v.status !== 'detaching' && !v.attachments.some((a) => a.serverId === serverId)))
        return true;
      if (Date.now() >= deadline) return false;
      await sleep(pollMs);
    }
  }

  async function detachOne(
    cloud: CloudClient,
    item: BulkDetachRequest['items'][number],
  ): Promise<DetachOutcome> {
    const base = { serverId: item.serverId, volumeId: item.volumeId };
    try {
      await detachVolume(cloud, item.serverId, item.volumeId);
    } catch (err) {
      // A signed-out session ends the batch; any other refusal is this attachment's outcome.
      const apiError = err instanceof OpenStackFault ? toApiError(err) : err;
      if (apiError instanceof ApiError && apiError.status !== 401 && apiError.status < 500) {
        return { ...base, outcome: 'refused', code: apiError.code, message: apiError.message };
      }
      throw err;
    }
    const done = await settled(cloud, item.serverId, item.volumeId);
    return { ...base, outcome: done ? 'detached' : 'detaching', code: null, message: null };
  }

  return {
    async detach(session: SessionData, input: BulkDetachRequest): Promise<DetachOutcome[]> {
      const cloud = cloudFor(session);
      const byVolume = new Map<string, BulkDetachRequest['items']>();
      for (const item of input.items) {
        const group = byVolume.get(item.volumeId) ?? [];
        // The same attachment twice is detached once.
        if (!group.some((g) => g.serverId === item.serverId)) group.push(item);
        byVolume.set(item.volumeId, group);
      }
      const outcomes = new Map<string, DetachOutcome>();
      const queue = [...byVolume.values()];
      const worker = async () => {
        for (let group = queue.shift(); group; group = queue.shift()) {
          for (const item of group)
            outcomes.set(`${item.serverId}/${item.volumeId}`, await detachOne(cloud, item));
        }
      };
      try {
        await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
      } finally {
        const ids = [...outcomes.values()].filter((o) => o.outcome !== 'refused');
        if (ids.length > 0) {
          changes.publish(session.project.id, 'attachments', [
            ...new Set(ids.flatMap((o) => [o.serverId, o.volumeId])),
          ]);
        }
      }
      // In the order asked, one outcome per distinct attachment.
      const seen = new Set<string>();
      return input.items.flatMap((i) => {
        const key = `${i.serverId}/${i.volumeId}`;
        const o = outcomes.get(key);
        if (!o || seen.has(key)) return [];
        seen.add(key);
        return [o];
      });
    },
  };
}
