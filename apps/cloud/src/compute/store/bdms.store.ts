import { type Kysely, sql } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';

type Db = Kysely<Schema>;
export type BdmRow = Schema['block_device_mappings'];

const SERVER_VIEW_BDM_COLUMNS = [
  'uuid',
  'server_id',
  'volume_id',
  'boot_index',
  'device_name',
  'delete_on_termination',
  'created_at',
] as const;
/** The columns of a mapping that server views read. */
export type ServerViewBdm = Pick<BdmRow, (typeof SERVER_VIEW_BDM_COLUMNS)[number]>;

/** SQL for block_device_mappings: Nova's own record of which volumes a server holds. */
export const bdmsStore = {
  forServer: (db: Db, serverId: string) =>
    db
      .selectFrom('block_device_mappings')
      .selectAll()
      .where('server_id', '=', serverId)
      .orderBy('created_at')
      .orderBy('uuid')
      .execute(),

  /** `forServer` for a batch of servers, in the same order per server. */
  forServers: (db: Db, serverIds: readonly string[]) =>
    serverIds.length === 0
      ? Promise.resolve([] as BdmRow[])
      : db
          .selectFrom('block_device_mappings')
          .selectAll()
          .where('server_id', 'in', [...serverIds])
          .orderBy('created_at')
          .orderBy('uuid')
          .execute(),

  /** What server views show of many servers' mappings (no connection info: it is the bulk of a row). */
  viewFieldsForServers: (db: Db, serverIds: readonly string[]): Promise<ServerViewBdm[]> =>
    serverIds.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('block_device_mappings')
          .select([...SERVER_VIEW_BDM_COLUMNS])
          .where('server_id', 'in', serverIds)
          .execute(),

  forVolume: (db: Db, volumeId: string) =>
    db.selectFrom('block_device_mappings').selectAll().where('volume_id', '=', volumeId).execute(),

  /**
   * The mappings of a volume held by servers that still exist (Nova's `get_by_volume` only sees
   * live instances), oldest first so messages list servers in attach order.
   */
  forVolumeOnLiveServers: (db: Db, volumeId: string) =>
    db
      .selectFrom('block_device_mappings as b')
      .innerJoin('servers as s', 's.id', 'b.server_id')
      .selectAll('b')
      .where('b.volume_id', '=', volumeId)
      .where('s.deleted', '=', 0)
      .orderBy('b.created_at')
      .orderBy('b.uuid')
      .execute(),

  /** Nova's `get_by_volume_and_instance`. */
  byServerAndVolume: (db: Db, serverId: string, volumeId: string) =>
    db
      .selectFrom('block_device_mappings')
      .selectAll()
      .where('server_id', '=', serverId)
      .where('volume_id', '=', volumeId)
      .executeTakeFirst(),

  byUuid: (db: Db, uuid: string) =>
    db.selectFrom('block_device_mappings').selectAll().where('uuid', '=', uuid).executeTakeFirst(),

  /**
   * One page of a server's mappings in creation order. Nova pages all of them (`common.limited`)
   * and only then drops those without a volume, so the view filters, not this query.
   */
  pageForServer: (db: Db, serverId: string, limit: number, offset: number) =>
    db
      .selectFrom('block_device_mappings')
      .selectAll()
      .where('server_id', '=', serverId)
      .orderBy('created_at')
      .orderBy('uuid')
      .limit(limit)
      .offset(offset)
      .execute(),

  /** Device names a server already uses, for picking the next free one. */
  deviceNamesForServer: async (db: Db, serverId: string): Promise<string[]> => {
    const rows = await db
      .selectFrom('block_device_mappings')
      .select('device_name')
      .where('server_id', '=', serverId)
      .where('device_name', 'is not', null)
      .execute();
    return rows.flatMap((r) => (r.device_name ? [r.device_name] : []));
  },

  /** Does a live server's mapping hold this Cinder attachment? (Cinder's OSSA-2023-003 probe.) */
  holdsAttachment: async (db: Db, serverId: string, attachmentId: string): Promise<boolean> => {
    const row = await db
      .selectFrom('block_device_mappings as b')
      .innerJoin('servers as s', 's.id', 'b.server_id')
      .select('b.uuid')
      .where('b.server_id', '=', serverId)
      .where('b.attachment_id', '=', attachmentId)
      .where('s.deleted', '=', 0)
      .executeTakeFirst();
    return row !== undefined;
  },

  /** Servers on a host with a reserved volume never connected: an attach a crash interrupted. */
  serversWithUnconnectedVolumes: async (db: Db): Promise<string[]> => {
    const rows = await db
      .selectFrom('block_device_mappings')
      .innerJoin('servers', 'servers.id', 'block_device_mappings.server_id')
      .select('servers.id')
      .distinct()
      .where('block_device_mappings.volume_id', 'is not', null)
      .where('block_device_mappings.attachment_id', 'is not', null)
      .where('block_device_mappings.connection_info', 'is', null)
      .where('servers.deleted', '=', 0)
      .where('servers.host', 'is not', null)
      .where('servers.task_state', 'is', null)
      .where('servers.vm_state', 'not in', ['building', 'shelved_offloaded', 'error'])
      .execute();
    return rows.map((r) => r.id);
  },

  /** Mappings of live servers whose detach Nova accepted and the host never finished. */
  detachRequested: (db: Db) =>
    db
      .selectFrom('block_device_mappings as b')
      .innerJoin('servers as s', 's.id', 'b.server_id')
      .selectAll('b')
      .where('b.detach_requested_at', 'is not', null)
      .where('s.deleted', '=', 0)
      .orderBy('b.detach_requested_at')
      .execute(),

  insert: (db: Db, row: BdmRow) => db.insertInto('block_device_mappings').values(row).execute(),

  /**
   * Writes `columns` of many existing rows, each its own values, a statement per hundred (an
   * upsert of the whole rows that only ever takes the update branch).
   */
  updateEach: async (db: Db, rows: readonly BdmRow[], columns: readonly (keyof BdmRow & string)[]) => {
    const set = Object.fromEntries(columns.map((c) => [c, sql.ref(`excluded.${c}`)]));
    for (let i = 0; i < rows.length; i += 100) {
      await db
        .insertInto('block_device_mappings')
        .values(rows.slice(i, i + 100))
        .onConflict((oc) => oc.column('uuid').doUpdateSet(set as Partial<BdmRow>))
        .execute();
    }
  },

  /** Many rows, a statement per hundred. */
  insertMany: async (db: Db, rows: readonly BdmRow[]) => {
    for (let i = 0; i < rows.length; i += 100) {
      await db
        .insertInto('block_device_mappings')
        .values(rows.slice(i, i + 100))
        .execute();
    }
  },

  update: (db: Db, uuid: string, changes: Partial<BdmRow>) =>
    db.updateTable('block_device_mappings').set(changes).where('uuid', '=', uuid).execute(),

  delete: (db: Db, uuid: string) => db.deleteFrom('block_device_mappings').where('uuid', '=', uuid).execute(),
};

