import type { ComputeDeps } from '../deps.js';
import { parseJsonColumn } from '../../platform/db/json-column.js';
import type { AuthContext } from '../../platform/http/context.js';
import { badRequest, conflict, notFound } from '../../platform/http/errors.js';
import { assertProjectWriter } from '../../platform/http/policy.js';
import { type ServerRow, serversStore } from '../store/servers.store.js';
import { VM } from '../server-states.js';
import { getServer, instanceNotFound } from './servers.service.js';

/**
 * Server tags (`server_tags.py`, 2.26): list, check, add one, replace all, delete one or all.
 * Changes need the server in a settled state (`_check_instance_in_valid_state`); a reader-only
 * token reads them only. Stored on the server row, sorted as Nova's table returns them.
 */

export const TAG_RULES = {
  index: 'os_compute_api:os-server-tags:index',
  show: 'os_compute_api:os-server-tags:show',
  update: 'os_compute_api:os-server-tags:update',
  updateAll: 'os_compute_api:os-server-tags:update_all',
  delete: 'os_compute_api:os-server-tags:delete',
  deleteAll: 'os_compute_api:os-server-tags:delete_all',
} as const;

/** `objects.instance.MAX_TAG_COUNT`. */
export const MAX_TAG_COUNT = 50;

const SETTLED = new Set<string>([
  VM.active,
  VM.paused,
  VM.suspended,
  VM.stopped,
  VM.shelved,
  VM.shelvedOffloaded,
]);

const tagsOf = (s: ServerRow) => parseJsonColumn<string[]>(s.tags, []);

// Nova words the same miss two ways: show says Server, delete (InstanceTagNotFound) says Instance.
const noSuchTag = (serverId: string, tag: string) => notFound(`Instance ${serverId} has no tag '${tag}'`);
const serverHasNoTag = (serverId: string, tag: string) => notFound(`Server ${serverId} has no tag '${tag}'`);

export async function listTags(deps: ComputeDeps, auth: AuthContext, serverId: string): Promise<string[]> {
  return tagsOf(await getServer(deps, auth, serverId));
}

export async function checkTag(
  deps: ComputeDeps,
  auth: AuthContext,
  serverId: string,
  tag: string,
): Promise<void> {
  if (!tagsOf(await getServer(deps, auth, serverId)).includes(tag)) throw serverHasNoTag(serverId, tag);
}

/** Locks the server, checks the caller may change it and that it is settled, then applies `change`. */
async function changeTags<T>(
  deps: ComputeDeps,
  auth: AuthContext,
  serverId: string,
  rule: string,
  action: string,
  change: (tags: string[]) => { tags: string[]; result: T },
): Promise<T> {
  await getServer(deps, auth, serverId);
  assertProjectWriter(auth, rule);
  return deps.store.transaction(async (tx) => {
    const s = await serversStore.lockById(deps.store, tx, serverId);
    if (!s) throw instanceNotFound(serverId);
    if (!SETTLED.has(s.vm_state)) {
      throw conflict(`Cannot '${action}' instance ${serverId} while it is in vm_state ${s.vm_state}`);
    }
    const { tags, result } = change(tagsOf(s));
    await serversStore.update(tx, serverId, { tags: JSON.stringify(tags) });
    return result;
  });
}

const sorted = (tags: Iterable<string>) => [...new Set(tags)].sort();

/** `update`: 201 when added, 204 when the server had it already. */
export function addTag(
  deps: ComputeDeps,
  auth: AuthContext,
  serverId: string,
  tag: string,
): Promise<boolean> {
  return changeTags(deps, auth, serverId, TAG_RULES.update, 'update tag', (tags) => {
    if (tag === '' || tag.length > 60 || /[,/]/.test(tag)) {
      const why =
        tag === ''
          ? "'' is too short"
          : tag.length > 60
            ? `'${tag}' is too long`
            : `'${tag}' does not match '^[^,/]*$'`;
      throw badRequest(
        `Tag '${tag}' is invalid. It must be a non empty string without characters '/' and ','. Validation error message: ${why}`,
      );
    }
    if (tags.length >= MAX_TAG_COUNT) {
      throw badRequest(`The number of tags exceeded the per-server limit ${MAX_TAG_COUNT}`);
    }
    if (tags.includes(tag)) return { tags, result: false };
    return { tags: sorted([...tags, tag]), result: true };
  });
}

export function replaceTags(deps: ComputeDeps, auth: AuthContext, serverId: string, given: string[]) {
  return changeTags(deps, auth, serverId, TAG_RULES.updateAll, 'update tags', () => {
    const tags = sorted(given);
    return { tags, result: tags };
  });
}

export function deleteTag(deps: ComputeDeps, auth: AuthContext, serverId: string, tag: string) {
  return changeTags(deps, auth, serverId, TAG_RULES.delete, 'delete tag', (tags) => {
    if (!tags.includes(tag)) throw noSuchTag(serverId, tag);
    return { tags: tags.filter((t) => t !== tag), result: undefined };
  });
}

export function deleteAllTags(deps: ComputeDeps, auth: AuthContext, serverId: string) {
  return changeTags(deps, auth, serverId, TAG_RULES.deleteAll, 'delete tags', () => ({
    tags: [],
    result: undefined,
  }));
}
