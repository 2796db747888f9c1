import { type Kysely, sql } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import type { Store } from '../../platform/db/store.js';

type Db = Kysely<Schema>;
export type ServerRow = Schema['servers'];
export type ComputeServiceRow = Schema['compute_services'];

/** The flavor as the server was built with it (`instance.flavor`), kept as JSON on the row. */
export interface FlavorSnapshot {
  id: string;
  name: string;
  vcpus: number;
  ram: number;
  disk: number;
  ephemeral: number;
  swap: number;
  extra_specs: Record<string, string>;
}

/**
 * What a resize must remember to revert or confirm (Nova keeps it in the migration record and
 * system metadata): the old flavor, where the server came from and the vm_state to return to.
 */
export interface ResizeSource {
  /** The flavor before the resize (Nova's old_flavor). */
  flavor: FlavorSnapshot;
  /** The flavor asked for (Nova's new_flavor). */
  newFlavor: FlavorSnapshot;
  host: string | null;
  node: string | null;
  availabilityZone: string | null;
  /** active or stopped: what confirm or revert returns to. */
  vmState: string;
  /** Chosen by the scheduler in resize_prep. */
  dest: { host: string; node: string; zone: string } | null;
  /** confirmResize accepted; the host finishes it. */
  confirming?: boolean;
  /** revertResize has moved the server back; its volumes still need connecting. */
  revertMoved?: boolean;
  // cloud-rescue: a cold migrate's host (2.56), for the scheduler in resize_prep.
  requestedHost?: string;
}

/** Columns the list query sorts and filters on in memory (cheap to read for thousands of rows). */
export type ServerListKey = Pick<
  ServerRow,
  | 'id'
  | 'name'
  | 'created_at'
  | 'updated_at'
  | 'launched_at'
  | 'terminated_at'
  | 'vm_state'
  | 'task_state'
  | 'power_state'
  | 'host'
  | 'node'
  | 'availability_zone'
  | 'key_name'
  | 'reservation_id'
  | 'project_id'
  | 'user_id'
  | 'hostname'
  | 'locked'
  | 'tags'
>;

/** Filters that SQL applies; regexes and tag sets are applied by the service. */
export interface ServerSqlFilter {
  projectId?: string;
  userId?: string;
  includeDeleted: boolean;
  onlyDeleted: boolean;
  vmStates?: string[];
  taskStates?: string[];
  host?: string;
  imageId?: string;
  flavorId?: string;
  changesSince?: string;
  changesBefore?: string;
  locked?: boolean;
  powerState?: number;
  uuid?: string;
}

const LIST_COLUMNS = [
  'id',
  'name',
  'created_at',
  'updated_at',
  'launched_at',
  'terminated_at',
  'vm_state',
  'task_state',
  'power_state',
  'host',
  'node',
  'availability_zone',
  'key_name',
  'reservation_id',
  'project_id',
  'user_id',
  'hostname',
  'locked',
  'tags',
] as const;

/** Largest IN list we send at once (SQLite's bound-parameter limit is far above this). */
const CHUNK = 500;

async function inChunks<T>(ids: readonly string[], run: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) out.push(...(await run(ids.slice(i, i + CHUNK))));
  return out;
}

