import type { CloudClient } from './cloud-client.js';

/** Nova's and Cinder's absolute limits (GET /limits, which members may read), with their use. */

/** A limit and its use; limit null when unlimited (-1). */
export interface LimitUse {
  used: number;
  limit: number | null;
}

const limitOf = (max: number | undefined, used: number | undefined): LimitUse => ({
  used: used ?? 0,
  limit: max === undefined || max < 0 ? null : max,
});

/** Nova's GET /limits (readable by members): instances, cores and RAM (MiB), with their use. */
export async function computeLimits(
  cloud: CloudClient,
): Promise<{ instances: LimitUse; cores: LimitUse; ram: LimitUse }> {
  const res = await cloud.nova<{ limits?: { absolute?: Record<string, number> } }>('GET', '/limits');
  const a = res.body?.limits?.absolute ?? {};
  return {
    instances: limitOf(a.maxTotalInstances, a.totalInstancesUsed),
    cores: limitOf(a.maxTotalCores, a.totalCoresUsed),
    ram: limitOf(a.maxTotalRAMSize, a.totalRAMUsed),
  };
}

/** Cinder's GET /limits: volumes and gigabytes, with their use. */
export async function volumeLimits(cloud: CloudClient): Promise<{ volumes: LimitUse; gigabytes: LimitUse }> {
  const res = await cloud.cinder<{ limits?: { absolute?: Record<string, number> } }>('GET', '/limits');
  const a = res.body?.limits?.absolute ?? {};
  return {
    volumes: limitOf(a.maxTotalVolumes, a.totalVolumesUsed),
    gigabytes: limitOf(a.maxTotalVolumeGigabytes, a.totalGigabytesUsed),
  };
}
