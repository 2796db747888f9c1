import { recordAction } from './instance-actions-recorder.js';
import { serverGroupsStore } from '../store/server-groups.store.js';
import type { ComputeDeps } from '../deps.js';
import type { AuthContext } from '../../platform/http/context.js';
import { badRequest, conflict, forbidden, notFound, policyForbidden } from '../../platform/http/errors.js';
import type { Microversion } from '../../platform/http/microversion.js';
import { nowIso } from '../../platform/time.js';
import { userRegex } from '../../platform/user-regex.js';
import { boolFromString } from '../../platform/validation/parameter-types.js';
import { assertProjectWriter, RULES } from '../policy.js';
import { bdmsStore, type ServerViewBdm } from '../store/bdms.store.js';
import {
  type ServerListKey,
  type ServerRow,
  type ServerSqlFilter,
  serversStore,
} from '../store/servers.store.js';
import { parseJsonColumn } from '../../platform/db/json-column.js';
import type { Image } from '../clients/image-client.js';
import type { DevicePort } from '../clients/network-client.js';
import { serverPortsStore } from '../store/server-ports.store.js';
import { scheduleAdvance } from '../host/server-lifecycle.js';
import { multiParams, validateQuery } from '../schemas/validation.js';
import { ANY_TASK_STATE, statesFromStatuses } from '../server-states.js';

/**
 * List, show and delete (`servers.py` index/detail/show/delete, `_get_servers`,
 * `remove_invalid_options`). Lists read keys for every matching server in one query, filter,
 * sort and page them in memory, then load the page and everything its views need in a few
 * batched queries, whatever the number of servers.
 */

/** What a server's views need besides its row, loaded in batches for a page of servers. */
export interface ServerExtras {
  bdms: readonly ServerViewBdm[];
  /** host_status of the server's host ('' when it has none). */
  hostStatus: string;
  image: Image | undefined;
  /** The server's ports, in the order it got them. */
  ports: readonly DevicePort[];
  // --- cloud15: server groups ---
  /** The server group it was created in (2.71 `server_groups`), if any. */
  serverGroups?: readonly string[];
}

export const instanceNotFound = (id: string) => notFound(`Instance ${id} could not be found.`);

const canSee = (auth: AuthContext, s: ServerRow) => auth.isAdmin || s.project_id === auth.projectId;

/** `common.get_instance` for the caller: another project's server does not exist for members. */
export async function getServer(deps: ComputeDeps, auth: AuthContext, id: string): Promise<ServerRow> {
  const s = await serversStore.byId(deps.store.db, id);
  if (!s || !canSee(auth, s)) throw instanceNotFound(id);
  return s;
}

/** Batched view data for some servers: mappings, host statuses and (2.98) images. */
export async function loadExtras(
  deps: ComputeDeps,
  servers: readonly ServerRow[],
  opts: { isAdmin: boolean; images: boolean },
): Promise<Map<string, ServerExtras>> {
  const db = deps.store.db;
  const ids = servers.map((s) => s.id);
  const bdms = new Map<string, ServerViewBdm[]>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const b of await bdmsStore.viewFieldsForServers(db, ids.slice(i, i + 500))) {
      const list = bdms.get(b.server_id) ?? [];
      list.push(b);
      bdms.set(b.server_id, list);
    }
  }
  for (const list of bdms.values()) {
    list.sort((a, b) =>
      a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.uuid < b.uuid ? -1 : 1,
    );
  }
  const hostStatus = new Map<string, string>();
  if (opts.isAdmin) {
    const hosts = servers.flatMap((s) => (s.host ? [s.host] : []));
    for (const svc of await serversStore.computeServicesOf(db, hosts)) {
      // `get_instance_host_status`: forced down, disabled, then up (heartbeats are emulated).
      hostStatus.set(
        svc.host,
        svc.forced_down === 1 ? 'DOWN' : svc.status === 'disabled' ? 'MAINTENANCE' : 'UP',
      );
    }
  }
  const images = opts.images
    ? await deps.images.byIds(servers.flatMap((s) => (s.image_id ? [s.image_id] : [])))
    : new Map<string, Image>();
  const ports = await portsOfServers(deps, ids);
  const groupOf = new Map<string, string>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const m of await serverGroupsStore.ofServers(db, ids.slice(i, i + 500)))
      groupOf.set(m.server_id, m.group_id);
  }
  const out = new Map<string, ServerExtras>();
  for (const s of servers) {
    out.set(s.id, {
      bdms: bdms.get(s.id) ?? [],
      hostStatus: s.host ? (hostStatus.get(s.host) ?? 'UNKNOWN') : '',
      image: s.image_id ? images.get(s.image_id) : undefined,
      ports: ports.get(s.id) ?? [],
      serverGroups: groupOf.has(s.id) ? [groupOf.get(s.id)!] : [],
    });
  }
  return out;
}

