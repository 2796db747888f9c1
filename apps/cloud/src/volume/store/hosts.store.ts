import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';

type Db = Kysely<Schema>;

/** Cinder's `host` or any pool of it (`host#pool`), as `volume_data_get_for_host` matches. */
const onHost = (host: string) => (eb: import('kysely').ExpressionBuilder<Schema, 'volumes'>) =>
  eb.or([eb('volumes.host', '=', host), eb('volumes.host', 'like', `${host}#%`)]);

/** SQL for os-hosts' usage of one volume host: volumes, and the snapshots of its volumes, per project. */
export const hostsStore = {
  async volumeUsageByProject(db: Db, host: string) {
    const rows = await db
      .selectFrom('volumes')
      .select((eb) => [
        'project_id',
        eb.fn.countAll().as('count'),
        eb.fn.sum<number | string | null>('size').as('gigabytes'),
      ])
      .where(onHost(host))
      .groupBy('project_id')
      .execute();
    return rows.map((r) => ({
      projectId: r.project_id,
      count: Number(r.count),
      gigabytes: Number(r.gigabytes ?? 0),
    }));
  },

  async snapshotUsageByProject(db: Db, host: string) {
    const rows = await db
      .selectFrom('volume_snapshots')
      .innerJoin('volumes', 'volumes.id', 'volume_snapshots.volume_id')
      .select((eb) => [
        'volume_snapshots.project_id as project_id',
        eb.fn.countAll().as('count'),
        eb.fn.sum<number | string | null>('volume_snapshots.volume_size').as('gigabytes'),
      ])
      .where(onHost(host))
      .groupBy('volume_snapshots.project_id')
      .execute();
    return rows.map((r) => ({
      projectId: r.project_id,
      count: Number(r.count),
      gigabytes: Number(r.gigabytes ?? 0),
    }));
  },
};
