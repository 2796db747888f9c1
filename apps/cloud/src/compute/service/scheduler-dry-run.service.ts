import type { ComputeDeps } from '../deps.js';
import type { AuthContext } from '../../platform/http/context.js';
import { badRequest, policyForbidden } from '../../platform/http/errors.js';
import { type ComputeHost, listComputeHosts } from '../host/compute-hosts.js';
import { availableZones, claimHost, pickHost, type ScheduleRequest } from '../host/scheduler.js';
import type { DryRunRequest } from '../schemas/scheduler-dry-run.schemas.js';
import { flavorsStore } from '../store/flavors.store.js';
import {
  FORCED_HOST_RULE,
  flavorSnapshot,
  INVALID_FLAVOR_REF,
  parseAvailabilityZone,
  ZONE_NOT_AVAILABLE,
} from './server-create.service.js';

/**
 * Our `os-scheduler-dry-run` extension (docs/cloud-extensions.md): how many of N servers the
 * emulated scheduler would place now. The request is checked as server create checks the same
 * fields, then the scheduler's own filters and weigher run over one read of the hosts, claiming
 * each placement in memory as one multi-create batch does. Nothing is locked or written, so the
 * answer is a forecast: a build that starts later may find the hosts fuller.
 */

export interface DryRunAnswer {
  requested: number;
  fits: number;
  /** Per zone, how many would fit if the request went to that zone alone. */
  zones: { zoneName: string; fits: number }[];
}

export async function schedulerDryRun(
  deps: ComputeDeps,
  auth: AuthContext,
  dry: DryRunRequest,
): Promise<DryRunAnswer> {
  const db = deps.store.db;
  const az = parseAvailabilityZone(dry.availabilityZone);
  if ((az.host || az.node) && !auth.isAdmin) throw policyForbidden(FORCED_HOST_RULE);
  const flavorRow = await flavorsStore.byId(db, dry.flavorRef);
  if (!flavorRow || flavorRow.disabled === 1) throw badRequest(INVALID_FLAVOR_REF);
  const zones = await availableZones(db);
  if (az.zone && !az.host && !az.node && !zones.has(az.zone)) throw badRequest(ZONE_NOT_AVAILABLE);

  const base: ScheduleRequest = {
    flavor: flavorSnapshot(flavorRow),
    volumeBacked: dry.volumeBacked,
    availabilityZone: az.zone,
    forcedHost: az.host,
    forcedNode: az.node,
    requestedHost: null,
    requestedNode: null,
    needsMultiattach: dry.multiattach,
    needsAttachMode: dry.readOnly,
    ignoreHosts: [],
  };
  const hosts = await listComputeHosts(db);
  const fits = placeable(hosts, base, dry.count);

  let perZone: string[];
  if (az.host || az.node) {
    // A forced host skips the zone filter: its answer belongs to the zone the host is in.
    const forced = hosts.find(
      (h) => (!az.host || h.host === az.host) && (!az.node || h.hypervisorHostname === az.node),
    );
    perZone = forced ? [forced.zone] : [];
  } else {
    perZone = az.zone ? [az.zone] : [...zones].sort();
  }
  return {
    requested: dry.count,
    fits,
    zones: perZone.map((zoneName) => ({
      zoneName,
      fits:
        zoneName === az.zone || az.host || az.node
          ? fits
          : placeable(hosts, { ...base, availabilityZone: zoneName }, dry.count),
    })),
  };
}

/** How many of `count` servers one scheduling batch places, on a copy of the hosts' free room. */
function placeable(hosts: readonly ComputeHost[], req: ScheduleRequest, count: number): number {
  const scratch = hosts.map((h) => ({ ...h, free: { ...h.free } }));
  let placed = 0;
  while (placed < count) {
    const at = pickHost(scratch, req);
    if (!at) break;
    claimHost(scratch, at, req);
    placed++;
  }
  return placed;
}
