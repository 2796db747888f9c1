/**
 * Bulk seeding for the scale benches: compute hosts, shared volumes and servers with their
 * attachments go straight into the tables with multi-row INSERTs (the point is to time reads,
 * not the create APIs), deterministically, so every engine and run sees the same rows.
 */
import { type Insertable, sql } from 'kysely';
import type { BootedCloud } from '../../apps/cloud/src/boot.js';
import type { Schema } from '../../apps/cloud/src/platform/db/schema.js';

export const ATTACHMENTS_PER_SERVER = 4;

/** A small deterministic PRNG (mulberry32): the same data on every run and engine. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Deterministic uuid-shaped ids: `kind` says which table, `n` which row. */
export const uuid = (kind: number, n: number) =>
  `${kind.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/** Ids kinds, so no two tables share one. */
const KIND = { service: 1, node: 2, volume: 3, server: 4, attachment: 5, bdm: 6 } as const;

/** The id `addSharedVolumes` gave volume number `v`. */
export const volumeId = (v: number) => uuid(KIND.volume, v);

/** Multi-row INSERTs, chunked under both engines' bind-parameter limits. */
async function insertChunked<R extends object>(rows: R[], insert: (chunk: R[]) => Promise<unknown>) {
  if (rows.length === 0) return;
  const perChunk = Math.max(1, Math.floor(30_000 / Object.keys(rows[0]!).length));
  for (let i = 0; i < rows.length; i += perChunk) await insert(rows.slice(i, i + perChunk));
}

/** The id `addServers` gave server number `i` (0 is the newest: lists sort created_at desc). */
export const serverId = (i: number) => uuid(KIND.server, i);

export interface Seeded {
  /** When seeded servers were "created": server i at this minus a day minus i seconds. */
  epochMs: number;
  /** Every nova-compute host, seeded ones included. */
  hosts: string[];
  /** Servers added so far by `addServers`. */
  servers: number;
  volumes: number;
  volumeTypeId: string;
  /** The `admin` and `demo` projects' ids. */
  projects: string[];
}

/** What the cloud seeds itself: the admin and demo projects and the multiattach type. */
export async function seedState(cloud: BootedCloud): Promise<Seeded> {
  const db = cloud.deps.store.db;
  const projects = (
    await db
      .selectFrom('projects')
      .select('id')
      .where('name', 'in', ['admin', 'demo'])
      .orderBy('name')
      .execute()
  ).map((p) => p.id);
  const volumeTypeId = (
    await db
      .selectFrom('volume_types')
      .select('id')
      .where('name', '=', 'multiattach')
      .executeTakeFirstOrThrow()
  ).id;
  return {
    epochMs: Date.now(),
    hosts: await computeHosts(cloud),
    servers: 0,
    volumes: 0,
    volumeTypeId,
    projects,
  };
}

async function computeHosts(cloud: BootedCloud): Promise<string[]> {
  const db = cloud.deps.store.db;
  return (
    await db.selectFrom('compute_services').select('host').where('binary', '=', 'nova-compute').execute()
  ).map((h) => h.host);
}

/**
 * `count` more enabled, up, current nova-compute hosts (64 vCPUs, 256 GiB, shareable disks),
 * named bench-001..., in `zone` or alternating between `nova` and `az2`.
 */
export async function addComputeHosts(
  cloud: BootedCloud,
  seeded: Seeded,
  count: number,
  zone?: string,
): Promise<void> {
  const db = cloud.deps.store.db;
  const now = new Date().toISOString();
  const maxService = await db
    .selectFrom('compute_services')
    .select(db.fn.max('id').as('id'))
    .executeTakeFirstOrThrow();
  const maxNode = await db
    .selectFrom('compute_nodes')
    .select(db.fn.max('id').as('id'))
    .executeTakeFirstOrThrow();
  const firstService = Number(maxService.id) + 1;
  const firstNode = Number(maxNode.id) + 1;
  const names = Array.from({ length: count }, (_, i) => `bench-${String(i + 1).padStart(3, '0')}`);
  const services: Insertable<Schema['compute_services']>[] = names.map((host, i) => ({
    id: firstService + i,
    uuid: uuid(KIND.service, i),
    binary: 'nova-compute',
    host,
    zone: zone ?? (i % 2 === 0 ? 'nova' : 'az2'),
    status: 'enabled',
    disabled_reason: null,
    forced_down: 0,
    version: 70,
    updated_at: now,
  }));
  const nodes: Insertable<Schema['compute_nodes']>[] = names.map((host, i) => ({
    id: firstNode + i,
    uuid: uuid(KIND.node, i),
    service_id: firstService + i,
    host,
    hypervisor_hostname: host,
    hypervisor_type: 'QEMU',
    hypervisor_version: 8002000,
    host_ip: `10.1.${i >> 8}.${i & 255}`,
    vcpus: 64,
    memory_mb: 262_144,
    local_gb: 2_000,
    supports_multiattach: 1,
  }));
  await insertChunked(services, (c) => db.insertInto('compute_services').values(c).execute());
  await insertChunked(nodes, (c) => db.insertInto('compute_nodes').values(c).execute());
  seeded.hosts = await computeHosts(cloud);
}

/** `count` multiattach volumes `in-use`, alternating between the admin and demo projects. */
export async function addSharedVolumes(cloud: BootedCloud, seeded: Seeded, count: number): Promise<void> {
  const now = new Date().toISOString();
  const volumes: Insertable<Schema['volumes']>[] = Array.from({ length: count }, (_, i) => {
    const v = seeded.volumes + i;
    return {
      id: volumeId(v),
      project_id: seeded.projects[v % seeded.projects.length]!,
      user_id: 'bench',
      name: `shared-${v}`,
      description: null,
      size: 10,
      status: 'in-use',
      attach_status: 'attached',
      volume_type_id: seeded.volumeTypeId,
      availability_zone: 'nova',
      bootable: 0,
      multiattach: 1,
      host: 'controller@lvm#lvm',
      metadata: '{}',
      readonly_flag: null,
      migration_status: null,
      snapshot_id: null,
      source_volid: null,
      encrypted: 0,
      created_at: now,
      updated_at: now,
      launched_at: now,
    };
  });
  const db = cloud.deps.store.db;
  await insertChunked(volumes, (c) => db.insertInto('volumes').values(c).execute());
  seeded.volumes += count;
}

/**
 * Servers up to `to` in all, round-robin over the hosts and alternating between the admin and
 * demo projects, each holding ATTACHMENTS_PER_SERVER of the shared volumes: mostly attached
 * read-only, ~10% read-write (so most volumes get the `multiple_writers` flag), ~1.5%
 * `attaching`/`detaching` for an hour (the `stuck_attachment` flag). Then ANALYZE, as an
 * operator's autovacuum would give after a bulk load.
 */
export async function addServers(cloud: BootedCloud, seeded: Seeded, to: number): Promise<void> {
  if (seeded.volumes === 0) throw new Error('addServers: add the shared volumes first');
  const from = seeded.servers;
  const rand = prng(from + 1);
  // One clock for every call, so servers added later still sort after the earlier ones.
  const iso = (agoMs: number) => new Date(seeded.epochMs - agoMs).toISOString();
  const servers: Insertable<Schema['servers']>[] = [];
  const bdms: Insertable<Schema['block_device_mappings']>[] = [];
  const attachments: Insertable<Schema['volume_attachments']>[] = [];
  for (let i = from; i < to; i++) {
    const id = serverId(i);
    const host = seeded.hosts[i % seeded.hosts.length]!;
    const created = iso(86_400_000 + i * 1000);
    servers.push({
      id,
      project_id: seeded.projects[i % seeded.projects.length]!,
      user_id: 'bench',
      name: `vm-${i}`,
      hostname: `vm-${i}`,
      description: null,
      vm_state: 'active',
      task_state: null,
      power_state: 1,
      host,
      node: host,
      availability_zone: 'nova',
      requested_availability_zone: null,
      flavor_id: '1',
      flavor: '{}',
      old_flavor: null,
      image_id: null,
      reservation_id: 'r-bench000',
      launch_index: 0,
      key_name: null,
      metadata: '{}',
      tags: '[]',
      security_groups: '[]',
      config_drive: '',
      locked: 0,
      auto_disk_config: 0,
      locked_reason: null,
      fault: null,
      created_at: created,
      updated_at: created,
      launched_at: created,
      terminated_at: null,
      deleted: 0,
    });
    for (let k = 0; k < ATTACHMENTS_PER_SERVER; k++) {
      const volume = volumeId((i * ATTACHMENTS_PER_SERVER + k) % seeded.volumes);
      const attachmentId = uuid(KIND.attachment, i * ATTACHMENTS_PER_SERVER + k);
      const mode = rand() < 0.1 ? 'rw' : 'ro';
      const r = rand();
      const status = r < 0.01 ? 'attaching' : r < 0.015 ? 'detaching' : 'attached';
      const changed = status === 'attached' ? created : iso(3_600_000);
      const device = `/dev/vd${String.fromCharCode(98 + k)}`;
      attachments.push({
        id: attachmentId,
        volume_id: volume,
        instance_uuid: id,
        attached_host: host,
        mountpoint: device,
        attach_status: status,
        attach_mode: mode,
        connector: null,
        connection_info: null,
        attached_at: status === 'attached' ? created : null,
        detached_at: null,
        created_at: created,
        updated_at: changed,
      });
      bdms.push({
        uuid: uuid(KIND.bdm, i * ATTACHMENTS_PER_SERVER + k),
        server_id: id,
        source_type: 'volume',
        destination_type: 'volume',
        volume_id: volume,
        image_id: null,
        attachment_id: attachmentId,
        boot_index: k === 0 ? 0 : null,
        device_name: device,
        device_type: 'disk',
        disk_bus: 'virtio',
        guest_format: null,
        volume_size: null,
        volume_type: null,
        delete_on_termination: 0,
        tag: null,
        attach_mode: mode,
        connection_info: null,
        created_at: created,
        updated_at: changed,
      });
    }
  }
  // Plain autocommitted multi-row INSERTs: store.transaction is not needed for a bulk load.
  const db = cloud.deps.store.db;
  await insertChunked(servers, (c) => db.insertInto('servers').values(c).execute());
  await insertChunked(attachments, (c) => db.insertInto('volume_attachments').values(c).execute());
  await insertChunked(bdms, (c) => db.insertInto('block_device_mappings').values(c).execute());
  seeded.servers = to;
  await sql`analyze`.execute(db);
}
