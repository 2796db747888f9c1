import type { DryRunAnswer } from '../service/scheduler-dry-run.service.js';

/** `{"dry_run": {...}}`: counts only, never a host name. */
export function schedulerDryRunView(a: DryRunAnswer) {
  return {
    dry_run: {
      requested: a.requested,
      fits: a.fits,
      zones: a.zones.map((z) => ({ zone_name: z.zoneName, fits: z.fits })),
    },
  };
}