/** SQL for the servers table (and the read-only lookups server views and scheduling need). */
export const serversStore = {
  byId: (db: Db, id: string) =>
    db.selectFrom('servers').selectAll().where('id', '=', id).where('deleted', '=', 0).executeTakeFirst(),

  /** Any row, soft-deleted too (list markers, `changes-since`). */
  byIdIncludingDeleted: (db: Db, id: string) =>
    db.selectFrom('servers').selectAll().where('id', '=', id).executeTakeFirst(),

  /** Reads a server and, on PostgreSQL, locks its row until the transaction ends. */
  lockById: (store: Store, tx: Db, id: string) =>
    store
      .forUpdate(tx.selectFrom('servers').selectAll().where('id', '=', id).where('deleted', '=', 0))
      .executeTakeFirst(),

  /** `lockById` for a batch of servers, locked in id order (as two batches would). */
  lockByIds: (store: Store, tx: Db, ids: readonly string[]) =>
    inChunks([...ids].sort(), (chunk) =>
      store
        .forUpdate(
          tx
            .selectFrom('servers')
            .selectAll()
            .where('id', 'in', chunk)
            .where('deleted', '=', 0)
            .orderBy('id'),
        )
        .execute(),
    ),

  insert: (db: Db, row: ServerRow) => db.insertInto('servers').values(row).execute(),

  /** Many rows (one multi-create), a statement per hundred. */
  insertMany: async (db: Db, rows: readonly ServerRow[]) => {
    for (let i = 0; i < rows.length; i += 100) {
      await db
        .insertInto('servers')
        .values(rows.slice(i, i + 100))
        .execute();
    }
  },

  /**
   * Writes `columns` of many servers, each its own values, a statement per hundred (an upsert of
   * the whole rows that only ever takes the update branch).
   */
  updateEach: async (db: Db, rows: readonly ServerRow[], columns: readonly (keyof ServerRow & string)[]) => {
    const set = Object.fromEntries(columns.map((c) => [c, sql.ref(`excluded.${c}`)]));
    for (let i = 0; i < rows.length; i += 100) {
      await db
        .insertInto('servers')
        .values(rows.slice(i, i + 100))
        .onConflict((oc) => oc.column('id').doUpdateSet(set as Partial<ServerRow>))
        .execute();
    }
  },

  /** The same changes for a batch of servers (a batched build step). */
  updateMany: async (db: Db, ids: readonly string[], changes: Partial<ServerRow>) => {
    await inChunks(ids, async (chunk) => {
      await db.updateTable('servers').set(changes).where('id', 'in', chunk).execute();
      return [];
    });
  },

  update: (db: Db, id: string, changes: Partial<ServerRow>) =>
    db.updateTable('servers').set(changes).where('id', '=', id).execute(),

  /** Full rows for one page of a list, in any order. */
  byIds: (db: Db, ids: readonly string[]) =>
    inChunks(ids, (chunk) => db.selectFrom('servers').selectAll().where('id', 'in', chunk).execute()),

  /**
   * The sort and filter columns of every server matching the SQL filters. Only `id` and the given
   * `columns` are read (the rest stay undefined): this runs over every matching server for each page,
   * so a column nobody sorts or filters on costs on every row.
   */
  listKeys(
    db: Db,
    f: ServerSqlFilter,
    columns: readonly (keyof ServerListKey)[] = LIST_COLUMNS,
  ): Promise<ServerListKey[]> {
    let q = db.selectFrom('servers').select([...new Set(['id', ...columns] as const)]);
    if (f.onlyDeleted) q = q.where('deleted', '=', 1);
    else if (!f.includeDeleted) q = q.where('deleted', '=', 0);
    if (f.projectId !== undefined) q = q.where('project_id', '=', f.projectId);
    if (f.userId !== undefined) q = q.where('user_id', '=', f.userId);
    if (f.vmStates !== undefined) q = q.where('vm_state', 'in', f.vmStates.length ? f.vmStates : ['']);
    if (f.taskStates !== undefined)
      q = q.where('task_state', 'in', f.taskStates.length ? f.taskStates : ['']);
    if (f.host !== undefined) q = q.where('host', '=', f.host);
    if (f.imageId !== undefined) q = q.where('image_id', '=', f.imageId);
    if (f.flavorId !== undefined) q = q.where('flavor_id', '=', f.flavorId);
    if (f.changesSince !== undefined) q = q.where('updated_at', '>=', f.changesSince);
    if (f.changesBefore !== undefined) q = q.where('updated_at', '<=', f.changesBefore);
    if (f.locked !== undefined) q = q.where('locked', '=', f.locked ? 1 : 0);
    if (f.powerState !== undefined) q = q.where('power_state', '=', f.powerState);
    if (f.uuid !== undefined) q = q.where('id', '=', f.uuid);
    return q.execute();
  },

  /** Members of one multi-create request. */
  byReservation: (db: Db, reservationId: string) =>
    db
      .selectFrom('servers')
      .selectAll()
      .where('reservation_id', '=', reservationId)
      .where('deleted', '=', 0)
      .orderBy('launch_index')
      .execute(),

  /** Servers a killed process may have left mid-way (building, or any task in progress). */
  unfinished: (db: Db) =>
    db
      .selectFrom('servers')
      .selectAll()
      .where('deleted', '=', 0)
      .where((eb) =>
        eb.or([eb('vm_state', 'in', ['building', 'deleted', 'resized']), eb('task_state', 'is not', null)]),
      )
      .execute(),

  /** Hides a deleted server (Nova's soft delete: the row stays for `changes-since`). */
  softDelete: (db: Db, id: string, at: string) =>
    db.updateTable('servers').set({ deleted: 1, updated_at: at }).where('id', '=', id).execute(),

  /**
   * Serialises placement: the nova-scheduler service row, locked on PostgreSQL (SQLite
   * transactions are serial), so two builds never both take a host's last slot.
   */
  lockScheduler: (store: Store, tx: Db) =>
    store
      .forUpdate(tx.selectFrom('compute_services').select('id').where('binary', '=', 'nova-scheduler'))
      .execute(),

  // --- Read-only lookups of other compute tables --------------------------------------------------

  /** nova-compute service rows of some hosts (host_status). */
  computeServicesOf: (db: Db, hosts: readonly string[]) =>
    inChunks([...new Set(hosts)], (chunk) =>
      db
        .selectFrom('compute_services')
        .selectAll()
        .where('binary', '=', 'nova-compute')
        .where('host', 'in', chunk)
        .execute(),
    ),
};
