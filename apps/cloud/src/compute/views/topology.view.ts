import { novaTime } from '../../platform/time.js';
import { statusFromState } from '../server-states.js';
import type {
  AttachmentEdge,
  HostNode,
  ServerNode,
  Topology,
  TopologyRisk,
  VolumeNode,
} from '../service/topology.service.js';

function hostJson(h: HostNode, hashed: boolean) {
  // Members see Nova's hostId and the zone only: service facts identify the hardware.
  if (hashed) return { name: h.name, availability_zone: h.availabilityZone, servers: h.serverIds };
  return {
    name: h.name,
    availability_zone: h.availabilityZone,
    state: h.service?.state ?? null,
    status: h.service?.status ?? null,
    service_version: h.service?.serviceVersion ?? null,
    supports_multiattach: h.service?.supportsMultiattach ?? null,
    supports_attach_modes: h.service?.supportsAttachModes ?? null,
    servers: h.serverIds,
  };
}

const serverJson = (s: ServerNode) => ({
  id: s.id,
  name: s.name,
  project_id: s.projectId,
  status: statusFromState(s.vmState, s.taskState),
  host: s.host,
  availability_zone: s.availabilityZone,
  attachments: s.attachmentIds,
});

const attachmentJson = (a: AttachmentEdge) => ({
  id: a.id,
  bdm_uuid: a.bdmUuid,
  server_id: a.serverId,
  volume_id: a.volumeId,
  device: a.device,
  attach_mode: a.mode,
  attach_status: a.status,
  boot_index: a.bootIndex,
  delete_on_termination: a.deleteOnTermination,
  created_at: novaTime(a.createdAt),
  attached_at: novaTime(a.attachedAt),
  updated_at: novaTime(a.updatedAt),
});

const volumeJson = (v: VolumeNode) => ({
  id: v.id,
  name: v.name,
  project_id: v.projectId,
  status: v.status,
  size: v.size,
  multiattach: v.multiattach,
  volume_type: v.volumeType,
  attachment_count: v.attachmentCount,
  rw_count: v.rwCount,
  ro_count: v.roCount,
});

function riskJson(r: TopologyRisk) {
  if (r.kind === 'multiple_writers') {
    return {
      kind: r.kind,
      volume_id: r.volumeId,
      server_ids: r.serverIds,
      message:
        `Volume ${r.volumeName || r.volumeId} is attached read-write to ${r.serverIds.length} servers; ` +
        'without a cluster file system or fencing, concurrent writes can corrupt it.',
    };
  }
  const state = r.status ?? 'no Cinder attachment';
  return {
    kind: r.kind,
    attachment_id: r.attachmentId,
    bdm_uuid: r.bdmUuid,
    volume_id: r.volumeId,
    server_id: r.serverId,
    attach_status: r.status,
    since: novaTime(r.since),
    message:
      `Attachment of volume ${r.volumeId} to server ${r.serverId} has been in state ` +
      `'${state}' since ${novaTime(r.since)} (over ${r.stuckAfterSeconds} seconds).`,
  };
}

/** GET /os-emulator-topology: flat normalised arrays keyed by id; the client builds the graph. */
export function topologyView(t: Topology) {
  let rw = 0;
  for (const a of t.attachments) if (a.mode === 'rw') rw += 1;
  let writers = 0;
  for (const r of t.risks) if (r.kind === 'multiple_writers') writers += 1;
  return {
    topology: {
      project_id: t.projectId,
      host_ids_hashed: t.hashedHosts,
      hosts: t.hosts.map((h) => hostJson(h, t.hashedHosts)),
      servers: t.servers.map(serverJson),
      attachments: t.attachments.map(attachmentJson),
      volumes: t.volumes.map(volumeJson),
      risks: t.risks.map(riskJson),
      summary: {
        hosts: t.hosts.length,
        servers: t.servers.length,
        volumes: t.volumes.length,
        attachments: t.attachments.length,
        rw,
        ro: t.attachments.length - rw,
        multiple_writer_volumes: writers,
        stuck_attachments: t.risks.length - writers,
      },
      generated_at: novaTime(t.generatedAt),
    },
  };
}
