import { type Kysely, sql } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';

type Db = Kysely<Schema>;
export type ServiceRow = Schema['compute_services'];
export type NodeRow = Schema['compute_nodes'];

/** What a host's usage is computed from: its live servers and the flavor each was built with. */
export interface HostedServerRow {
  id: string;
  name: string;
  host: string;
  vm_state: string;
  task_state: string | null;
  image_id: string | null;
  flavor_id: string;
  flavor: string;
}

/** Live servers of one host, flavor and kind of root disk: what usage is summed from. */
export interface HostedUsageRow {
  host: string;
  flavor_id: string;
  flavor: string;
  /** 1 when booted from a volume (no image): no local root disk. */
  volume_backed: number;
  servers: number;
  /** Of those, servers with a task in progress. */
  busy: number;
}

/** SQL for compute services and nodes (and the read of servers that usage needs). */
export const hostsStore = {
  listServices(db: Db, f: { host?: string; binary?: string } = {}): Promise<ServiceRow[]> {
    let q = db.selectFrom('compute_services').selectAll();
    if (f.host !== undefined) q = q.where('host', '=', f.host);
    if (f.binary !== undefined) q = q.where('binary', '=', f.binary);
    return q.orderBy('id').execute();
  },

  serviceById: (db: Db, id: number) =>
    db.selectFrom('compute_services').selectAll().where('id', '=', id).executeTakeFirst(),

  serviceByUuid: (db: Db, uuid: string) =>
    db.selectFrom('compute_services').selectAll().where('uuid', '=', uuid).executeTakeFirst(),

  serviceByHostBinary: (db: Db, host: string, binary: string) =>
    db
      .selectFrom('compute_services')
      .selectAll()
      .where('host', '=', host)
      .where('binary', '=', binary)
      .executeTakeFirst(),

  async updateService(db: Db, id: number, changes: Partial<Omit<ServiceRow, 'id' | 'uuid'>>): Promise<void> {
    await db.updateTable('compute_services').set(changes).where('id', '=', id).execute();
  },

  /** A service goes with its compute node (Nova destroys both). */
  async deleteService(db: Db, id: number): Promise<void> {
    await db.deleteFrom('compute_nodes').where('service_id', '=', id).execute();
    await db.deleteFrom('compute_services').where('id', '=', id).execute();
  },

  listNodes: (db: Db) => db.selectFrom('compute_nodes').selectAll().orderBy('id').execute(),

  nodeById: (db: Db, id: number) =>
    db.selectFrom('compute_nodes').selectAll().where('id', '=', id).executeTakeFirst(),

  nodeByUuid: (db: Db, uuid: string) =>
    db.selectFrom('compute_nodes').selectAll().where('uuid', '=', uuid).executeTakeFirst(),

  /** Live servers placed on a host (all hosts when `hosts` is omitted). */
  hostedServers(db: Db, hosts?: string[]): Promise<HostedServerRow[]> {
    let q = db
      .selectFrom('servers')
      .select(['id', 'name', 'host', 'vm_state', 'task_state', 'image_id', 'flavor_id', 'flavor'])
      .where('deleted', '=', 0)
      .where('host', 'is not', null)
      .where('vm_state', 'not in', ['deleted', 'shelved_offloaded']);
    if (hosts !== undefined) {
      if (hosts.length === 0) return Promise.resolve([]);
      q = q.where('host', 'in', hosts);
    }
    return q.orderBy('created_at').orderBy('id').execute() as Promise<HostedServerRow[]>;
  },

  /**
   * Live placed servers counted per host and flavor, in SQL: the scheduler reads this on every
   * placement, and a row per server would make each one cost as much as the whole cloud.
   */
  async hostedUsage(db: Db): Promise<HostedUsageRow[]> {
    const volumeBacked = sql<number>`case when image_id is null or image_id = '' then 1 else 0 end`;
    const rows = await db
      .selectFrom('servers')
      .select((eb) => [
        'host',
        'flavor_id',
        'flavor',
        volumeBacked.as('volume_backed'),
        eb.fn.countAll().as('servers'),
        eb.fn.count('task_state').as('busy'),
      ])
      .where('deleted', '=', 0)
      .where('host', 'is not', null)
      .where('vm_state', 'not in', ['deleted', 'shelved_offloaded'])
      .groupBy(['host', 'flavor_id', 'flavor', volumeBacked])
      .execute();
    // PostgreSQL answers counts as strings.
    return rows.map((r) => ({
      host: r.host!,
      flavor_id: r.flavor_id,
      flavor: r.flavor,
      volume_backed: Number(r.volume_backed),
      servers: Number(r.servers),
      busy: Number(r.busy),
    }));
  },

  async countServersOnHost(db: Db, host: string): Promise<number> {
    const row = await db
      .selectFrom('servers')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('deleted', '=', 0)
      .where('host', '=', host)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  },

  // --- cloud-proxy-hosts: os-hosts show ---
  /** Live servers of one host with their project, oldest first (os-hosts' per-project rows). */
  hostedServersWithProject(db: Db, host: string) {
    return db
      .selectFrom('servers')
      .select(['project_id', 'flavor_id', 'flavor'])
      .where('deleted', '=', 0)
      .where('host', '=', host)
      .where('vm_state', 'not in', ['deleted', 'shelved_offloaded'])
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  },

  flavorsByIds(db: Db, ids: string[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('flavors')
      .select(['id', 'vcpus', 'ram', 'disk', 'ephemeral', 'swap'])
      .where('id', 'in', ids)
      .execute();
  },
};
