import type {
  CreatedKeyPair,
  KeyPair,
  NetworkChoices,
  QuotaUsage,
  QuotaUsageList,
  SecurityGroupChoices,
} from '@sv/shared';
import { cloudFor } from '../../openstack/cloud-client.js';
import { computeLimits, type LimitUse, volumeLimits } from '../../openstack/limits.js';
import { listProjectNetworks, listSecurityGroups } from '../../openstack/neutron.js';
import {
  createKeyPair,
  deleteKeyPair,
  importKeyPair,
  listKeyPairs,
  type NovaKeyPair,
} from '../../openstack/nova-keypairs.js';
import { OpenStackFault } from '../../openstack/fault.js';
import { COMPUTE } from '../../openstack/microversions.js';
import { ApiError } from '../../platform/errors.js';
import type { SessionData } from '../../platform/session-store.js';

const sessionEnded = (err: unknown) =>
  (err instanceof OpenStackFault && err.status === 401) ||
  (err instanceof ApiError && err.code === 'session_expired');

const messageOf = (err: unknown) =>
  err instanceof OpenStackFault || err instanceof ApiError
    ? err.message
    : 'the dashboard backend hit an unexpected error';

const keyPairOf = (k: NovaKeyPair): KeyPair => ({ name: k.name, fingerprint: k.fingerprint, type: k.type });

export const QUOTA_LABELS: Record<QuotaUsage['resource'], string> = {
  instances: 'Instances',
  cores: 'vCPUs',
  ram: 'RAM (MiB)',
  volumes: 'Volumes',
  gigabytes: 'Volume storage (GiB)',
};

/** What the launch wizard picks from beyond the catalog: networks, security groups, key pairs, quota use. */
export function launchChoicesService() {
  return {
    async networks(session: SessionData): Promise<NetworkChoices> {
      const cloud = cloudFor(session);
      const found = await listProjectNetworks(cloud);
      return {
        networkService: cloud.hasNetwork,
        noneAllowed: cloud.computeHas(COMPUTE.networkChoice),
        networks: found.map(({ network: n, subnets }) => ({
          id: n.id,
          name: n.name,
          status: n.status,
          shared: n.shared,
          external: n.external,
          projectId: n.projectId && n.projectId !== session.project.id ? n.projectId : null,
          subnets: subnets.map((s) => ({
            id: s.id,
            name: s.name,
            cidr: s.cidr,
            ipVersion: s.ipVersion,
            gatewayIp: s.gatewayIp,
          })),
        })),
      };
    },

    async securityGroups(session: SessionData): Promise<SecurityGroupChoices> {
      const cloud = cloudFor(session);
      const groups = await listSecurityGroups(cloud);
      return {
        networkService: cloud.hasNetwork,
        securityGroups: groups.map((g) => ({
          id: g.id,
          name: g.name,
          description: g.description,
          ruleCount: g.ruleCount,
        })),
      };
    },

    async keyPairs(session: SessionData): Promise<KeyPair[]> {
      return (await listKeyPairs(cloudFor(session))).map(keyPairOf);
    },

    /** Imports `publicKey`, or has a new pair made; the private key is handed back once, never kept. */
    async createKeyPair(session: SessionData, name: string, publicKey?: string): Promise<CreatedKeyPair> {
      const cloud = cloudFor(session);
      if (publicKey !== undefined) {
        return { keyPair: keyPairOf(await importKeyPair(cloud, name, publicKey)), privateKey: null };
      }
      const made = await createKeyPair(cloud, name);
      return { keyPair: keyPairOf(made.keyPair), privateKey: made.privateKey };
    },

    async deleteKeyPair(session: SessionData, name: string): Promise<void> {
      await deleteKeyPair(cloudFor(session), name);
    },

    /** Nova's and Cinder's limits at once; one that fails is named with why, the other still answers. */
    async quotas(session: SessionData): Promise<QuotaUsageList> {
      const cloud = cloudFor(session);
      const [compute, volume] = await Promise.allSettled([computeLimits(cloud), volumeLimits(cloud)]);
      const quotas: QuotaUsage[] = [];
      const unavailable: QuotaUsageList['unavailable'] = [];
      const add = (service: QuotaUsage['service'], figures: Record<string, LimitUse>) => {
        for (const [resource, f] of Object.entries(figures) as [QuotaUsage['resource'], LimitUse][]) {
          quotas.push({ resource, label: QUOTA_LABELS[resource], service, used: f.used, limit: f.limit });
        }
      };
      // A token that no longer works ends the session, as on any other page.
      for (const r of [compute, volume])
        if (r.status === 'rejected' && sessionEnded(r.reason)) throw r.reason;
      if (compute.status === 'fulfilled') add('compute', compute.value);
      else
        unavailable.push({
          service: 'compute',
          reason: `Compute limits could not be read: ${messageOf(compute.reason)}`,
        });
      if (volume.status === 'fulfilled') add('volume', volume.value);
      else
        unavailable.push({
          service: 'volume',
          reason: `Volume limits could not be read: ${messageOf(volume.reason)}`,
        });
      return { quotas, unavailable };
    },
  };
}

export type LaunchChoicesService = ReturnType<typeof launchChoicesService>;
