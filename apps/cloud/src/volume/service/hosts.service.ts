import type { Store } from '../../platform/db/store.js';
import { notFound, policyForbidden } from '../../platform/http/errors.js';
import { hostsStore } from '../store/hosts.store.js';
import { servicesStore } from '../store/services.store.js';
import { BACKEND } from './backend.js';
import type { Caller } from './caller.js';

/** contrib/hosts.py's MANAGE_POLICY: admins only. */
const HOSTS_RULE = 'volume_extension:hosts';

export interface HostSummary {
  host: string;
  topic: string;
  zone: string;
  disabled: boolean;
}

export interface HostResource {
  host: string;
  project: string;
  volume_count: string;
  total_volume_gb: string;
  snapshot_count: string;
  total_snapshot_gb: string;
}

/**
 * os-hosts (deprecated in Cinder, still served): the enabled cinder services by host, and one
 * volume host's usage, in total and per project with volumes there. Counts are strings, as Cinder's.
 */
export function createHostsService(deps: { store: Store }) {
  const db = deps.store.db;

  /** `_list_hosts`: enabled services only, optionally of one zone (an empty zone is no filter). */
  async function list(caller: Caller, zone: string | undefined): Promise<HostSummary[]> {
    if (!caller.isAdmin) throw policyForbidden(HOSTS_RULE);
    const rows = (await servicesStore.list(db, {})).filter((s) => s.disabled !== 1);
    return rows
      .filter((s) => !zone || s.availability_zone === zone)
      .map((s) => ({ host: s.host, topic: s.binary, zone: s.availability_zone, disabled: false }));
  }

  /** `show`: the enabled cinder-volume service on the host (or its backend), else ServiceNotFound. */
  async function show(caller: Caller, host: string): Promise<HostResource[]> {
    if (!caller.isAdmin) throw policyForbidden(HOSTS_RULE);
    const service = (await servicesStore.list(db, { binary: 'cinder-volume' })).find(
      (s) =>
        s.disabled !== 1 &&
        (s.host === host || s.host.startsWith(`${host}@`) || s.host.startsWith(`${host}#`)),
    );
    if (!service) throw notFound(`Service cinder-volume could not be found on host ${host}.`);
    const volumes = await hostsStore.volumeUsageByProject(db, service.host);
    const snapshots = new Map(
      (await hostsStore.snapshotUsageByProject(db, service.host)).map((s) => [s.projectId, s]),
    );
    const perProject = volumes.map((v) => {
      const s = snapshots.get(v.projectId);
      return {
        host,
        project: v.projectId,
        volume_count: String(v.count),
        total_volume_gb: String(v.gigabytes),
        snapshot_count: String(s?.count ?? 0),
        total_snapshot_gb: String(s?.gigabytes ?? 0),
      };
    });
    const sum = (rows: HostResource[], key: keyof HostResource) =>
      rows.reduce((n, r) => n + Number(r[key]), 0);
    const total: HostResource = {
      host,
      project: '(total)',
      volume_count: String(sum(perProject, 'volume_count')),
      total_volume_gb: String(sum(perProject, 'total_volume_gb')),
      snapshot_count: String(sum(perProject, 'snapshot_count')),
      total_snapshot_gb: String(sum(perProject, 'total_snapshot_gb')),
    };
    return [total, ...perProject];
  }

  /**
   * capabilities.py: the backend's capabilities as its driver reports them (LVM's stats, whose pool
   * name sits in its one pool, and the standard properties), for the volume service of `host`
   * (`host@backend`, with or without `#pool`); else "Can't find service".
   */
  async function capabilities(caller: Caller, host: string): Promise<Record<string, unknown>> {
    if (!caller.isAdmin) throw policyForbidden('volume_extension:capabilities');
    const backend = host.split('#')[0] as string;
    const service = (await servicesStore.list(db, { binary: 'cinder-volume' })).find(
      (s) => s.host === backend,
    );
    if (!service) throw notFound(`Can't find service: ${host}`);
    const boolean = (title: string, description: string) => ({ title, description, type: 'boolean' });
    return {
      namespace: `OS::Storage::Capabilities::${service.host}`,
      vendor_name: 'Open Source',
      volume_backend_name: BACKEND.backendName,
      pool_name: null,
      driver_version: BACKEND.driverVersion,
      storage_protocol: 'iSCSI',
      display_name: null,
      description: null,
      visibility: null,
      replication_targets: [],
      properties: {
        thin_provisioning: boolean('Thin Provisioning', 'Sets thin provisioning.'),
        compression: boolean('Compression', 'Enables compression.'),
        qos: boolean('QoS', 'Enables QoS.'),
        replication_enabled: boolean('Replication', 'Enables replication.'),
      },
    };
  }

  return { list, show, capabilities };
}

export type HostsService = ReturnType<typeof createHostsService>;
