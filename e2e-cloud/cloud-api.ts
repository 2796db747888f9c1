import { expect } from '@playwright/test';
import type { ApiServer, ApiVolume, BffApi } from '../e2e/fixtures/api';

// What the journeys prepare and clean up through the BFF's API (never straight at the cloud: the
// dashboard is the only client, as for a user). Waits are long: a real cloud takes its time.

const SLOW = { timeout: 5 * 60_000, intervals: [500, 1_000, 2_000] };

interface Launch {
  id: string;
  status: 'running' | 'succeeded' | 'partial' | 'failed';
  summary: string;
  servers: { name: string; serverId: string | null; state: string; error: string | null }[];
}

export type Boot = { source: 'image'; imageId: string } | { source: 'volume'; volumeId: string; mode: 'rw' };

export async function deleteThrough(api: BffApi, path: string): Promise<void> {
  const res = await api.context.delete(path, { headers: { 'X-CSRF-Token': api.csrfToken } });
  if (!res.ok() && res.status() !== 404)
    throw new Error(`DELETE ${path}: HTTP ${res.status()} ${await res.text()}`);
}

/** Creates a volume and waits until it is available. */
export async function createVolume(
  api: BffApi,
  input: { name: string; sizeGb: number; type?: string; bootable?: boolean; imageId?: string },
): Promise<ApiVolume> {
  const created = await api.post<ApiVolume>('/api/volumes', { bootable: false, ...input });
  await expect
    .poll(async () => (await api.volume(created.id)).status, {
      message: `volume ${input.name} available`,
      ...SLOW,
    })
    .toBe('available');
  return api.volume(created.id);
}

/** POST /api/launches and waits for its end; the servers it made, whatever the outcome. */
export async function launch(
  api: BffApi,
  input: { name: string; count: number; flavorId: string; boot: Boot; availabilityZone?: string },
): Promise<{ launch: Launch; servers: ApiServer[] }> {
  // As the wizard does: the project's networks (the cloud's `auto`), or none on a cloud without any.
  const choices = await api.get<{ networks: { external: boolean }[] }>('/api/networks');
  const usable = choices.networks.filter((n) => !n.external);
  const started = await api.post<Launch>('/api/launches', {
    ...(usable.length === 0 ? { networks: 'none' } : {}),
    dataVolumes: [],
    acknowledgeMultipleWriters: input.count > 1,
    ...input,
  });
  let last = started;
  await expect
    .poll(
      async () => {
        last = await api.get<Launch>(`/api/launches/${encodeURIComponent(started.id)}`);
        return last.status;
      },
      { message: `launch of ${input.name} finishes`, ...SLOW },
    )
    .not.toBe('running');
  const ids = last.servers.flatMap((s) => (s.serverId ? [s.serverId] : []));
  return { launch: last, servers: await Promise.all(ids.map((id) => api.server(id))) };
}

/** Attaches (if it is not yet) and waits until the attachment is `attached`. */
export async function ensureAttached(api: BffApi, serverId: string, volumeId: string): Promise<void> {
  const held = (await api.volume(volumeId)).attachments.some((a) => a.serverId === serverId);
  if (!held) {
    await api.post(`/api/servers/${encodeURIComponent(serverId)}/attachments`, {
      volumeId,
      mode: 'rw',
      acknowledgeMultipleWriters: false,
    });
  }
  await expect
    .poll(async () => (await api.volume(volumeId)).attachments.find((a) => a.serverId === serverId)?.state, {
      message: `volume ${volumeId} attached to ${serverId}`,
      ...SLOW,
    })
    .toBe('attached');
}

/** Detaches (if it is attached) and waits until the volume lists no attachment to the server. */
export async function ensureDetached(api: BffApi, serverId: string, volumeId: string): Promise<void> {
  const held = (await api.volume(volumeId)).attachments.some((a) => a.serverId === serverId);
  if (held) {
    await deleteThrough(
      api,
      `/api/servers/${encodeURIComponent(serverId)}/attachments/${encodeURIComponent(volumeId)}`,
    );
  }
  await expect
    .poll(async () => (await api.volume(volumeId)).attachments.some((a) => a.serverId === serverId), {
      message: `volume ${volumeId} detached from ${serverId}`,
      ...SLOW,
    })
    .toBe(false);
  await expect
    .poll(async () => (await api.volume(volumeId)).status, { message: `volume ${volumeId} free`, ...SLOW })
    .toBe('available');
}

/**
 * Deletes every server, then every volume, of the caller's project whose name starts with `prefix`;
 * waits until the servers are gone and each volume is free before deleting it.
 */
export async function removeNamed(api: BffApi, prefix: string): Promise<string[]> {
  const { servers } = await api.get<{ servers: ApiServer[] }>('/api/servers');
  const mine = servers.filter((s) => s.name.startsWith(prefix));
  for (const s of mine) await deleteThrough(api, `/api/servers/${encodeURIComponent(s.id)}`);
  await expect
    .poll(
      async () => {
        const now = await api.get<{ servers: ApiServer[] }>('/api/servers');
        return now.servers.filter((s) => mine.some((m) => m.id === s.id)).length;
      },
      { message: `servers named ${prefix}… deleted`, ...SLOW },
    )
    .toBe(0);
  const { volumes } = await api.get<{ volumes: ApiVolume[] }>('/api/volumes');
  const named = volumes.filter((v) => v.name.startsWith(prefix));
  for (const v of named) {
    await expect
      .poll(async () => (await api.volume(v.id)).status, { message: `volume ${v.name} free`, ...SLOW })
      .toMatch(/^(available|error)$/);
    await deleteThrough(api, `/api/volumes/${encodeURIComponent(v.id)}`);
  }
  // The launch journey's new key pairs too (the cloud keeps them per user).
  const { keyPairs } = await api.get<{ keyPairs: { name: string }[] }>('/api/key-pairs');
  const keys = keyPairs.filter((k) => k.name.startsWith(prefix));
  for (const k of keys) await deleteThrough(api, `/api/key-pairs/${encodeURIComponent(k.name)}`);
  return [
    ...mine.map((s) => `server ${s.name}`),
    ...named.map((v) => `volume ${v.name}`),
    ...keys.map((k) => `key pair ${k.name}`),
  ];
}
