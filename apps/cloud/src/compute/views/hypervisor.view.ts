import type { Microversion } from '../../platform/http/microversion.js';
import { type ComputeHost, hostTraits } from '../host/compute-hosts.js';
import { type Hypervisor, hostUptime } from '../service/hypervisors.service.js';

/** Python's `json.dumps` spacing (`{"a": 1, "b": [2, 3]}`), as Nova stores cpu_info. */
function pyJsonDumps(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(pyJsonDumps).join(', ')}]`;
  if (typeof v === 'object' && v !== null) {
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}: ${pyJsonDumps(x)}`)
      .join(', ')}}`;
  }
  return JSON.stringify(v);
}

/** libvirt's cpu_info for the emulated x86 hosts; the ironic driver reports none. */
export function cpuInfo(h: ComputeHost): Record<string, unknown> | null {
  if (h.hypervisorType === 'ironic') return null;
  return {
    arch: 'x86_64',
    model: 'Cascadelake-Server-noTSX',
    vendor: 'Intel',
    topology: { cells: 2, sockets: 2, cores: Math.max(1, h.capacity.vcpus / 4), threads: 2 },
    features: ['pge', 'clflush', 'sse4.2', 'avx2', 'vmx'],
  };
}

/**
 * One hypervisor (captures 109-114). The brief form is id, hostname, state, status; detail adds
 * type, version, host_ip and service, then below 2.88 the usage fields and cpu_info (a JSON string
 * below 2.28, an object from 2.28), and from 2.88 `uptime` instead. Ids are uuids from 2.53.
 */
export function hypervisorView(
  h: Hypervisor,
  version: Microversion,
  detail: boolean,
  withServersRequested: boolean,
) {
  const uuids = version.atLeast('2.53');
  const c = h.host;
  const out: Record<string, unknown> = {
    id: uuids ? h.node.uuid : h.node.id,
    hypervisor_hostname: h.node.hypervisor_hostname,
    state: c.state,
    status: c.status,
  };
  if (detail) {
    out['hypervisor_type'] = h.node.hypervisor_type;
    out['hypervisor_version'] = h.node.hypervisor_version;
    out['host_ip'] = h.node.host_ip;
    out['service'] = {
      id: uuids ? h.service.uuid : h.service.id,
      host: h.node.host,
      disabled_reason: h.service.disabled_reason,
    };
    if (version.below('2.88')) {
      out['vcpus'] = c.capacity.vcpus;
      out['memory_mb'] = c.capacity.memoryMb;
      out['local_gb'] = c.capacity.localGb;
      out['vcpus_used'] = c.usage.vcpus;
      out['memory_mb_used'] = c.usage.memoryMb;
      out['local_gb_used'] = c.usage.localGb;
      out['free_ram_mb'] = c.free.memoryMb;
      out['free_disk_gb'] = c.free.localGb;
      out['current_workload'] = c.usage.currentWorkload;
      out['running_vms'] = c.usage.runningVms;
      out['disk_available_least'] = c.free.localGb;
      const cpu = cpuInfo(c);
      out['cpu_info'] = version.atLeast('2.28') ? (cpu ?? {}) : cpu === null ? '' : pyJsonDumps(cpu);
    } else {
      out['uptime'] = hostUptime(c);
    }
  }
  if (h.servers && h.servers.length > 0) out['servers'] = h.servers;
  else if (withServersRequested && version.atLeast('2.75')) out['servers'] = [];
  return out;
}

/** `GET /os-hypervisors/{id}/uptime` (below 2.88): the brief form plus the uptime text. */
export function hypervisorUptimeView(h: Hypervisor, version: Microversion, uptime: string) {
  return { hypervisor: { ...hypervisorView(h, version, false, false), uptime } };
}

/**
 * `GET /os-emulator-hosts` (our extension, admin only): what each emulated host can do, so a
 * client can predict which attach will be refused and where the scheduler may place a server.
 */
export function emulatorHostsView(hosts: ComputeHost[]) {
  return {
    emulator_hosts: hosts.map((h) => ({
      host: h.host,
      hypervisor_hostname: h.hypervisorHostname,
      hypervisor_type: h.hypervisorType,
      zone: h.zone,
      state: h.state,
      status: h.status,
      forced_down: h.forcedDown,
      disabled_reason: h.disabledReason,
      schedulable: h.schedulable,
      service_version: h.serviceVersion,
      supports_multiattach: h.supportsMultiattach,
      supports_attach_modes: h.supportsAttachModes,
      traits: hostTraits(h),
      capacity: { vcpus: h.capacity.vcpus, memory_mb: h.capacity.memoryMb, local_gb: h.capacity.localGb },
      usage: {
        vcpus: h.usage.vcpus,
        memory_mb: h.usage.memoryMb,
        local_gb: h.usage.localGb,
        running_vms: h.usage.runningVms,
      },
      free: { vcpus: h.free.vcpus, memory_mb: h.free.memoryMb, local_gb: h.free.localGb },
    })),
  };
}
