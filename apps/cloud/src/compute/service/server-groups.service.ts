import type { Kysely } from 'kysely';
import type { ComputeDeps } from '../deps.js';
import type { Schema } from '../../platform/db/schema.js';
import type { AuthContext } from '../../platform/http/context.js';
import { badRequest, forbidden, notFound, policyForbidden } from '../../platform/http/errors.js';
import { assertProjectWriter } from '../../platform/http/policy.js';
import { newUuid } from '../../platform/ids.js';
import { nowIso } from '../../platform/time.js';
import type { ServerGroupCreate, ServerGroupListQuery } from '../schemas/server-groups.schemas.js';
import { type ServerGroupRow, serverGroupsStore } from '../store/server-groups.store.js';
import { countServerGroupsWith, effectiveLimits } from './quotas.service.js';
import type { GroupPolicy } from '../host/scheduler.js';

/**
 * Server groups (`server_groups.py`, `objects/instance_group.py`): a project's group of servers
 * with one scheduling policy. Zed's policies as the recorded cloud runs them: any role on the
 * project lists, shows and (not a reader-only token) creates and deletes; another project's
 * group is found first and then refused with the rule's 403; admins see and delete any.
 */

type Db = Kysely<Schema>;

export const SERVER_GROUP_RULES = {
  create: 'os_compute_api:os-server-groups:create',
  delete: 'os_compute_api:os-server-groups:delete',
  index: 'os_compute_api:os-server-groups:index',
  show: 'os_compute_api:os-server-groups:show',
} as const;

/** Quota usage counts a project's (or user's) groups. */
countServerGroupsWith((db, projectId, userId) => serverGroupsStore.countFor(db, projectId, userId));

export interface ServerGroup {
  row: ServerGroupRow;
  rules: Record<string, number>;
  /** Live members, oldest first. */
  members: string[];
}

export const groupNotFound = (id: string) => `Instance group ${id} could not be found.`;

async function withMembers(db: Db, rows: readonly ServerGroupRow[]): Promise<ServerGroup[]> {
  const members = await serverGroupsStore.liveMembers(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({
    row,
    rules: JSON.parse(row.rules) as Record<string, number>,
    members: members.filter((m) => m.group_id === row.id).map((m) => m.server_id),
  }));
}

/** The group, or Nova's 404; then the owner check of `rule`. */
async function ownGroup(db: Db, auth: AuthContext, id: string, rule: string): Promise<ServerGroupRow> {
  const row = await serverGroupsStore.byId(db, id);
  if (!row) throw notFound(groupNotFound(id));
  if (!auth.isAdmin && row.project_id !== auth.projectId) throw policyForbidden(rule);
  return row;
}

export async function listServerGroups(deps: ComputeDeps, auth: AuthContext, q: ServerGroupListQuery) {
  const db = deps.store.db;
  // A member's `all_projects` is ignored, not refused (Nova keeps the old behaviour).
  const projectId = q.allProjects && auth.isAdmin ? null : (auth.projectId ?? '');
  return withMembers(db, await serverGroupsStore.list(db, projectId, q.limit, q.offset));
}

export async function showServerGroup(deps: ComputeDeps, auth: AuthContext, id: string) {
  const row = await ownGroup(deps.store.db, auth, id, SERVER_GROUP_RULES.show);
  return (await withMembers(deps.store.db, [row]))[0]!;
}

export async function deleteServerGroup(deps: ComputeDeps, auth: AuthContext, id: string): Promise<void> {
  await deps.store.transaction(async (tx) => {
    await ownGroup(tx, auth, id, SERVER_GROUP_RULES.delete);
    assertProjectWriter(auth, SERVER_GROUP_RULES.delete);
    await serverGroupsStore.delete(tx, id);
  });
}

const OVER_GROUP_QUOTA = 'Quota exceeded, too many server groups.';