/** The servers' ports from the network service, in the order compute recorded them. */
export async function portsOfServers(
  deps: ComputeDeps,
  ids: readonly string[],
): Promise<Map<string, DevicePort[]>> {
  const held = await serverPortsStore.forServers(deps.store.db, ids);
  if (held.length === 0) return new Map();
  const position = new Map(held.map((h) => [h.port_id, h.position]));
  const byServer = await deps.network.portsByServer([...new Set(held.map((h) => h.server_id))]);
  for (const list of byServer.values())
    list.sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0));
  return byServer;
}

// --- Listing -------------------------------------------------------------------------------------

export type Query = Record<string, unknown>;

const lastValue = (v: unknown): string | undefined =>
  v === undefined ? undefined : Array.isArray(v) ? (v.length ? String(v.at(-1)) : undefined) : String(v);
const allValues = (v: unknown): string[] =>
  v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)];

/** `query_params_v21` properties (and later additions): what 2.75+ accepts. */
const KNOWN_PARAMS_V21 = [
  'user_id',
  'project_id',
  'tenant_id',
  'launch_index',
  'image_ref',
  'image',
  'kernel_id',
  'ramdisk_id',
  'hostname',
  'key_name',
  'power_state',
  'vm_state',
  'task_state',
  'host',
  'node',
  'flavor',
  'reservation_id',
  'launched_at',
  'terminated_at',
  'availability_zone',
  'name',
  'display_name',
  'description',
  'display_description',
  'locked_by',
  'uuid',
  'root_device_name',
  'config_drive',
  'access_ip_v4',
  'access_ip_v6',
  'auto_disk_config',
  'progress',
  'sort_key',
  'sort_dir',
  'all_tenants',
  'soft_deleted',
  'deleted',
  'status',
  'changes-since',
  'ip',
  'ip6',
  'created_at',
  'block_device_mapping',
  'services',
  'metadata',
  'pci_devices',
  'security_groups',
  'info_cache',
  'system_metadata',
  'fault',
  'limit',
  'marker',
];

/** Query keys that name joined tables: Nova refuses them as filters. */
const JOINED_TABLES = new Set([
  'block_device_mapping',
  'services',
  'metadata',
  'pci_devices',
  'security_groups',
  'info_cache',
  'system_metadata',
  'fault',
]);

/** `_get_server_search_options`: what members may filter on. */
function memberOptions(v: Microversion): string[] {
  const opts = ['reservation_id', 'name', 'status', 'image', 'flavor', 'ip', 'changes-since', 'all_tenants'];
  if (v.atLeast('2.5')) opts.push('ip6');
  if (v.atLeast('2.26')) opts.push('tags', 'tags-any', 'not-tags', 'not-tags-any');
  if (v.atLeast('2.66')) opts.push('changes-before');
  if (v.atLeast('2.73')) opts.push('locked');
  if (v.atLeast('2.83')) {
    opts.push(
      'availability_zone',
      'config_drive',
      'key_name',
      'created_at',
      'launched_at',
      'terminated_at',
      'power_state',
      'task_state',
      'vm_state',
      'progress',
      'user_id',
    );
  }
  if (v.atLeast('2.90')) opts.push('hostname');
  return opts;
}

function knownParams(v: Microversion): Set<string> {
  const known = new Set(KNOWN_PARAMS_V21);
  if (v.atLeast('2.26')) for (const k of ['tags', 'tags-any', 'not-tags', 'not-tags-any']) known.add(k);
  if (v.atLeast('2.66')) known.add('changes-before');
  if (v.atLeast('2.73')) known.add('locked');
  return known;
}

/** `timeutils.parse_isotime` accepts ISO-8601; anything else is the schema's date-time error. */
function parseTime(name: string, value: string): string {
  const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(ms)) {
    throw badRequest(
      `Invalid input for query parameters ${name}. Value: ${value}. '${value}' is not a 'date-time'`,
    );
  }
  return new Date(ms).toISOString();
}

/**
 * The query parameters Nova's schema types `common_query_regex_param`, in its order (the first
 * invalid one is the one reported): each value must compile as a regular expression.
 */
