import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';

type Db = Kysely<Schema>;
export type PortRow = Schema['ports'];
export type IpAllocationRow = Schema['ip_allocations'];

/** SQL for ports and their fixed IPs. */
export const portsStore = {
  /** A project's ports and the ports on its networks (every port for null). */
  visible(db: Db, projectId: string | null): Promise<PortRow[]> {
    let q = db.selectFrom('ports').selectAll();
    if (projectId !== null) {
      q = q.where((eb) =>
        eb.or([
          eb('project_id', '=', projectId),
          eb(
            'network_id',
            'in',
            eb.selectFrom('networks').select('networks.id').where('networks.project_id', '=', projectId),
          ),
        ]),
      );
    }
    return q.execute();
  },
  byId: (db: Db, id: string) => db.selectFrom('ports').selectAll().where('id', '=', id).executeTakeFirst(),
  byDevices: (db: Db, deviceIds: readonly string[]) =>
    deviceIds.length === 0
      ? Promise.resolve([] as PortRow[])
      : db
          .selectFrom('ports')
          .selectAll()
          .where('device_id', 'in', [...deviceIds])
          .execute(),
  countOnNetwork: async (db: Db, networkId: string) =>
    Number(
      (
        await db
          .selectFrom('ports')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('network_id', '=', networkId)
          .executeTakeFirstOrThrow()
      ).n,
    ),
  insert: (db: Db, row: PortRow) => db.insertInto('ports').values(row).execute(),
  update: (db: Db, id: string, patch: Partial<PortRow>) =>
    db.updateTable('ports').set(patch).where('id', '=', id).execute(),
  delete: async (db: Db, id: string) => {
    await db.deleteFrom('ip_allocations').where('port_id', '=', id).execute();
    await db.deleteFrom('ports').where('id', '=', id).execute();
  },
  macInUse: async (db: Db, mac: string) =>
    (await db.selectFrom('ports').select('id').where('mac_address', '=', mac).executeTakeFirst()) !==
    undefined,

  ipsOf: (db: Db, portIds: readonly string[]) =>
    portIds.length === 0
      ? Promise.resolve([] as IpAllocationRow[])
      : db
          .selectFrom('ip_allocations')
          .selectAll()
          .where('port_id', 'in', [...portIds])
          .execute(),
  ipsInSubnet: (db: Db, subnetId: string) =>
    db.selectFrom('ip_allocations').selectAll().where('subnet_id', '=', subnetId).execute(),
  insertIps: (db: Db, rows: readonly IpAllocationRow[]) =>
    rows.length === 0
      ? Promise.resolve()
      : db
          .insertInto('ip_allocations')
          .values([...rows])
          .execute()
          .then(() => undefined),
  deleteIpsOf: (db: Db, portId: string) =>
    db.deleteFrom('ip_allocations').where('port_id', '=', portId).execute(),
  portsUsingGroup: async (db: Db, groupId: string) =>
    (await db.selectFrom('ports').select(['id', 'security_groups']).execute()).filter((p) =>
      (JSON.parse(p.security_groups) as string[]).includes(groupId),
    ),
};
