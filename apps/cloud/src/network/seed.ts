import type { CloudDeps } from '../deps.js';
import { stableUuid } from '../platform/ids.js';
import { nowIso } from '../platform/time.js';

/**
 * What devstack makes for each project that gets servers: a `private` network with the
 * `private-subnet` 10.0.0.0/22 (devstack's IPV4_ADDRS_SAFE_TO_USE, so a project fits a thousand servers; gateway 10.0.0.1). Idempotent, multi-process safe (stable ids).
 */
export async function seedNetwork(deps: CloudDeps): Promise<void> {
  const db = deps.store.db;
  const projects = await db
    .selectFrom('projects')
    .select(['id', 'name'])
    .where('name', 'in', ['admin', 'demo'])
    .where('domain_id', '=', 'default')
    .execute();
  const now = nowIso();
  for (const p of projects) {
    const networkId = stableUuid(`network/${p.name}/private`);
    await db
      .insertInto('networks')
      .values({
        id: networkId,
        project_id: p.id,
        name: 'private',
        description: '',
        admin_state_up: 1,
        shared: 0,
        external: 0,
        mtu: 1442,
        port_security_enabled: 1,
        revision_number: 2,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
    await db
      .insertInto('subnets')
      .values({
        id: stableUuid(`network/${p.name}/private-subnet`),
        network_id: networkId,
        project_id: p.id,
        name: 'private-subnet',
        description: '',
        ip_version: 4,
        cidr: '10.0.0.0/22',
        gateway_ip: '10.0.0.1',
        enable_dhcp: 1,
        allocation_pools: JSON.stringify([{ start: '10.0.0.2', end: '10.0.3.254' }]),
        dns_nameservers: '[]',
        host_routes: '[]',
        revision_number: 0,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}