const REGEX_PARAMS_V21 = [
  'kernel_id',
  'ramdisk_id',
  'hostname',
  'key_name',
  'power_state',
  'node',
  'flavor',
  'reservation_id',
  'launched_at',
  'terminated_at',
  'availability_zone',
  'name',
  'display_name',
  'description',
  'display_description',
  'locked_by',
  'root_device_name',
  'config_drive',
  'access_ip_v4',
  'access_ip_v6',
  'auto_disk_config',
  'progress',
  'ip',
  'ip6',
  'created_at',
];
const REGEX_PARAMS_V226 = ['tags', 'tags-any', 'not-tags', 'not-tags-any'];

/** `query_params_v21`'s regex parameters: "Invalid input for query parameters name. Value: (. '(' is not a 'regex'". */
function validateRegexParams(query: Query, version: Microversion): void {
  const names = version.atLeast('2.26') ? [...REGEX_PARAMS_V21, ...REGEX_PARAMS_V226] : REGEX_PARAMS_V21;
  const regexParam = multiParams({ type: 'string', format: 'regex' });
  const values = Object.fromEntries(
    names
      .filter((k) => query[k] !== undefined)
      .map((k) => [k, ([] as unknown[]).concat(query[k]).map(String)]),
  );
  validateQuery(
    { type: 'object', properties: Object.fromEntries(names.map((k) => [k, regexParam])) },
    values,
  );
}

/**
 * A regex filter as Nova's database runs it (`_regex_instance_filter`) on MySQL, as the recorded
 * cloud does (captures 403, 407, 408): REGEXP under a case-insensitive collation, after Nova
 * escapes every `|` (`_safe_regex_mysql`, so `a|b` is the literal text). Evaluated in linear time;
 * a pattern the schema let through always compiles here, and NULL never matches.
 */
function regexFilter(pattern: string): (value: string | null) => boolean {
  const re = userRegex(pattern.replaceAll('|', '\\|'), { ignoreCase: true });
  if (!re) return () => false;
  return (value) => value !== null && re.test(value);
}

/** Columns Nova matches as regular expressions (not in `exact_match_filter_names`). */
const REGEX_COLUMNS = [
  ['hostname', 'hostname'],
  ['node', 'node'],
  ['availability_zone', 'availability_zone'],
  ['key_name', 'key_name'],
  ['reservation_id', 'reservation_id'],
] as const satisfies readonly (readonly [string, keyof ServerListKey])[];

type SortKey = keyof ServerListKey;
// No prototype: the keys come from the request, and `constructor` must not find a column.
const SORT_COLUMNS: Record<string, SortKey> = Object.assign(Object.create(null), {
  created_at: 'created_at',
  updated_at: 'updated_at',
  launched_at: 'launched_at',
  terminated_at: 'terminated_at',
  display_name: 'name',
  uuid: 'id',
  vm_state: 'vm_state',
  task_state: 'task_state',
  power_state: 'power_state',
  availability_zone: 'availability_zone',
  key_name: 'key_name',
  project_id: 'project_id',
  user_id: 'user_id',
  hostname: 'hostname',
  locked: 'locked',
  host: 'host',
  node: 'node',
});

function compareValues(a: unknown, b: unknown): number {
  // Nova sorts NULLs first ascending (MySQL/SQLite order).
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  return a < b ? -1 : 1;
}

export interface ServerListing {
  servers: ServerRow[];
  extras: Map<string, ServerExtras>;
  effectiveLimit: number;
}

/** `[api] max_limit`. */
const MAX_LIMIT = 1000;

