import { SEED_IMAGE_ID } from '../../src/image/seed.js';
import { http, type HttpResult, login, type RequestOptions, type TestCloud } from '../helpers/cloud.js';

/**
 * The people and resources the authorization tables run against, made the way an operator and
 * its users would: accounts through Keystone's admin API, servers, volumes and attachments
 * through Nova and Cinder, all over HTTP.
 *
 * - `reader`: a user whose only role on project demo is reader;
 * - `member`: the seeded demo user (member, hence reader too, on demo);
 * - `other`: a member of a second project, `authz-other`, with resources of its own;
 * - `admin`: the seeded admin.
 *
 * Every name starts with `authz-`, so a response that shows one is easy to spot.
 */
export type Role = 'anonymous' | 'reader' | 'member' | 'other' | 'admin';
export type SignedInRole = Exclude<Role, 'anonymous'>;
export const ROLES: Role[] = ['anonymous', 'reader', 'member', 'other', 'admin'];

export interface Actor {
  role: SignedInRole;
  userId: string;
  userName: string;
  password: string;
  projectId: string;
  projectName: string;
  token: string;
  /** `/volume/v3/{project_id}` for the actor's own project. */
  volumeBase: string;
}

export const COMPUTE_VERSION = 'compute 2.105';
export const VOLUME_VERSION = 'volume 3.71';

export interface AuthzWorld {
  tc: TestCloud;
  actors: Record<SignedInRole, Actor>;
  roleIds: Record<'admin' | 'member' | 'reader', string>;
  /** Resources of project demo: a server with a shared volume attached, and a plain volume. */
  demo: { server: string; shared: string; plain: string; attachment: string };
  /** Resources of project authz-other: a server with a volume attached. */
  other: { server: string; volume: string; attachment: string };
  /** Resources of project admin. */
  admin: { server: string; volume: string };
  /**
   * What only an admin can make: demo's shared volume attached to the other project's server too.
   * Cinder then shows demo that server's id among the volume's attachments, and Nova shows the
   * other project the volume's id among its server's: OpenStack's own cross-project view.
   */
  cross: { server: string; volume: string; attachment: string };
  /** A request as `who` (null: no token), at the usual microversions. */
  call(who: Actor | null, method: string, path: string, opts?: RequestOptions): Promise<HttpResult>;
  /** The same, refusing anything but a 2xx (for setting things up). */
  must(who: Actor, method: string, path: string, opts?: RequestOptions): Promise<HttpResult>;
  /** A new ACTIVE server of the actor's project. */
  freshServer(owner: SignedInRole, name?: string): Promise<string>;
  /** A new available volume of the actor's project. */
  freshVolume(owner: SignedInRole, opts?: { shared?: boolean; name?: string }): Promise<string>;
  /** A new volume of demo's, attached (and in use) on demo's server through Nova. */
  freshNovaAttachment(): Promise<{ serverId: string; volumeId: string }>;
  /** A new reserved Cinder attachment (no server) of a new demo volume. */
  freshCinderAttachment(): Promise<string>;
  /** A new user (password = name) with no role anywhere, made by the admin. */
  freshUser(name: string): Promise<string>;
  /** A new project with no one in it, made by the admin. */
  freshProject(name: string): Promise<string>;
  /** A new token for the actor (its own, to revoke or inspect). */
  freshToken(who: SignedInRole): Promise<string>;
}

let counter = 0;
/** A name no other fixture has. */
export const uniqueName = (prefix: string) => `${prefix}-${++counter}`;

