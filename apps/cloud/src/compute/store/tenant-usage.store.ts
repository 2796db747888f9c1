import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import type { Micros } from '../schemas/simple-tenant-usage.schemas.js';

type Db = Kysely<Schema>;

const iso = (t: Micros) => new Date(Math.floor(t / 1000)).toISOString();

/** SQL for simple tenant usage: servers (deleted ones too) that ran within a window. */
export const tenantUsageStore = {
  /**
   * `instance_get_active_by_window_joined`: not terminated before `begin`, launched before `end`,
   * ordered by project then id, a page after `after`.
   */
  activeInWindow(
    db: Db,
    w: {
      begin: Micros;
      end: Micros;
      projectId: string | null;
      limit: number | undefined;
      after?: { project_id: string; id: string };
    },
  ) {
    let q = db
      .selectFrom('servers')
      .select(['id', 'project_id', 'name', 'flavor', 'vm_state', 'launched_at', 'terminated_at'])
      .where((eb) => eb.or([eb('terminated_at', 'is', null), eb('terminated_at', '>', iso(w.begin))]))
      .where('launched_at', 'is not', null)
      .where('launched_at', '<', iso(w.end));
    if (w.projectId !== null) q = q.where('project_id', '=', w.projectId);
    if (w.after) {
      const a = w.after;
      q = q.where((eb) =>
        eb.or([
          eb('project_id', '>', a.project_id),
          eb.and([eb('project_id', '=', a.project_id), eb('id', '>', a.id)]),
        ]),
      );
    }
    q = q.orderBy('project_id').orderBy('id');
    if (w.limit !== undefined) q = q.limit(w.limit);
    return q.execute();
  },

  markerRow: (db: Db, id: string) =>
    db.selectFrom('servers').select(['project_id', 'id']).where('id', '=', id).executeTakeFirst(),
};
