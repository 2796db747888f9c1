import type { CloudClient } from './cloud-client.js';
import { COMPUTE } from './microversions.js';

/**
 * How many servers of a flavor the cloud can place now. Only the bundled cloud answers this in
 * advance: its scheduler dry-run extension (POST /os-scheduler-dry-run at 2.105), which runs the
 * scheduler's filters without claiming anything. A real Nova answers 404 there.
 */

export interface DryRunInput {
  flavorId: string;
  count: number;
  availabilityZone?: string;
  volumeBacked: boolean;
  multiattach: boolean;
  readOnly: boolean;
}

export interface DryRunAnswer {
  requested: number;
  fits: number;
  zones: { zone: string; fits: number }[];
}

interface RawDryRun {
  dry_run?: { requested?: number; fits?: number; zones?: { zone_name?: string; fits?: number }[] };
}

/** The dry run's answer, or null when the cloud does not offer it (below 2.105, or Nova's 404/403/400). */
export async function schedulerDryRun(cloud: CloudClient, input: DryRunInput): Promise<DryRunAnswer | null> {
  if (!cloud.computeHas(COMPUTE.enhancements)) return null;
  const res = await cloud.nova<RawDryRun>('POST', '/os-scheduler-dry-run', {
    body: {
      dry_run: {
        flavorRef: input.flavorId,
        count: input.count,
        ...(input.availabilityZone ? { availability_zone: input.availabilityZone } : {}),
        volume_backed: input.volumeBacked,
        multiattach: input.multiattach,
        read_only: input.readOnly,
      },
    },
    microversion: COMPUTE.enhancements,
    allow: [400, 403, 404, 405],
  });
  const d = res.status === 200 ? res.body?.dry_run : undefined;
  if (!d || typeof d.fits !== 'number') return null;
  return {
    requested: d.requested ?? input.count,
    fits: d.fits,
    zones: (d.zones ?? []).map((z) => ({ zone: z.zone_name ?? '', fits: z.fits ?? 0 })),
  };
}