export async function buildAuthzWorld(tc: TestCloud): Promise<AuthzWorld> {
  const call = (who: Actor | null, method: string, path: string, opts: RequestOptions = {}) => {
    const version = path.startsWith('/compute/v2.1')
      ? COMPUTE_VERSION
      : path.startsWith('/volume/v3/')
        ? VOLUME_VERSION
        : undefined;
    return http(tc, method, path, {
      ...(who ? { token: who.token } : {}),
      ...(version ? { version } : {}),
      ...opts,
    });
  };
  const must = async (who: Actor, method: string, path: string, opts: RequestOptions = {}) => {
    const res = await call(who, method, path, opts);
    if (res.status >= 300) throw new Error(`${who.role}: ${method} ${path}: ${res.status} ${res.text}`);
    return res;
  };

  const adminSession = await login(tc, 'admin');
  const demoSession = await login(tc, 'demo');
  const actor = (
    role: SignedInRole,
    s: { token: string; userId: string; projectId: string; volumeBase: string },
    names: { user: string; password: string; project: string },
  ): Actor => ({
    role,
    ...s,
    userName: names.user,
    password: names.password,
    projectName: names.project,
  });
  const admin = actor('admin', adminSession, { user: 'admin', password: 'admin', project: 'admin' });
  const member = actor('member', demoSession, { user: 'demo', password: 'demo', project: 'demo' });

  const roleIds = {} as AuthzWorld['roleIds'];
  for (const name of ['admin', 'member', 'reader'] as const) {
    const res = await must(admin, 'GET', `/identity/v3/roles?name=${name}`);
    roleIds[name] = res.body.roles[0].id;
  }
  const createUser = async (name: string, defaultProject?: string) =>
    (
      await must(admin, 'POST', '/identity/v3/users', {
        body: {
          user: {
            name,
            password: name,
            domain_id: 'default',
            ...(defaultProject ? { default_project_id: defaultProject } : {}),
          },
        },
      })
    ).body.user.id as string;
  const createProject = async (name: string) =>
    (
      await must(admin, 'POST', '/identity/v3/projects', {
        body: { project: { name, domain_id: 'default', description: `${name} (authorization tests)` } },
      })
    ).body.project.id as string;
  const grant = (projectId: string, userId: string, roleId: string) =>
    must(admin, 'PUT', `/identity/v3/projects/${projectId}/users/${userId}/roles/${roleId}`);

  const readerId = await createUser('authz-reader');
  await grant(member.projectId, readerId, roleIds.reader);
  const otherProject = await createProject('authz-other');
  const otherMember = await createUser('authz-other-member');
  await grant(otherProject, otherMember, roleIds.member);
  const signIn = async (role: SignedInRole, user: string, project: string) =>
    actor(role, await login(tc, user, { password: user, project }), { user, password: user, project });
  const actors: Record<SignedInRole, Actor> = {
    reader: await signIn('reader', 'authz-reader', 'demo'),
    member,
    other: await signIn('other', 'authz-other-member', 'authz-other'),
    admin,
  };

  // Reader-only, as the brief of these tests requires: a member's token would list both.
  const readerRoles = await must(actors.reader, 'GET', '/identity/v3/auth/tokens', {
    headers: { 'X-Subject-Token': actors.reader.token },
  });
  const names = readerRoles.body.token.roles.map((r: { name: string }) => r.name);
  if (names.join() !== 'reader') throw new Error(`the reader's token has roles ${names}`);

  const ownerOf = (owner: SignedInRole) => (owner === 'reader' ? actors.member : actors[owner]);

  async function freshServer(owner: SignedInRole, name = uniqueName(`authz-${owner}-srv`)) {
    const res = await must(ownerOf(owner), 'POST', '/compute/v2.1/servers', {
      body: { server: { name, flavorRef: '42', imageRef: SEED_IMAGE_ID, networks: 'none' } },
    });
    await tc.settle();
    return res.body.server.id as string;
  }

  async function freshVolume(owner: SignedInRole, opts: { shared?: boolean; name?: string } = {}) {
    const who = ownerOf(owner);
    const res = await must(who, 'POST', `${who.volumeBase}/volumes`, {
      body: {
        volume: {
          name: opts.name ?? uniqueName(`authz-${owner}-vol`),
          size: 1,
          ...(opts.shared ? { volume_type: 'multiattach' } : {}),
        },
      },
    });
    await tc.settle();
    return res.body.volume.id as string;
  }

  async function attach(who: Actor, serverId: string, volumeId: string) {
    await must(who, 'POST', `/compute/v2.1/servers/${serverId}/os-volume_attachments`, {
      body: { volumeAttachment: { volumeId } },
    });
    await tc.settle();
  }

  /** The Cinder attachment id of a volume's (only) attachment to a server. */
  async function cinderAttachmentOf(who: Actor, volumeId: string, serverId: string) {
    const res = await must(who, 'GET', `${who.volumeBase}/attachments?volume_id=${volumeId}`);
    const found = res.body.attachments.find((a: { instance: string }) => a.instance === serverId);
    if (!found) throw new Error(`no attachment of ${volumeId} to ${serverId}`);
    return found.id as string;
  }

  const demoServer = await freshServer('member', 'authz-demo-srv');
  const demoShared = await freshVolume('member', { shared: true, name: 'authz-demo-shared' });
  const demoPlain = await freshVolume('member', { name: 'authz-demo-plain' });
  await attach(member, demoServer, demoShared);
  const otherServer = await freshServer('other', 'authz-other-srv');
  const otherVolume = await freshVolume('other', { name: 'authz-other-vol' });
  await attach(actors.other, otherServer, otherVolume);
  await attach(admin, otherServer, demoShared);
  const adminServer = await freshServer('admin', 'authz-admin-srv');
  const adminVolume = await freshVolume('admin', { name: 'authz-admin-vol' });

  return {
    tc,
    actors,
    roleIds,
    demo: {
      server: demoServer,
      shared: demoShared,
      plain: demoPlain,
      attachment: await cinderAttachmentOf(member, demoShared, demoServer),
    },
    other: {
      server: otherServer,
      volume: otherVolume,
      attachment: await cinderAttachmentOf(actors.other, otherVolume, otherServer),
    },
    admin: { server: adminServer, volume: adminVolume },
    cross: {
      server: otherServer,
      volume: demoShared,
      attachment: await cinderAttachmentOf(member, demoShared, otherServer),
    },
    call,
    must,
    freshServer,
    freshVolume,
    async freshNovaAttachment() {
      const volumeId = await freshVolume('member', { shared: true });
      await attach(member, demoServer, volumeId);
      return { serverId: demoServer, volumeId };
    },
    async freshCinderAttachment() {
      const volumeId = await freshVolume('member');
      const res = await must(member, 'POST', `${member.volumeBase}/attachments`, {
        body: { attachment: { volume_uuid: volumeId } },
      });
      return res.body.attachment.id as string;
    },
    freshUser: (name) => createUser(name),
    freshProject: (name) => createProject(name),
    async freshToken(who) {
      const a = actors[who];
      return (await login(tc, a.userName, { password: a.password, project: a.projectName })).token;
    },
  };
}
