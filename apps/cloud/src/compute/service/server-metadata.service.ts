import type { ComputeDeps } from '../deps.js';
import { parseJsonColumn } from '../../platform/db/json-column.js';
import type { AuthContext } from '../../platform/http/context.js';
import { badRequest, forbidden, notFound } from '../../platform/http/errors.js';
import { nowIso } from '../../platform/time.js';
import { assertProjectWriter } from '../policy.js';
import { type ServerRow, serversStore } from '../store/servers.store.js';
import { checkState } from './server-actions.service.js';
import { getServer, instanceNotFound } from './servers.service.js';

/**
 * /servers/{id}/metadata (`server_metadata.py`, `compute/api.py` update_instance_metadata and
 * delete_instance_metadata): reads for any role on the project, changes for a writer, on a server
 * that is not locked (admins excepted) and is ACTIVE, PAUSED, SUSPENDED or SHUTOFF with no task.
 */

const RULE = (name: string) => `os_compute_api:server-metadata:${name}`;
/** Nova's default `metadata_items` quota. */
export const METADATA_ITEMS_QUOTA = 128;
const CHANGE_STATES = ['active', 'paused', 'suspended', 'stopped'];

type Metadata = Record<string, string>;
const metadataOf = (s: ServerRow) => parseJsonColumn<Metadata>(s.metadata, {});
const itemNotFound = () => notFound('Metadata item was not found');

export async function listMetadata(deps: ComputeDeps, auth: AuthContext, id: string): Promise<Metadata> {
  return metadataOf(await getServer(deps, auth, id));
}

export async function showMetadataItem(
  deps: ComputeDeps,
  auth: AuthContext,
  id: string,
  key: string,
): Promise<Metadata> {
  const metadata = metadataOf(await getServer(deps, auth, id));
  if (!Object.hasOwn(metadata, key)) throw itemNotFound();
  return { [key]: metadata[key] as string };
}

/**
 * Merges (`replace` false) or replaces the metadata: the answer is the server's whole metadata
 * after the change. `rule` is create, update or update_all.
 */
export async function setMetadata(
  deps: ComputeDeps,
  auth: AuthContext,
  id: string,
  given: Metadata,
  opts: { replace: boolean; rule: 'create' | 'update' | 'update_all'; uriKey?: string },
): Promise<Metadata> {
  return deps.store.transaction(async (tx) => {
    const s = await serversStore.lockById(deps.store, tx, id);
    if (!s || !(auth.isAdmin || s.project_id === auth.projectId)) throw instanceNotFound(id);
    assertProjectWriter(auth, RULE(opts.rule));
    if (opts.uriKey !== undefined && !Object.hasOwn(given, opts.uriKey)) {
      throw badRequest('Request body and URI mismatch');
    }
    checkState(s, auth, 'update metadata', { vmStates: CHANGE_STATES });
    const next = opts.replace ? { ...given } : { ...metadataOf(s), ...given };
    if (Object.keys(next).length > METADATA_ITEMS_QUOTA) {
      throw forbidden(`Maximum number of metadata items exceeds ${METADATA_ITEMS_QUOTA}`);
    }
    await serversStore.update(tx, id, { metadata: JSON.stringify(next), updated_at: nowIso() });
    return next;
  });
}

export async function deleteMetadataItem(
  deps: ComputeDeps,
  auth: AuthContext,
  id: string,
  key: string,
): Promise<void> {
  await deps.store.transaction(async (tx) => {
    const s = await serversStore.lockById(deps.store, tx, id);
    if (!s || !(auth.isAdmin || s.project_id === auth.projectId)) throw instanceNotFound(id);
    assertProjectWriter(auth, RULE('delete'));
    const metadata = metadataOf(s);
    if (!Object.hasOwn(metadata, key)) throw itemNotFound();
    checkState(s, auth, 'delete metadata', { vmStates: CHANGE_STATES });
    delete metadata[key];
    await serversStore.update(tx, id, { metadata: JSON.stringify(metadata), updated_at: nowIso() });
  });
}
