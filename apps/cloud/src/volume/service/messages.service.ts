import type { Store } from '../../platform/db/store.js';
import { notFound } from '../../platform/http/errors.js';
import { assertProjectWriter } from '../../platform/http/policy.js';
import { newUuid } from '../../platform/ids.js';
import type { Microversion } from '../../platform/http/microversion.js';
import { messagesStore, type VolumeMessageRow } from '../store/messages.store.js';
import type { Caller } from './caller.js';
import { invalidSortKey, paginate, parseListParams, processSortParams, type QueryParams } from './paging.js';

/** Cinder's message_ttl default: a message is kept (guaranteed_until) 30 days. */
const MESSAGE_TTL_MS = 30 * 24 * 3600 * 1000;

const messageNotFound = (id: string) => notFound(`Message ${id} could not be found.`);

/** The columns a 3.5+ listing may filter and sort on (Cinder checks filters against the model). */
const MESSAGE_COLUMNS = [
  'id',
  'project_id',
  'request_id',
  'resource_type',
  'resource_uuid',
  'event_id',
  'message_level',
  'created_at',
] as const satisfies readonly (keyof VolumeMessageRow)[];
const isColumn = (key: string): key is (typeof MESSAGE_COLUMNS)[number] =>
  (MESSAGE_COLUMNS as readonly string[]).includes(key);

/** The failures the cloud reports, as message_field's action and detail pairs. */
export const USER_MESSAGES = {
  noValidBackend: {
    resourceType: 'VOLUME',
    eventId: 'VOLUME_VOLUME_001_003',
    text: 'schedule allocate volume:Could not find any available weighted backend.',
  },
} as const;

/** What a message says, to be written in the same transaction as the failure it reports. */
export function newVolumeMessage(
  projectId: string,
  resourceUuid: string,
  kind: keyof typeof USER_MESSAGES,
  now: Date = new Date(),
): VolumeMessageRow {
  const m = USER_MESSAGES[kind];
  return {
    id: newUuid(),
    project_id: projectId,
    // The scheduler carries the create request's context; this cloud's backend runs outside it.
    request_id: `req-${newUuid()}`,
    resource_type: m.resourceType,
    resource_uuid: resourceUuid,
    event_id: m.eventId,
    message_level: 'ERROR',
    user_message: m.text,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + MESSAGE_TTL_MS).toISOString(),
  };
}

/**
 * User messages (api/v3/messages.py), 3.3+. Admins see every project's messages (Cinder's
 * message_get_all does not filter an admin context by project); others only their project's.
 * `message:get_all` / `message:get` are owner rules; `message:delete` also needs a writer.
 */
export function createMessagesService(store: Store) {
  const db = store.db;

  async function find(caller: Caller, id: string): Promise<VolumeMessageRow> {
    const row = await messagesStore.byId(db, id);
    if (!row || (!caller.isAdmin && row.project_id !== caller.projectId)) throw messageNotFound(id);
    return row;
  }

  /** Below 3.5 the whole list; from 3.5 filters, sort, marker, limit and offset. */
  async function list(
    caller: Caller,
    query: QueryParams,
    version: Microversion,
  ): Promise<{ rows: VolumeMessageRow[]; limit: number | null }> {
    const rows = await messagesStore.list(db, caller.isAdmin ? null : caller.projectId);
    const byCreated = (a: VolumeMessageRow, b: VolumeMessageRow) => a.created_at.localeCompare(b.created_at);
    if (version.below('3.5')) return { rows: rows.sort(byCreated), limit: null };
    const params = parseListParams(query);
    const filters = params.filters.toRecord();
    // A filter the model has no column for matches nothing (process_filters returns None).
    if (!Object.keys(filters).every(isColumn)) return { rows: [], limit: params.limit };
    const matching = rows.filter((r) =>
      Object.entries(filters).every(([k, v]) => String(r[k as keyof VolumeMessageRow]) === v),
    );
    const sort = processSortParams(params.sortKeys, params.sortDirs);
    if (!sort.keys.every(isColumn)) throw invalidSortKey();
    // The marker is read as a message the caller may see (message_get): otherwise its 404.
    const marker = params.marker !== null ? await find(caller, params.marker) : null;
    const page = paginate(
      matching,
      sort,
      (r, k) => r[k as keyof VolumeMessageRow],
      marker,
      params.offset,
      params.limit,
    );
    return { rows: page, limit: params.limit };
  }

  async function remove(caller: Caller, id: string): Promise<void> {
    await find(caller, id);
    assertProjectWriter(caller, 'message:delete');
    await messagesStore.delete(db, id);
  }

  return { list, get: find, remove };
}

export type MessagesService = ReturnType<typeof createMessagesService>;
