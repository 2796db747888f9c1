import type { ProjectRef } from '@sv/shared';
import { OpenStackFault } from './fault.js';
import { callOpenStack } from './http.js';
import type { SessionData } from '../platform/session-store.js';

interface KeystoneProjects {
  projects: { id: string; name: string }[];
}

/**
 * Every project's name, for an admin's project filter: Keystone's GET /v3/projects (admin only by
 * its default policy). Null when this cloud's policy refuses it (403) or has no such call (404).
 */
export async function listProjectNames(authUrl: string, token: string): Promise<ProjectRef[] | null> {
  try {
    const res = await callOpenStack<KeystoneProjects>('identity', `${authUrl}/projects`, { token });
    return res.body.projects
      .map((p) => ({ id: p.id, name: p.name }))
      .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  } catch (err) {
    if (err instanceof OpenStackFault && (err.status === 403 || err.status === 404)) return null;
    throw err;
  }
}

/**
 * The names the topology's project filter shows: a member only ever sees their own projects (in the
 * session); an admin sees every project's, or their own when Keystone will not list them.
 */
export async function projectNamesFor(session: SessionData, authUrl: string): Promise<ProjectRef[]> {
  if (!session.isAdmin) return session.projects;
  return (await listProjectNames(authUrl, session.token)) ?? session.projects;
}
