import type { Micros } from '../schemas/simple-tenant-usage.schemas.js';
import type { ServerUsage, TenantUsage } from '../service/simple-tenant-usage.service.js';
import { usageTime } from './server.view.js';

/** oslo's datetime primitive: `%Y-%m-%dT%H:%M:%S.%f`, naive UTC. */
function micros(t: Micros): string {
  const whole = Math.floor(t / 1e6);
  return `${new Date(whole * 1000).toISOString().slice(0, 19)}.${String(t - whole * 1e6).padStart(6, '0')}`;
}

function serverUsageView(u: ServerUsage) {
  return {
    hours: u.hours,
    flavor: u.flavor,
    instance_id: u.instanceId,
    name: u.name,
    tenant_id: u.tenantId,
    memory_mb: u.memoryMb,
    local_gb: u.localGb,
    vcpus: u.vcpus,
    started_at: usageTime(u.startedAt),
    ended_at: usageTime(u.endedAt),
    state: u.state,
    uptime: u.uptime,
  };
}

/** One project's usage, keys in Nova's order (`server_usages` only when detailed). */
export function tenantUsageView(t: TenantUsage) {
  return {
    tenant_id: t.tenantId,
    ...(t.serverUsages ? { server_usages: t.serverUsages.map(serverUsageView) } : {}),
    total_local_gb_usage: t.totalLocalGbUsage,
    total_vcpus_usage: t.totalVcpusUsage,
    total_memory_mb_usage: t.totalMemoryMbUsage,
    total_hours: t.totalHours,
    start: micros(t.start),
    stop: micros(t.stop),
  };
}
