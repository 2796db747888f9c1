import { notFound } from '../../platform/http/errors.js';
import { parseListParams, type QueryParams } from './paging.js';

const backupNotFound = (id: string) => notFound(`Backup ${id} could not be found.`);

/**
 * Backups, read-only: this cloud deploys no cinder-backup service, so (as on a Cinder without one)
 * no backup can be made and every list is empty; the paging parameters are still checked, and a
 * marker or id names a backup that does not exist. `backup:get_all` / `backup:get` are
 * RULE_ADMIN_OR_OWNER, which every project-scoped token meets on its own project.
 */
export function createBackupsService() {
  function list(query: QueryParams): never[] {
    const params = parseListParams(query);
    if (params.marker !== null) throw backupNotFound(params.marker);
    return [];
  }

  function get(id: string): never {
    throw backupNotFound(id);
  }

  return { list, get };
}

export type BackupsService = ReturnType<typeof createBackupsService>;
