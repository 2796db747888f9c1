import { cinderTime } from '../../platform/time.js';
import type { Zone } from '../host/compute-hosts.js';

/**
 * `availabilityZoneInfo` (captures 103, 104). Service times are Nova's naive DB datetimes,
 * printed `2026-11-21T12:54:14.000000` (the same shape as Cinder's).
 */
export function availabilityZonesView(zones: Zone[]) {
  return {
    availabilityZoneInfo: zones.map((z) => ({
      zoneName: z.name,
      zoneState: { available: z.available },
      hosts:
        z.hosts === null
          ? null
          : Object.fromEntries(
              [...z.hosts.entries()].map(([host, services]) => [
                host,
                Object.fromEntries(
                  services.map((s) => [
                    s.binary,
                    { available: s.available, active: s.active, updated_at: cinderTime(s.updatedAt) },
                  ]),
                ),
              ]),
            ),
    })),
  };
}
