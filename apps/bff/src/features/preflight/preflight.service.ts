import {
  type Candidate,
  isServerHold,
  type Preflight,
  type PreflightQuery,
  type Refusal,
  HOSTS_HIDDEN_NOTE,
} from '@sv/shared';
import { joinHolds } from '../../openstack/attachments.js';
import { type CinderVolume, findVolume, listVolumeAttachments, listVolumes } from '../../openstack/cinder.js';
import { cloudFor, type CloudClient } from '../../openstack/cloud-client.js';
import { OpenStackFault } from '../../openstack/fault.js';
import { findServer, listComputeHosts, listServers, type NovaServer } from '../../openstack/nova.js';
import { notFound } from '../../platform/errors.js';
import type { SessionData } from '../../platform/session-store.js';
import { type CloudFacts, type HoldFacts, type HostFacts, judge } from './preflight.rules.js';

export interface PreflightOptions {
  /**
   * Nova's `[cinder] cross_az_attach`. No API tells it, so the operator tells the dashboard
   * (BFF_CROSS_AZ_ATTACH=false); Nova's default, true, means zones are never a reason.
   */
  crossAzAttach: boolean;
}

export const preflightOptionsFromEnv = (env: NodeJS.ProcessEnv = process.env): PreflightOptions => ({
  crossAzAttach: !/^(false|0|no|off)$/i.test(env.BFF_CROSS_AZ_ATTACH?.trim() ?? ''),
});

/**
 * Host facts are admin-only in Nova (os-services, os-hypervisors, our os-emulator-hosts), and the
 * topology extension shows members hashed host ids without capabilities. So members get no host
 * verdicts, only a note that Nova will still check the host when they attach: no guessing.
 */
const hostsUnchecked = (readOnly: boolean): Refusal[] => [
  {
    code: 'host_no_multiattach',
    message: `Whether the server’s host can share disks. ${HOSTS_HIDDEN_NOTE}`,
  },
  ...(readOnly
    ? [
        {
          code: 'host_too_old_for_modes' as const,
          message: 'Whether the server’s host takes read-only attachments.',
        },
      ]
    : []),
];

async function hostFacts(cloud: CloudClient): Promise<Map<string, HostFacts> | null> {
  if (!cloud.session.isAdmin) return null;
  try {
    const hosts = await listComputeHosts(cloud);
    return new Map(hosts.map((h) => [h.host, h]));
  } catch (err) {
    // A cloud whose policy keeps even admins from the host APIs: leave host checks to Nova.
    if (err instanceof OpenStackFault && (err.status === 403 || err.status === 404)) return null;
    throw err;
  }
}

function cloudFacts(session: SessionData, opts: PreflightOptions): CloudFacts {
  const c = session.capabilities;
  return {
    multiattach: c.multiattach,
    readOnly: c.readOnlyAttach,
    computeMax: c.compute.maxVersion,
    crossAzAttach: opts.crossAzAttach,
  };
}

/**
 * Live holds per volume id, from Cinder's records in every state plus the volume's own list,
 * less the records Nova says are not its server's (anyone can create a Cinder attachment naming
 * any server). A holder the caller cannot see stays: Cinder will count it too.
 */
function holdsByVolume(
  volumes: readonly CinderVolume[],
  attachments: Awaited<ReturnType<typeof listVolumeAttachments>>,
  servers: readonly NovaServer[],
): Map<string, HoldFacts[]> {
  const out = new Map<string, HoldFacts[]>();
  for (const h of joinHolds({ cinderAttachments: attachments, volumes, servers, withHosts: false })) {
    if (!isServerHold(h)) continue;
    const list = out.get(h.volumeId) ?? [];
    list.push({ serverId: h.serverId, mode: h.mode });
    out.set(h.volumeId, list);
  }
  return out;
}

/** Admins asking about another project's resource see that project's candidates. */
const otherProject = (session: SessionData, projectId: string | null) =>
  session.isAdmin && projectId !== null && projectId !== session.project.id ? projectId : undefined;

const byName = (a: Candidate, b: Candidate) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id);

export function preflightService(opts: PreflightOptions) {
  async function forVolume(session: SessionData, volumeId: string): Promise<Preflight> {
    const cloud = cloudFor(session);
    const volume = await findVolume(cloud, volumeId);
    if (!volume) throw notFound(`Volume ${volumeId} could not be found.`);
    const project = otherProject(session, volume.projectId);
    const [servers, attachments, hosts] = await Promise.all([
      listServers(cloud, project ? { allProjects: true, projectId: project } : {}),
      listVolumeAttachments(cloud, { volumeId: volume.id, allProjects: session.isAdmin }),
      hostFacts(cloud),
    ]);
    const holds = holdsByVolume([volume], attachments, servers).get(volume.id) ?? [];
    const facts = cloudFacts(session, opts);
    const candidates = servers.map((server): Candidate => {
      const v = judge(server, volume, holds, facts, hostOf(hosts, server));
      return { id: server.id, name: server.name, status: server.status, ...v };
    });
    return {
      subject: { kind: 'volume', id: volume.id, name: volume.name },
      candidates: candidates.sort(byName),
      ...(hosts ? {} : { unchecked: hostsUnchecked(facts.readOnly.available) }),
    };
  }

  async function forServer(session: SessionData, serverId: string): Promise<Preflight> {
    const cloud = cloudFor(session);
    const server = await findServer(cloud, serverId);
    if (!server) throw notFound(`Server ${serverId} could not be found.`);
    const project = otherProject(session, server.projectId);
    const [volumes, attachments, servers, hosts] = await Promise.all([
      listVolumes(cloud, project ? { projectId: project } : {}),
      listVolumeAttachments(cloud, { allProjects: session.isAdmin }),
      // Every server the caller can see, to tell the volumes' real holders from stray records.
      listServers(cloud, session.isAdmin ? { allProjects: true } : {}),
      hostFacts(cloud),
    ]);
    const holds = holdsByVolume(volumes, attachments, servers);
    const facts = cloudFacts(session, opts);
    const host = hostOf(hosts, server);
    const candidates = volumes.map((volume): Candidate => {
      const held = holds.get(volume.id) ?? [];
      const v = judge(server, volume, held, facts, host);
      return {
        id: volume.id,
        name: volume.name,
        status: volume.status,
        ...v,
        attachments: {
          rw: held.filter((h) => h.mode === 'rw').length,
          ro: held.filter((h) => h.mode === 'ro').length,
        },
        shared: volume.multiattach,
      };
    });
    return {
      subject: { kind: 'server', id: server.id, name: server.name },
      candidates: candidates.sort(byName),
      ...(hosts ? {} : { unchecked: hostsUnchecked(facts.readOnly.available) }),
    };
  }

  return {
    check(session: SessionData, q: PreflightQuery): Promise<Preflight> {
      return q.volumeId !== undefined ? forVolume(session, q.volumeId) : forServer(session, q.serverId ?? '');
    },
  };
}

function hostOf(hosts: Map<string, HostFacts> | null, server: NovaServer): HostFacts | null {
  return hosts && server.host ? (hosts.get(server.host) ?? null) : null;
}