export async function listServers(
  deps: ComputeDeps,
  auth: AuthContext,
  version: Microversion,
  query: Query,
  opts: { detail: boolean },
): Promise<ServerListing> {
  validateRegexParams(query, version);
  if (version.atLeast('2.75')) {
    const known = knownParams(version);
    const extras = Object.keys(query).filter((k) => !known.has(k) && !k.startsWith('_'));
    if (extras.length > 0) {
      const verb = extras.length === 1 ? 'does' : 'do';
      const joined = [...extras]
        .sort()
        .map((e) => `'${e}'`)
        .join(', ');
      throw badRequest(`${joined} ${verb} not match any of the regexes: '^_'`);
    }
  }
  // `remove_invalid_options`: members keep only the search options they are allowed.
  const search: Query = {};
  const allowed = auth.isAdmin
    ? null
    : new Set([...memberOptions(version), 'limit', 'marker', 'sort_key', 'sort_dir']);
  for (const [k, v] of Object.entries(query)) if (!allowed || allowed.has(k)) search[k] = v;
  for (const k of Object.keys(search)) {
    if (JOINED_TABLES.has(k) || k.startsWith('_')) throw badRequest(`Invalid filter field: ${k}.`);
  }

  const filter: ServerSqlFilter = { includeDeleted: false, onlyDeleted: false };
  if (search.status !== undefined) {
    const { vmStates, taskStates } = statesFromStatuses(allValues(search.status));
    if (vmStates.length === 0 && taskStates.length === 0) {
      if (version.atLeast('2.38')) throw badRequest('Invalid status value');
      return { servers: [], extras: new Map(), effectiveLimit: MAX_LIMIT };
    }
    filter.vmStates = vmStates;
    if (!taskStates.includes(ANY_TASK_STATE)) filter.taskStates = taskStates;
  }
  const changesSince = lastValue(search['changes-since']);
  if (changesSince !== undefined) filter.changesSince = parseTime('changes-since', changesSince);
  const changesBefore = lastValue(search['changes-before']);
  if (changesBefore !== undefined) filter.changesBefore = parseTime('changes-before', changesBefore);
  const deletedOpt = lastValue(search.deleted);
  if (deletedOpt !== undefined) {
    if (boolFromString(deletedOpt)) filter.onlyDeleted = true;
  } else if (changesSince !== undefined || changesBefore !== undefined) {
    filter.includeDeleted = true;
  }
  if (filter.vmStates?.length === 1 && filter.vmStates[0] === 'deleted') {
    if (!auth.isAdmin) throw forbidden('Only administrators may list deleted instances');
    filter.includeDeleted = true;
  }

  if (isAllTenants(search)) {
    if (!auth.isAdmin) {
      throw policyForbidden(`os_compute_api:servers:${opts.detail ? 'detail' : 'index'}:get_all_tenants`);
    }
    const project = lastValue(search.project_id) ?? lastValue(search.tenant_id);
    if (project !== undefined) filter.projectId = project;
  } else {
    filter.projectId = auth.projectId ?? '';
  }
  const str = (k: string) => lastValue(search[k]);
  if (str('host') !== undefined) filter.host = str('host');
  if (str('image') !== undefined) filter.imageId = str('image')!.split('/').at(-1);
  if (str('flavor') !== undefined) filter.flavorId = str('flavor')!.split('/').at(-1);
  if (str('user_id') !== undefined) filter.userId = str('user_id');
  if (str('uuid') !== undefined) filter.uuid = str('uuid');
  if (str('locked') !== undefined) filter.locked = boolFromString(str('locked'));
  if (str('power_state') !== undefined) filter.powerState = Number(str('power_state'));
  if (str('vm_state') !== undefined && search.status === undefined)
    filter.vmStates = allValues(search.vm_state);
  if (str('task_state') !== undefined && search.status === undefined)
    filter.taskStates = allValues(search.task_state);

  const { limit, marker } = limitAndMarker(search);
  const effectiveLimit = Math.min(limit ?? MAX_LIMIT, MAX_LIMIT);

  const name = str('name') ?? str('display_name');
  const sort = sortParams(search, auth.isAdmin);
  // Only what the sort and the in-memory filters below read.
  const columns: SortKey[] = sort.map(([key]) => key);
  if (name !== undefined) columns.push('name');
  const regexColumns = REGEX_COLUMNS.filter(([param]) => str(param) !== undefined);
  for (const [, column] of regexColumns) columns.push(column);
  if (['tags', 'tags-any', 'not-tags', 'not-tags-any'].some((k) => search[k] !== undefined))
    columns.push('tags');
  let keys = await serversStore.listKeys(deps.store.db, filter, columns);
  // Servers have no addresses here (no Neutron), so an IP filter matches none.
  if (search.ip !== undefined || search.ip6 !== undefined) keys = [];
  if (name !== undefined) {
    const match = regexFilter(name);
    keys = keys.filter((k) => match(k.name));
  }
  for (const [param, column] of regexColumns) {
    const match = regexFilter(str(param)!);
    keys = keys.filter((k) => match(k[column]));
  }
  keys = filterTags(keys, search);

  keys.sort((a, b) => {
    for (const [key, dir] of sort) {
      const c = compareValues(a[key], b[key]);
      if (c !== 0) return dir === 'asc' ? c : -c;
    }
    return 0;
  });
  if (marker !== undefined) {
    const index = keys.findIndex((k) => k.id === marker);
    if (index < 0) {
      if (!(await serversStore.byIdIncludingDeleted(deps.store.db, marker))) {
        throw badRequest(`marker [${marker}] not found`);
      }
      keys = [];
    } else {
      keys = keys.slice(index + 1);
    }
  }
  const page = keys.slice(0, effectiveLimit);
  const rows = new Map(
    (
      await serversStore.byIds(
        deps.store.db,
        page.map((k) => k.id),
      )
    ).map((r) => [r.id, r]),
  );
  const servers = page.map((k) => rows.get(k.id)).filter((r): r is ServerRow => r !== undefined);
  const extras = opts.detail
    ? await loadExtras(deps, servers, { isAdmin: auth.isAdmin, images: version.atLeast('2.98') })
    : new Map<string, ServerExtras>();
  return { servers, extras, effectiveLimit };
}

