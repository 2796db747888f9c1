import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import type { Store } from '../../platform/db/store.js';

type Db = Kysely<Schema>;
export type AggregateRow = Schema['aggregates'];
export type AggregateHostRow = Schema['aggregate_hosts'];

/** SQL for host aggregates and the zone their hosts take. */
export const aggregatesStore = {
  /** Takes the aggregates' lock and the next id (ids are never reused). */
  async lockAndNextId(store: Store, tx: Db): Promise<number> {
    const row = await store
      .forUpdate(tx.selectFrom('aggregate_ids').select('last_id').where('id', '=', 1))
      .executeTakeFirstOrThrow();
    const id = row.last_id + 1;
    await tx.updateTable('aggregate_ids').set({ last_id: id }).where('id', '=', 1).execute();
    return id;
  },

  /** Takes the aggregates' lock: every change to aggregates and their hosts' zones is serial. */
  async lock(store: Store, tx: Db): Promise<void> {
    await store.forUpdate(tx.selectFrom('aggregate_ids').select('last_id').where('id', '=', 1)).execute();
  },

  list: (db: Db) => db.selectFrom('aggregates').selectAll().where('deleted', '=', 0).orderBy('id').execute(),

  byId: (db: Db, id: number) =>
    db.selectFrom('aggregates').selectAll().where('id', '=', id).where('deleted', '=', 0).executeTakeFirst(),

  byName: (db: Db, name: string) =>
    db
      .selectFrom('aggregates')
      .selectAll()
      .where('name', '=', name)
      .where('deleted', '=', 0)
      .executeTakeFirst(),

  async insert(db: Db, row: AggregateRow): Promise<void> {
    await db.insertInto('aggregates').values(row).execute();
  },

  async update(db: Db, id: number, changes: Partial<Omit<AggregateRow, 'id' | 'uuid'>>): Promise<void> {
    await db.updateTable('aggregates').set(changes).where('id', '=', id).execute();
  },

  /** Hosts of these aggregates, in the order they joined. */
  hostsOf(db: Db, aggregateIds: readonly number[]): Promise<AggregateHostRow[]> {
    if (aggregateIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('aggregate_hosts')
      .selectAll()
      .where('aggregate_id', 'in', [...aggregateIds])
      .orderBy('created_at')
      .orderBy('host')
      .execute();
  },

  /** A host's memberships in live aggregates, with each aggregate's metadata, oldest first. */
  membershipsOf(db: Db, host: string) {
    return db
      .selectFrom('aggregate_hosts')
      .innerJoin('aggregates', 'aggregates.id', 'aggregate_hosts.aggregate_id')
      .select(['aggregates.id', 'aggregates.metadata', 'aggregate_hosts.home_zone'])
      .where('aggregate_hosts.host', '=', host)
      .where('aggregates.deleted', '=', 0)
      .orderBy('aggregate_hosts.created_at')
      .orderBy('aggregates.id')
      .execute();
  },

  async addHost(db: Db, row: AggregateHostRow): Promise<void> {
    await db.insertInto('aggregate_hosts').values(row).execute();
  },

  async removeHost(db: Db, aggregateId: number, host: string): Promise<void> {
    await db
      .deleteFrom('aggregate_hosts')
      .where('aggregate_id', '=', aggregateId)
      .where('host', '=', host)
      .execute();
  },

  /** The zone of a host's nova-compute service (what the scheduler and the zone lists read). */
  async setComputeZone(db: Db, host: string, zone: string): Promise<void> {
    await db
      .updateTable('compute_services')
      .set({ zone })
      .where('host', '=', host)
      .where('binary', '=', 'nova-compute')
      .execute();
  },

  async countServersOnHosts(db: Db, hosts: readonly string[]): Promise<number> {
    if (hosts.length === 0) return 0;
    const row = await db
      .selectFrom('servers')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('deleted', '=', 0)
      .where('host', 'in', [...hosts])
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  },
};
