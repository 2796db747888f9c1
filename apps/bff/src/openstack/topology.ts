import type { AttachMode } from '@sv/shared';
import type { CloudClient } from './cloud-client.js';

/**
 * The bundled cloud's os-emulator-topology extension (docs/cloud-extensions.md), turned into
 * plain objects. Only this file knows its JSON. A real cloud has no such call: callers check
 * `session.capabilities.topologyExtension` first and compose the graph from standard APIs.
 */

export interface ExtHost {
  /** The host name, or for members Nova's per-project hostId. */
  name: string;
  zone: string | null;
  state: string | null;
  status: string | null;
  supportsMultiattach: boolean | null;
  supportsAttachModes: boolean | null;
  serverIds: string[];
}

export interface ExtServer {
  id: string;
  name: string;
  projectId: string | null;
  status: string;
  host: string | null;
  zone: string | null;
}

export interface ExtAttachment {
  id: string | null;
  serverId: string;
  volumeId: string;
  device: string | null;
  mode: AttachMode;
  /** Cinder's attach_status; null when the mapping has no Cinder attachment. */
  state: string | null;
  createdAt: string | null;
  attachedAt: string | null;
  updatedAt: string | null;
}

export interface ExtVolume {
  id: string;
  name: string;
  projectId: string | null;
  status: string;
  multiattach: boolean;
  rw: number;
  ro: number;
}

export type ExtRisk =
  | { kind: 'multiple_writers'; volumeId: string; serverIds: string[]; message: string }
  | {
      kind: 'stuck_attachment';
      volumeId: string;
      serverId: string;
      attachmentId: string | null;
      state: string | null;
      since: string | null;
      message: string;
    };

export interface ExtTopology {
  hostIdsHashed: boolean;
  hosts: ExtHost[];
  servers: ExtServer[];
  attachments: ExtAttachment[];
  volumes: ExtVolume[];
  risks: ExtRisk[];
  generatedAt: string;
}

export interface ExtTopologyQuery {
  /** Admins: false limits the answer to their own project (the extension's default is the whole cloud). */
  allProjects?: boolean;
  projectId?: string;
  host?: string;
  volumeId?: string;
  stuckAfterSeconds?: number;
}

interface RawTopology {
  topology: {
    host_ids_hashed: boolean;
    hosts: {
      name: string;
      availability_zone: string | null;
      state?: string | null;
      status?: string | null;
      supports_multiattach?: boolean | null;
      supports_attach_modes?: boolean | null;
      servers: string[];
    }[];
    servers: {
      id: string;
      name: string;
      project_id: string | null;
      status: string;
      host: string | null;
      availability_zone: string | null;
    }[];
    attachments: {
      id: string | null;
      server_id: string;
      volume_id: string;
      device: string | null;
      attach_mode: string;
      attach_status: string | null;
      created_at: string | null;
      attached_at: string | null;
      updated_at: string | null;
    }[];
    volumes: {
      id: string;
      name: string | null;
      project_id: string | null;
      status: string;
      multiattach: boolean;
      rw_count: number;
      ro_count: number;
    }[];
    risks: {
      kind: string;
      volume_id: string;
      server_ids?: string[];
      server_id?: string;
      attachment_id?: string | null;
      attach_status?: string | null;
      since?: string | null;
      message: string;
    }[];
    generated_at: string;
  };
}

export async function getTopologyExtension(cloud: CloudClient, q: ExtTopologyQuery): Promise<ExtTopology> {
  const params = new URLSearchParams();
  if (q.allProjects === false) params.set('all_tenants', '0');
  if (q.projectId) params.set('project_id', q.projectId);
  if (q.host) params.set('host', q.host);
  if (q.volumeId) params.set('volume_id', q.volumeId);
  if (q.stuckAfterSeconds !== undefined) params.set('stuck_after', String(q.stuckAfterSeconds));
  const qs = params.toString();
  const res = await cloud.nova<RawTopology>('GET', `/os-emulator-topology${qs ? `?${qs}` : ''}`);
  const t = res.body.topology;
  return {
    hostIdsHashed: t.host_ids_hashed,
    hosts: t.hosts.map((h) => ({
      name: h.name,
      zone: h.availability_zone ?? null,
      state: h.state ?? null,
      status: h.status ?? null,
      supportsMultiattach: h.supports_multiattach ?? null,
      supportsAttachModes: h.supports_attach_modes ?? null,
      serverIds: h.servers,
    })),
    servers: t.servers.map((s) => ({
      id: s.id,
      name: s.name,
      projectId: s.project_id ?? null,
      status: s.status,
      host: s.host ?? null,
      zone: s.availability_zone ?? null,
    })),
    attachments: t.attachments.map((a) => ({
      id: a.id,
      serverId: a.server_id,
      volumeId: a.volume_id,
      device: a.device,
      mode: a.attach_mode === 'ro' ? 'ro' : 'rw',
      state: a.attach_status,
      createdAt: a.created_at,
      attachedAt: a.attached_at,
      updatedAt: a.updated_at,
    })),
    volumes: t.volumes.map((v) => ({
      id: v.id,
      name: v.name ?? '',
      projectId: v.project_id ?? null,
      status: v.status,
      multiattach: v.multiattach,
      rw: v.rw_count,
      ro: v.ro_count,
    })),
    risks: t.risks.map(
      (r): ExtRisk =>
        r.kind === 'multiple_writers'
          ? {
              kind: 'multiple_writers',
              volumeId: r.volume_id,
              serverIds: r.server_ids ?? [],
              message: r.message,
            }
          : {
              kind: 'stuck_attachment',
              volumeId: r.volume_id,
              serverId: r.server_id ?? '',
              attachmentId: r.attachment_id ?? null,
              state: r.attach_status ?? null,
              since: r.since ?? null,
              message: r.message,
            },
    ),
    generatedAt: t.generated_at,
  };
}