/** `common.is_all_tenants`: present (even empty) means yes unless it says no. */
function isAllTenants(q: Query): boolean {
  if (!('all_tenants' in q)) return false;
  const v = lastValue(q.all_tenants);
  if (v === undefined || v === '') return true;
  const s = v.trim().toLowerCase();
  if (['1', 't', 'true', 'on', 'y', 'yes'].includes(s)) return true;
  if (['0', 'f', 'false', 'off', 'n', 'no'].includes(s)) return false;
  throw badRequest(
    `Invalid input received: Unrecognized value '${v}', acceptable values are: '0', '1', 'f', 'false', 'n', 'no', 'off', 'on', 't', 'true', 'y', 'yes'`,
  );
}

/** `common.get_limit_and_marker`. */
function limitAndMarker(q: Query): { limit: number | undefined; marker: string | undefined } {
  const rawLimit = lastValue(q.limit);
  let limit: number | undefined;
  if (rawLimit !== undefined) {
    if (!/^-?\d+$/.test(rawLimit.trim())) throw badRequest('limit param must be an integer');
    limit = Number(rawLimit);
    if (limit < 0) throw badRequest('limit param must be positive');
  }
  return { limit, marker: lastValue(q.marker) };
}

/** `get_sort_params`, then Nova's default keys (created_at, id) appended in the first direction. */
function sortParams(q: Query, isAdmin: boolean): [SortKey, 'asc' | 'desc'][] {
  const keys = allValues(q.sort_key);
  const dirs = allValues(q.sort_dir).map((d) => (d.toLowerCase() === 'asc' ? 'asc' : 'desc'));
  const out: [SortKey, 'asc' | 'desc'][] = [];
  keys.forEach((k, i) => {
    const col = SORT_COLUMNS[k];
    // Members may not sort by where a server runs (`remove_invalid_sort_keys`).
    if (!col || (!isAdmin && (k === 'host' || k === 'node'))) return;
    out.push([col, (dirs[i] ?? dirs[0] ?? 'desc') as 'asc' | 'desc']);
  });
  const dir = out[0]?.[1] ?? 'desc';
  if (!out.some(([k]) => k === 'created_at')) out.push(['created_at', dir]);
  if (!out.some(([k]) => k === 'id')) out.push(['id', dir]);
  return out;
}

/** 2.26 tag filters: all of `tags`, any of `tags-any`, not all of `not-tags`, none of `not-tags-any`. */
function filterTags(keys: ServerListKey[], q: Query): ServerListKey[] {
  const list = (k: string) => {
    const v = lastValue(q[k]);
    return v === undefined ? null : v.split(',');
  };
  const all = list('tags');
  const any = list('tags-any');
  const notAll = list('not-tags');
  const notAny = list('not-tags-any');
  if (!all && !any && !notAll && !notAny) return keys;
  return keys.filter((k) => {
    const tags = new Set(parseJsonColumn<string[]>(k.tags, []));
    if (all && !all.every((t) => tags.has(t))) return false;
    if (any && !any.some((t) => tags.has(t))) return false;
    if (notAll?.every((t) => tags.has(t))) return false;
    if (notAny?.some((t) => tags.has(t))) return false;
    return true;
  });
}

// --- Delete --------------------------------------------------------------------------------------

/**
 * DELETE /servers/{id}: 204 at once; the host then detaches every volume (deleting those marked
 * delete_on_termination), the server shows DELETED, then disappears (capture 299).
 */
/** DELETE /servers/{id}, and the `forceDelete` action (the same delete under its own rule). */
export async function deleteServer(
  deps: ComputeDeps,
  auth: AuthContext,
  id: string,
  rule: string = RULES.serverDelete,
): Promise<void> {
  const started = await deps.store.transaction(async (tx) => {
    const s = await serversStore.lockById(deps.store, tx, id);
    if (!s || !canSee(auth, s)) throw instanceNotFound(id);
    assertProjectWriter(auth, rule);
    if (s.locked === 1 && !auth.isAdmin) throw conflict(`Instance ${id} is locked`);
    if (s.task_state === 'deleting') return false;
    await serversStore.update(tx, id, { task_state: 'deleting', updated_at: nowIso() });
    await recordAction(tx, { serverId: id, action: 'delete', auth, event: 'compute_terminate_instance' });
    return true;
  });
  if (started) scheduleAdvance(deps, id);
}