export async function createServerGroup(
  deps: ComputeDeps,
  auth: AuthContext,
  cmd: ServerGroupCreate,
): Promise<ServerGroup> {
  assertProjectWriter(auth, SERVER_GROUP_RULES.create);
  const projectId = auth.projectId ?? '';
  return deps.store.transaction(async (tx) => {
    // `check_deltas` for the project and the user, before the body's rules are looked at.
    const projectLimit = (await effectiveLimits(tx, projectId)).server_groups ?? -1;
    const userLimit = (await effectiveLimits(tx, projectId, auth.userId)).server_groups ?? -1;
    const projectCount = await serverGroupsStore.countFor(tx, projectId);
    const userCount = await serverGroupsStore.countFor(tx, projectId, auth.userId);
    if (
      (projectLimit >= 0 && projectCount + 1 > projectLimit) ||
      (userLimit >= 0 && userCount + 1 > userLimit)
    ) {
      throw forbidden(OVER_GROUP_QUOTA);
    }
    if (cmd.rulesGiven && cmd.policy !== 'anti-affinity') {
      throw badRequest('Only anti-affinity policy supports rules.');
    }
    const row: ServerGroupRow = {
      id: newUuid(),
      project_id: projectId,
      user_id: auth.userId,
      name: cmd.name,
      policy: cmd.policy,
      rules: JSON.stringify(cmd.rules),
      created_at: nowIso(),
    };
    await serverGroupsStore.insert(tx, row);
    return { row, rules: cmd.rules as Record<string, number>, members: [] };
  });
}

// --- The group of a server create (`scheduler_hints.group`) ------------------------------------

/** The hinted group (any project's, as `InstanceGroup.get_by_uuid` finds it), or create's 400. */
export async function requestedGroup(db: Db, groupId: string | undefined): Promise<ServerGroupRow | null> {
  if (!groupId) return null;
  const row = await serverGroupsStore.byId(db, groupId);
  if (!row) throw badRequest(groupNotFound(groupId));
  return row;
}

/**
 * `_provision_instances`: the new servers join the group, within `server_group_members`
 * (counted per group) or Nova's 403.
 */
export async function joinGroup(
  tx: Db,
  group: ServerGroupRow,
  projectId: string,
  userId: string,
  serverIds: readonly string[],
): Promise<void> {
  const limit = (await effectiveLimits(tx, projectId, userId)).server_group_members ?? -1;
  const current = (await serverGroupsStore.liveMembers(tx, [group.id])).length;
  if (limit >= 0 && current + serverIds.length > limit) {
    throw forbidden('Quota exceeded, too many servers in group');
  }
  await serverGroupsStore.addMembers(tx, group.id, serverIds);
}

/**
 * What the scheduler must honour for servers of groups: per server, its group's policy and the
 * hosts its other placed members run on. Servers of one group share one object, so a batch's
 * `claimHost` adds each placement for the next.
 */
export async function groupPoliciesOf(
  db: Db,
  serverIds: readonly string[],
): Promise<Map<string, GroupPolicy>> {
  const links = await serverGroupsStore.ofServers(db, serverIds);
  const out = new Map<string, GroupPolicy>();
  if (links.length === 0) return out;
  const groupIds = [...new Set(links.map((l) => l.group_id))];
  const members = await serverGroupsStore.liveMembers(db, groupIds);
  const asking = new Set(serverIds);
  const byGroup = new Map<string, GroupPolicy>();
  for (const id of groupIds) {
    const group = await serverGroupsStore.byId(db, id);
    if (!group) continue;
    const rules = JSON.parse(group.rules) as { max_server_per_host?: number };
    byGroup.set(id, {
      policy: group.policy,
      maxServerPerHost: rules.max_server_per_host ?? 1,
      memberHosts: members.flatMap((m) =>
        m.group_id === id && m.host && !asking.has(m.server_id) ? [m.host] : [],
      ),
    });
  }
  for (const l of links) {
    const g = byGroup.get(l.group_id);
    if (g) out.set(l.server_id, g);
  }
  return out;
}
