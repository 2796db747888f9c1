import type { Microversion } from '../../platform/http/microversion.js';
import type { MigrationRow } from '../store/migrations.store.js';
import { usageTime } from './server.view.js';

/** Nova's os-migrations view (`migrations.py` `_output`), keys by microversion (captures 903-904). */
export function migrationView(m: MigrationRow, v: Microversion) {
  return {
    id: m.id,
    ...(v.atLeast('2.59') ? { uuid: m.uuid } : {}),
    source_compute: m.source_compute,
    dest_compute: m.dest_compute,
    source_node: m.source_node,
    dest_node: m.dest_node,
    dest_host: m.dest_host,
    old_instance_type_id: m.old_instance_type_id,
    new_instance_type_id: m.new_instance_type_id,
    instance_uuid: m.server_id,
    status: m.status,
    // Cold migrations and resizes never carry live-migration links.
    ...(v.atLeast('2.23') ? { migration_type: m.migration_type } : {}),
    ...(v.atLeast('2.80') ? { user_id: m.user_id, project_id: m.project_id } : {}),
    created_at: usageTime(m.created_at),
    updated_at: usageTime(m.updated_at),
  };
}

/** 2.59: a `next` link when the page is full. */
export function migrationsLinks(computeBase: string, limit: number | null, page: readonly MigrationRow[]) {
  const last = page.at(-1);
  if (limit === null || limit === 0 || page.length < limit || !last) return [];
  return [{ rel: 'next', href: `${computeBase}/v2.1/os-migrations?limit=${limit}&marker=${last.uuid}` }];
}
