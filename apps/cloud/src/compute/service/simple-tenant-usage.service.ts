import type { ComputeDeps } from '../deps.js';
import type { AuthContext } from '../../platform/http/context.js';
import { badRequest, policyForbidden } from '../../platform/http/errors.js';
import { parseJsonColumn } from '../../platform/db/json-column.js';
import {
  type Micros,
  microsOfIso,
  type UsageQuery,
  usageWindow,
} from '../schemas/simple-tenant-usage.schemas.js';
import type { FlavorSnapshot } from '../store/servers.store.js';
import { tenantUsageStore } from '../store/tenant-usage.store.js';

/**
 * Simple tenant usage (`simple_tenant_usage.py`): per project, the hours each server ran within
 * [start, end] (end no later than now) and those hours weighted by its flavor's vCPUs, RAM and
 * disk. Deleted servers count up to their termination. The whole cloud is admin only; a project's
 * own usage is its members' (another project's: the rule's 403).
 */

export const USAGE_RULES = {
  list: 'os_compute_api:os-simple-tenant-usage:list',
  show: 'os_compute_api:os-simple-tenant-usage:show',
} as const;

export interface ServerUsage {
  hours: number;
  flavor: string;
  instanceId: string;
  name: string;
  tenantId: string;
  memoryMb: number;
  localGb: number;
  vcpus: number;
  startedAt: string;
  endedAt: string | null;
  state: string;
  uptime: number;
}

export interface TenantUsage {
  tenantId: string;
  /** Only when detailed. */
  serverUsages: ServerUsage[] | null;
  totalLocalGbUsage: number;
  totalVcpusUsage: number;
  totalMemoryMbUsage: number;
  totalHours: number;
  start: Micros;
  stop: Micros;
}

export interface UsageReport {
  tenants: TenantUsage[];
  /** Every server counted, in order (the page the next link continues). */
  servers: ServerUsage[];
}

const HOUR: Micros = 3600e6;

/** `_hours_for`: the part of [start, stop] the server ran (to now when it still runs). */
function hoursFor(launched: Micros | null, terminated: Micros | null, start: Micros, stop: Micros): number {
  if (terminated !== null && terminated < start) return 0;
  if (launched === null || launched > stop) return 0;
  const from = Math.max(launched, start);
  const to = terminated !== null ? Math.min(stop, terminated) : stop;
  return (to - from) / HOUR;
}

async function report(
  deps: ComputeDeps,
  q: UsageQuery,
  now: Micros,
  projectId: string | null,
  detailed: boolean,
): Promise<UsageReport> {
  const window = usageWindow(q, now);
  const start = window.start;
  const stop = Math.min(window.end, now);
  const db = deps.store.db;
  let after: { project_id: string; id: string } | undefined;
  if (q.marker !== undefined) {
    after = await tenantUsageStore.markerRow(db, q.marker);
    if (!after) throw badRequest(`Marker ${q.marker} could not be found.`);
  }
  const rows = await tenantUsageStore.activeInWindow(db, {
    begin: start,
    end: stop,
    projectId,
    limit: q.limit,
    after,
  });
  const tenants = new Map<string, TenantUsage>();
  const servers: ServerUsage[] = [];
  for (const r of rows) {
    const flavor = parseJsonColumn<FlavorSnapshot | null>(r.flavor, null);
    const launched = microsOfIso(r.launched_at!);
    const terminated = r.terminated_at ? microsOfIso(r.terminated_at) : null;
    const usage: ServerUsage = {
      hours: hoursFor(launched, terminated, start, stop),
      flavor: flavor?.name ?? '',
      instanceId: r.id,
      name: r.name,
      tenantId: r.project_id,
      memoryMb: flavor?.ram ?? 0,
      localGb: (flavor?.disk ?? 0) + (flavor?.ephemeral ?? 0),
      vcpus: flavor?.vcpus ?? 0,
      startedAt: r.launched_at!,
      endedAt: r.terminated_at,
      state: r.terminated_at ? 'terminated' : r.vm_state,
      uptime: Math.trunc(((terminated ?? now) - launched) / 1e6),
    };
    let t = tenants.get(usage.tenantId);
    if (!t) {
      t = {
        tenantId: usage.tenantId,
        serverUsages: detailed ? [] : null,
        totalLocalGbUsage: 0,
        totalVcpusUsage: 0,
        totalMemoryMbUsage: 0,
        totalHours: 0,
        start,
        stop,
      };
      tenants.set(usage.tenantId, t);
    }
    t.totalLocalGbUsage += usage.localGb * usage.hours;
    t.totalVcpusUsage += usage.vcpus * usage.hours;
    t.totalMemoryMbUsage += usage.memoryMb * usage.hours;
    t.totalHours += usage.hours;
    t.serverUsages?.push(usage);
    servers.push(usage);
  }
  return { tenants: [...tenants.values()], servers };
}

export function listTenantUsage(deps: ComputeDeps, auth: AuthContext, q: UsageQuery, now: Micros) {
  if (!auth.isAdmin) throw policyForbidden(USAGE_RULES.list);
  return report(deps, q, now, null, q.detailed);
}

export async function showTenantUsage(
  deps: ComputeDeps,
  auth: AuthContext,
  tenantId: string,
  q: UsageQuery,
  now: Micros,
): Promise<{ usage: TenantUsage | null; servers: ServerUsage[] }> {
  if (!auth.isAdmin && auth.projectId !== tenantId) throw policyForbidden(USAGE_RULES.show);
  const r = await report(deps, q, now, tenantId, true);
  return { usage: r.tenants[0] ?? null, servers: r.servers };
}
