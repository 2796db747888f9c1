import type { HostListEntry, HostResource, HostUpdateResult } from '../service/os-hosts.service.js';
import type { AuditLog } from '../service/usage-audit-log.service.js';

/** os-hosts' views (captures 981-983): snake_case keys as `hosts.py` writes them. */
export const hostListView = (hosts: HostListEntry[]) => ({
  hosts: hosts.map((h) => ({ host_name: h.hostName, service: h.service, zone: h.zone })),
});

export const hostShowView = (resources: HostResource[]) => ({
  host: resources.map((r) => ({
    resource: { host: r.host, project: r.project, cpu: r.cpu, memory_mb: r.memoryMb, disk_gb: r.diskGb },
  })),
});

export const hostUpdateView = (r: HostUpdateResult) => ({
  host: r.host,
  ...(r.status !== undefined ? { status: r.status } : {}),
  ...(r.maintenanceMode !== undefined ? { maintenance_mode: r.maintenanceMode } : {}),
});

/** The audit log's dict (capture 997); `log` holds per-host task logs, none here. */
export const auditLogView = (a: AuditLog) => ({
  period_beginning: a.periodBeginning,
  period_ending: a.periodEnding,
  num_hosts: a.numHosts,
  num_hosts_done: a.numHostsDone,
  num_hosts_running: a.numHostsRunning,
  num_hosts_not_run: a.numHostsNotRun,
  hosts_not_run: a.hostsNotRun,
  total_instances: a.totalInstances,
  total_errors: a.totalErrors,
  overall_status: a.overallStatus,
  log: {},
});
