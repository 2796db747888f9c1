import type { CloudConfig } from '../config.js';
import type { Store } from '../platform/db/store.js';
import { newHexId } from '../platform/ids.js';
import type { Logger } from '../platform/logger.js';
import { nowIso } from '../platform/time.js';
import { hashPassword, verifyPassword } from './password.js';

/**
 * Keystone bootstrap plus the demo account: domain Default, projects admin/demo/service,
 * roles admin/member/reader, users admin (admin on admin) and demo (member on demo).
 * Safe to run on every start and from several processes at once.
 */
export async function seedIdentity(store: Store, config: CloudConfig, log: Logger): Promise<void> {
  const db = store.db;
  const now = nowIso();
  await db
    .insertInto('domains')
    .values({ id: 'default', name: 'Default', description: 'The default domain', enabled: 1 })
    .onConflict((oc) => oc.doNothing())
    .execute();

  for (const name of ['admin', 'member', 'reader', 'service']) {
    await db
      .insertInto('roles')
      .values({ id: newHexId(), name, description: null })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  const projects = [
    { name: 'admin', description: 'Bootstrap project for initializing the cloud.' },
    { name: 'demo', description: '' },
    { name: 'service', description: '' },
  ];
  for (const p of projects) {
    await db
      .insertInto('projects')
      .values({
        id: newHexId(),
        name: p.name,
        domain_id: 'default',
        description: p.description,
        enabled: 1,
        parent_id: null,
        created_at: now,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  const users = [
    { name: 'admin', password: config.adminPassword, project: 'admin', role: 'admin' },
    { name: 'demo', password: config.demoPassword, project: 'demo', role: 'member' },
  ];
  for (const u of users) {
    const existing = await db
      .selectFrom('users')
      .select(['id', 'password_hash'])
      .where('domain_id', '=', 'default')
      .where('name', '=', u.name)
      .executeTakeFirst();
    if (!existing) {
      await db
        .insertInto('users')
        .values({
          id: newHexId(),
          name: u.name,
          domain_id: 'default',
          password_hash: await hashPassword(u.password),
          enabled: 1,
          email: null,
          description: null,
          default_project_id: null,
          created_at: now,
        })
        .onConflict((oc) => oc.doNothing())
        .execute();
    } else if (!(await verifyPassword(u.password, existing.password_hash))) {
      // The environment is the source of truth for the seeded accounts' passwords.
      await db
        .updateTable('users')
        .set({ password_hash: await hashPassword(u.password) })
        .where('id', '=', existing.id)
        .execute();
      log.info({ user: u.name }, 'seeded user password updated from the environment');
    }
    const ids = await db
      .selectFrom('users')
      .innerJoin('projects', (j) =>
        j.on('projects.name', '=', u.project).on('projects.domain_id', '=', 'default'),
      )
      .innerJoin('roles', (j) => j.on('roles.name', '=', u.role))
      .select(['users.id as userId', 'projects.id as projectId', 'roles.id as roleId'])
      .where('users.name', '=', u.name)
      .where('users.domain_id', '=', 'default')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('role_assignments')
      .values({ user_id: ids.userId, project_id: ids.projectId, role_id: ids.roleId })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}