/** What the API needs to know about a compute host before attaching to a server on it. */
export interface AttachHost {
  host: string;
  serviceVersion: number;
  supportsMultiattach: boolean;
  hypervisorType: string;
  hostIp: string;
}

/** SQL over compute_services / compute_nodes, read-only, for the attach rules. */
export const attachHostsStore = {
  /** `byHost` for many hosts at once. */
  byHosts: async (db: Db, hosts: readonly string[]): Promise<Map<string, AttachHost>> => {
    const out = new Map<string, AttachHost>();
    if (hosts.length === 0) return out;
    const rows = await db
      .selectFrom('compute_nodes as n')
      .innerJoin('compute_services as s', 's.id', 'n.service_id')
      .select(['n.host', 's.version', 'n.supports_multiattach', 'n.hypervisor_type', 'n.host_ip'])
      .where('n.host', 'in', [...hosts])
      .execute();
    for (const row of rows) {
      if (out.has(row.host)) continue;
      out.set(row.host, {
        host: row.host,
        serviceVersion: row.version,
        supportsMultiattach: row.supports_multiattach === 1,
        hypervisorType: row.hypervisor_type,
        hostIp: row.host_ip,
      });
    }
    return out;
  },

  byHost: async (db: Db, host: string): Promise<AttachHost | undefined> => {
    const row = await db
      .selectFrom('compute_nodes as n')
      .innerJoin('compute_services as s', 's.id', 'n.service_id')
      .select(['n.host', 's.version', 'n.supports_multiattach', 'n.hypervisor_type', 'n.host_ip'])
      .where('n.host', '=', host)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      host: row.host,
      serviceVersion: row.version,
      supportsMultiattach: row.supports_multiattach === 1,
      hypervisorType: row.hypervisor_type,
      hostIp: row.host_ip,
    };
  },
};
