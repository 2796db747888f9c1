import type { HttpResult } from '../helpers/cloud.js';
import type { AuthzWorld, Role } from './authz-world.js';

/**
 * The leak check: whatever a non-admin caller was answered (body and headers) must not name or
 * identify anything of another project, nor any user but the ones its project shows. The truth
 * comes from the cloud's own store, so a resource nobody thought of is covered too.
 */

export interface Exchange {
  role: Role;
  method: string;
  path: string;
  /** The request's body and headers as sent: what the caller already knew. */
  request: string;
  res: { status: number; headers: Headers; text: string } | HttpResult;
}

/** Whose a thing is: a project's id, or a user's id. */
export interface Secret {
  value: string;
  what: string;
  /** The project that owns it (resources, projects), or null for a user (see `userOf`). */
  projectId: string | null;
  userId: string | null;
}

export interface Leak {
  role: Role;
  request: string;
  what: string;
  value: string;
}

/** An exception OpenStack itself makes, with why; matched on the viewer, the value and the path. */
export interface Allowance {
  role: Role;
  value: string;
  path: RegExp;
  why: string;
}

/** Names are only checked when they are the fixtures' own (`authz-…`): seeded names are common words. */
const distinctive = (name: string | null | undefined): name is string => !!name && name.startsWith('authz-');

export async function secretsOf(w: AuthzWorld): Promise<Secret[]> {
  const db = w.tc.cloud.deps.store.db;
  const out: Secret[] = [];
  const add = (
    value: string | null | undefined,
    what: string,
    projectId: string | null,
    userId: string | null,
  ) => {
    if (value) out.push({ value, what, projectId, userId });
  };
  for (const p of await db.selectFrom('projects').select(['id', 'name']).execute()) {
    add(p.id, `project ${p.name}`, p.id, null);
    if (distinctive(p.name)) add(p.name, `project name ${p.name}`, p.id, null);
  }
  for (const u of await db.selectFrom('users').select(['id', 'name']).execute()) {
    add(u.id, `user ${u.name}`, null, u.id);
    if (distinctive(u.name)) add(u.name, `user name ${u.name}`, null, u.id);
  }
  for (const s of await db.selectFrom('servers').select(['id', 'name', 'project_id']).execute()) {
    add(s.id, `server ${s.name}`, s.project_id, null);
    if (distinctive(s.name)) add(s.name, `server name ${s.name}`, s.project_id, null);
  }
  for (const v of await db.selectFrom('volumes').select(['id', 'name', 'project_id']).execute()) {
    add(v.id, `volume ${v.name}`, v.project_id, null);
    if (distinctive(v.name)) add(v.name, `volume name ${v.name}`, v.project_id, null);
  }
  const attachments = await db
    .selectFrom('volume_attachments')
    .innerJoin('volumes', 'volumes.id', 'volume_attachments.volume_id')
    .select(['volume_attachments.id as id', 'volumes.project_id as projectId'])
    .execute();
  for (const a of attachments) add(a.id, 'volume attachment', a.projectId, null);
  const bdms = await db
    .selectFrom('block_device_mappings')
    .innerJoin('servers', 'servers.id', 'block_device_mappings.server_id')
    .select(['block_device_mappings.uuid as id', 'servers.project_id as projectId'])
    .execute();
  for (const b of bdms) add(b.id, 'block device mapping', b.projectId, null);
  // What every test world knows, in case the store has already forgotten it (deleted servers).
  add(w.other.server, 'server authz-other-srv', w.actors.other.projectId, null);
  add(w.other.volume, 'volume authz-other-vol', w.actors.other.projectId, null);
  add(w.admin.server, 'server authz-admin-srv', w.actors.admin.projectId, null);
  add(w.admin.volume, 'volume authz-admin-vol', w.actors.admin.projectId, null);
  return out;
}

/**
 * May `role` see this? Its own project's things, and the users its project shows: a server or
 * volume shows the id of the user who made it (demo's, for the reader).
 */
function visibleTo(role: Role, s: Secret, w: AuthzWorld): boolean {
  if (role === 'admin' || role === 'anonymous') return true;
  const me = w.actors[role];
  if (s.projectId !== null) return s.projectId === me.projectId;
  if (s.userId === me.userId) return true;
  return role === 'reader' && s.userId === w.actors.member.userId;
}

export function leaksIn(
  exchanges: Exchange[],
  secrets: Secret[],
  w: AuthzWorld,
  allowances: Allowance[] = [],
): Leak[] {
  const leaks: Leak[] = [];
  for (const e of exchanges) {
    // The admin may see everything; anonymous callers only ever signed in as demo (public routes).
    if (e.role === 'admin' || e.role === 'anonymous') continue;
    const headers = [...e.res.headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n');
    const seen = `${headers}\n${e.res.text}`;
    const asked = `${e.path}\n${e.request}`;
    for (const s of secrets) {
      if (visibleTo(e.role, s, w) || !seen.includes(s.value)) continue;
      // Naming what the caller itself sent (an id in its URL, echoed by a 404) is no leak.
      if (asked.includes(s.value)) continue;
      if (allowances.some((a) => a.role === e.role && a.value === s.value && a.path.test(e.path))) continue;
      leaks.push({
        role: e.role,
        request: `${e.method} ${e.path} → ${e.res.status}`,
        what: s.what,
        value: s.value,
      });
    }
  }
  return leaks;
}
