import type { Topology } from '@sv/shared';

export interface GenerateOptions {
  servers: number;
  /** Attachments per server (each to a different volume). */
  perServer?: number;
  volumes?: number;
  hosts?: number;
  /** Share of attachments that are read-write (the rest are read-only). */
  rwShare?: number;
  /** Share of attachments stuck in 'attaching'. */
  stuckShare?: number;
  seed?: number;
}

const uuid = (kind: number, n: number) =>
  `${kind.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/**
 * A synthetic whole-cloud topology with the shape of the cloud's bench data (4 attachments per
 * server, 1 volume per 5 servers, 50 hosts, ~10% read-write, ~1.5% stuck), deterministic per seed.
 */
export function generateTopology(o: GenerateOptions): Topology {
  const perServer = o.perServer ?? 4;
  const volumeCount = o.volumes ?? Math.max(1, Math.ceil(o.servers / 5));
  const hostCount = o.hosts ?? Math.max(1, Math.min(50, Math.ceil(o.servers / 100)));
  const rwShare = o.rwShare ?? 0.1;
  const stuckShare = o.stuckShare ?? 0.015;
  let state = o.seed ?? 42;
  const rnd = () => {
    state = (state * 16807) % 2147483647;
    return state / 2147483647;
  };
  const at = new Date('2026-01-01T00:00:00Z').toISOString().replace(/\.\d{3}Z$/, 'Z');

  const hosts: Topology['hosts'] = Array.from({ length: hostCount }, (_, i) => ({
    id: `compute-${i + 1}`,
    name: `compute-${i + 1}`,
    zone: i % 2 === 0 ? 'az1' : 'az2',
    serverIds: [],
    state: 'up',
    status: 'enabled',
    supportsMultiattach: true,
    supportsAttachModes: true,
  }));
  const servers: Topology['servers'] = Array.from({ length: o.servers }, (_, i) => {
    const host = hosts[i % hostCount];
    const id = uuid(1, i);
    host?.serverIds.push(id);
    return {
      id,
      name: `srv-${String(i).padStart(5, '0')}`,
      status: 'ACTIVE',
      hostId: host?.id ?? null,
      projectId: i % 2 === 0 ? 'project-a' : 'project-b',
    };
  });
  const volumes: Topology['volumes'] = Array.from({ length: volumeCount }, (_, i) => ({
    id: uuid(2, i),
    name: `vol-${String(i).padStart(4, '0')}`,
    status: 'in-use',
    shared: true,
    projectId: i % 2 === 0 ? 'project-a' : 'project-b',
    rw: 0,
    ro: 0,
  }));

  const edges: Topology['edges'] = [];
  const stuck: Topology['risks'] = [];
  const writers = new Map<string, string[]>();
  servers.forEach((s, si) => {
    const used = new Set<number>();
    // Neighbouring servers share volumes, as clusters do; a few reach anywhere.
    const home = Math.floor((si / Math.max(1, o.servers)) * volumeCount);
    for (let k = 0; k < Math.min(perServer, volumeCount); k++) {
      let vi = rnd() < 0.8 ? (home + Math.floor(rnd() * 8)) % volumeCount : Math.floor(rnd() * volumeCount);
      while (used.has(vi)) vi = (vi + 1) % volumeCount;
      used.add(vi);
      const v = volumes[vi];
      if (!v) continue;
      const mode = rnd() < rwShare ? 'rw' : 'ro';
      const isStuck = rnd() < stuckShare;
      const attachmentId = uuid(3, edges.length);
      if (mode === 'rw') {
        v.rw++;
        writers.set(v.id, [...(writers.get(v.id) ?? []), s.id]);
      } else v.ro++;
      edges.push({
        serverId: s.id,
        volumeId: v.id,
        mode,
        state: isStuck ? 'attaching' : 'attached',
        device: `/dev/vd${String.fromCharCode(98 + k)}`,
        since: at,
        attachmentId,
      });
      if (isStuck) {
        stuck.push({
          kind: 'stuck_attachment',
          volumeId: v.id,
          serverIds: [s.id],
          message: `Attachment of volume ${v.id} to server ${s.id} has been in state 'attaching' since ${at} (over 300 seconds).`,
          attachmentId,
          state: 'attaching',
          since: at,
        });
      }
    }
  });
  const multi: Topology['risks'] = [...writers]
    .filter(([, ids]) => ids.length > 1)
    .map(([volumeId, ids]) => ({
      kind: 'multiple_writers',
      volumeId,
      serverIds: ids,
      message: `Volume ${volumeId} is attached read-write to ${ids.length} servers.`,
    }));
  return {
    source: 'extension',
    hostNamesHidden: false,
    hosts,
    servers,
    volumes,
    edges,
    risks: [...multi, ...stuck],
    generatedAt: at,
  };
}
