import type { CloudDeps } from '../deps.js';
import { stableUuid } from '../platform/ids.js';
import { nowIso } from '../platform/time.js';
import { CONTROLLER_HOST, CURRENT_SERVICE_VERSION, SEED_HOSTS } from './hosts.js';

const FLAVORS = [
  { id: '1', name: 'm1.tiny', vcpus: 1, ram: 512, disk: 1 },
  { id: '2', name: 'm1.small', vcpus: 1, ram: 2048, disk: 20 },
  { id: '3', name: 'm1.medium', vcpus: 2, ram: 4096, disk: 40 },
  { id: '4', name: 'm1.large', vcpus: 4, ram: 8192, disk: 80 },
  { id: '5', name: 'm1.xlarge', vcpus: 8, ram: 16384, disk: 160 },
  { id: '42', name: 'm1.nano', vcpus: 1, ram: 128, disk: 1 },
  { id: '84', name: 'm1.micro', vcpus: 1, ram: 192, disk: 1 },
];

/** Compute hosts and their services, and flavors. Idempotent, multi-process safe. */
export async function seedCompute(deps: CloudDeps): Promise<void> {
  const db = deps.store.db;
  const now = nowIso();
  let serviceId = 1;
  for (const binary of ['nova-scheduler', 'nova-conductor']) {
    await db
      .insertInto('compute_services')
      .values({
        id: serviceId++,
        uuid: stableUuid(`service/${binary}/${CONTROLLER_HOST}`),
        binary,
        host: CONTROLLER_HOST,
        zone: 'internal',
        status: 'enabled',
        disabled_reason: null,
        forced_down: 0,
        version: CURRENT_SERVICE_VERSION,
        updated_at: now,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  let nodeId = 1;
  for (const h of SEED_HOSTS) {
    const id = serviceId++;
    await db
      .insertInto('compute_services')
      .values({
        id,
        uuid: stableUuid(`service/nova-compute/${h.host}`),
        binary: 'nova-compute',
        host: h.host,
        zone: h.zone,
        status: 'enabled',
        disabled_reason: null,
        forced_down: 0,
        version: h.version,
        updated_at: now,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
    await db
      .insertInto('compute_nodes')
      .values({
        id: nodeId++,
        uuid: stableUuid(`node/${h.host}`),
        service_id: id,
        host: h.host,
        hypervisor_hostname: h.host,
        hypervisor_type: h.hypervisorType,
        hypervisor_version: h.hypervisorType === 'ironic' ? 1 : 8002000,
        host_ip: h.hostIp,
        vcpus: h.vcpus,
        memory_mb: h.memoryMb,
        local_gb: h.localGb,
        supports_multiattach: h.supportsMultiattach ? 1 : 0,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  for (const [i, f] of FLAVORS.entries()) {
    await db
      .insertInto('flavors')
      .values({
        id: f.id,
        internal_id: i + 1,
        name: f.name,
        vcpus: f.vcpus,
        ram: f.ram,
        disk: f.disk,
        ephemeral: 0,
        swap: 0,
        rxtx_factor: 1,
        is_public: 1,
        disabled: 0,
        description: null,
        extra_specs: '{}',
        created_at: now,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}
