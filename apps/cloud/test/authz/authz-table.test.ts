import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpResult, type RequestOptions, startCloud, type TestCloud } from '../helpers/cloud.js';
import {
  type Actor,
  type AuthzWorld,
  buildAuthzWorld,
  ROLES,
  type Role,
  type SignedInRole,
  uniqueName,
} from './authz-world.js';
import {
  adminOnly,
  anyToken,
  attachmentNotFound,
  demosToChange,
  demosToRead,
  everyone,
  type Expect,
  type Expectations,
  expectCell,
  instanceNotFound,
  keystonePolicy,
  MALFORMED_URL,
  notFound,
  ownToCreate,
  pass,
  policy,
  snapshotNotFound,
  volumeNotFound,
} from './expectations.js';
import { type Allowance, type Exchange, leaksIn, secretsOf } from './leaks.js';
import { servedRoutes } from './route-inventory.js';

/**
 * Every route of the cloud against every role: anonymous, a reader-only user of project demo,
 * demo's member, a member of another project, and the admin. Each cell is one real HTTP call and
 * the answer OpenStack's policy gives (docs/cloud-extensions.md, "Policy"). The other project's
 * member always aims at demo's resources, so its column is the cross-project probe; the admin's
 * column proves the call is allowed at all. Changes that succeed work on fresh resources.
 */

interface Probe {
  path: string;
  body?: unknown;
  /** An OpenStack-API-Version other than the world's default. */
  version?: string;
  headers?: Record<string, string>;
}

interface Row {
  /** As `servedRoutes` prints it. */
  route: string;
  expect: Expectations;
  /** The request a role sends (anonymous borrows the member's project for its paths). */
  probe(w: AuthzWorld, role: Role): Probe | Promise<Probe>;
}

let tc: TestCloud;
let w: AuthzWorld;
const exchanges: Exchange[] = [];

/** The actor whose project a role's paths name: anonymous borrows the member's. */
const asActor = (role: Role): Actor => w.actors[role === 'anonymous' ? 'member' : role];
const cinder = (role: Role) => asActor(role).volumeBase;

/** A uuid no resource has. */
const NO_SUCH_ID = '00000000-0000-4000-8000-0000000000ff';

/** Keystone password auth of a role's user, scoped to its project. */
const passwordBody = (a: Actor) => ({
  auth: {
    identity: {
      methods: ['password'],
      password: { user: { name: a.userName, domain: { id: 'default' }, password: a.password } },
    },
    scope: { project: { name: a.projectName, domain: { id: 'default' } } },
  },
});

const isAdmin = (role: Role) => role === 'admin';
/** Roles whose calls succeed and so need a resource of their own to spend. */
const spends = (role: Role) => role === 'member' || role === 'admin';

const ids = () => ({
  demoProject: w.actors.member.projectId,
  demoUser: w.actors.member.userId,
  readerUser: w.actors.reader.userId,
});

/** A user's own id for itself, demo's user for the stranger and the admin. */
const selfOrDemo = (role: Role) =>
  role === 'reader' || role === 'member' ? asActor(role).userId : ids().demoUser;

const rows: Row[] = [
  // --- Keystone -------------------------------------------------------------------------------
  { route: 'GET /identity/', expect: everyone(300), probe: () => ({ path: '/identity/' }) },
  { route: 'GET /identity/v3', expect: everyone(200), probe: () => ({ path: '/identity/v3' }) },
  {
    route: 'POST /identity/v3/auth/tokens',
    expect: everyone(201),
    probe: (_w, role) => ({ path: '/identity/v3/auth/tokens', body: passwordBody(asActor(role)) }),
  },
  {
    // Everyone may validate their own token; only an admin someone else's (demo's, here).
    route: 'GET /identity/v3/auth/tokens',
    expect: demosToRead(200, keystonePolicy('validate_token')),
    probe: (w, role) => ({
      path: '/identity/v3/auth/tokens',
      headers: {
        'X-Subject-Token': role === 'reader' ? w.actors.reader.token : w.actors.member.token,
      },
    }),
  },
  {
    route: 'DELETE /identity/v3/auth/tokens',
    expect: demosToRead(204, keystonePolicy('revoke_token')),
    probe: async (w, role) => ({
      path: '/identity/v3/auth/tokens',
      headers: { 'X-Subject-Token': await w.freshToken(role === 'reader' ? 'reader' : 'member') },
    }),
  },
  {
    route: 'GET /identity/v3/auth/projects',
    expect: anyToken(200),
    probe: () => ({ path: '/identity/v3/auth/projects' }),
  },
  {
    route: 'GET /identity/v3/auth/catalog',
    expect: anyToken(200),
    probe: () => ({ path: '/identity/v3/auth/catalog' }),
  },
  {
    route: 'GET /identity/v3/projects',
    expect: adminOnly(200, keystonePolicy('list_projects')),
    probe: () => ({ path: '/identity/v3/projects' }),
  },
  {
    route: 'POST /identity/v3/projects',
    expect: adminOnly(201, keystonePolicy('create_project')),
    probe: () => ({
      path: '/identity/v3/projects',
      body: { project: { name: uniqueName('authz-new-project'), domain_id: 'default' } },
    }),
  },
  {
    route: 'GET /identity/v3/projects/:projectId',
    expect: demosToRead(200, keystonePolicy('get_project')),
    probe: () => ({ path: `/identity/v3/projects/${ids().demoProject}` }),
  },
  {
    route: 'PATCH /identity/v3/projects/:projectId',
    expect: adminOnly(200, keystonePolicy('update_project')),
    probe: async (w, role) => ({
      path: `/identity/v3/projects/${isAdmin(role) ? await w.freshProject(uniqueName('authz-p')) : asActor(role).projectId}`,
      body: { project: { description: 'changed' } },
    }),
  },
  {
    route: 'DELETE /identity/v3/projects/:projectId',
    expect: adminOnly(204, keystonePolicy('delete_project')),
    probe: async (w, role) => ({
      path: `/identity/v3/projects/${isAdmin(role) ? await w.freshProject(uniqueName('authz-p')) : asActor(role).projectId}`,
    }),
  },
  {
    route: 'GET /identity/v3/users',
    expect: adminOnly(200, keystonePolicy('list_users')),
    probe: () => ({ path: '/identity/v3/users' }),
  },
  {
    route: 'POST /identity/v3/users',
    expect: adminOnly(201, keystonePolicy('create_user')),
    probe: () => ({
      path: '/identity/v3/users',
      body: { user: { name: uniqueName('authz-new-user'), password: 'x', domain_id: 'default' } },
    }),
  },
  {
    route: 'GET /identity/v3/users/:userId',
    expect: demosToRead(200, keystonePolicy('get_user')),
    probe: (_w, role) => ({ path: `/identity/v3/users/${selfOrDemo(role)}` }),
  },
  {
    // Not even one's own record: update_user is admin_required.
    route: 'PATCH /identity/v3/users/:userId',
    expect: adminOnly(200, keystonePolicy('update_user')),
    probe: async (w, role) => ({
      path: `/identity/v3/users/${isAdmin(role) ? await w.freshUser(uniqueName('authz-u')) : asActor(role).userId}`,
      body: { user: { description: 'changed' } },
    }),
  },
  {
    route: 'DELETE /identity/v3/users/:userId',
    expect: adminOnly(204, keystonePolicy('delete_user')),
    probe: async (w, role) => ({
      path: `/identity/v3/users/${isAdmin(role) ? await w.freshUser(uniqueName('authz-u')) : asActor(role).userId}`,
    }),
  },
  {
    // Self-service: the original password is the credential, the token is not looked at.
    route: 'POST /identity/v3/users/:userId/password',
    expect: everyone(204),
    probe: async (w) => {
      const name = uniqueName('authz-pw');
      return {
        path: `/identity/v3/users/${await w.freshUser(name)}/password`,
        body: { user: { original_password: name, password: `${name}-new` } },
      };
    },
  },
  {
    route: 'GET /identity/v3/users/:userId/projects',
    expect: demosToRead(200, keystonePolicy('list_user_projects')),
    probe: (_w, role) => ({ path: `/identity/v3/users/${selfOrDemo(role)}/projects` }),
  },
  {
    route: 'GET /identity/v3/roles',
    expect: adminOnly(200, keystonePolicy('list_roles')),
    probe: () => ({ path: '/identity/v3/roles' }),
  },
  {
    route: 'POST /identity/v3/roles',
    expect: adminOnly(201, keystonePolicy('create_role')),
    probe: () => ({ path: '/identity/v3/roles', body: { role: { name: uniqueName('authz-role') } } }),
  },
  {
    route: 'GET /identity/v3/roles/:roleId',
    expect: adminOnly(200, keystonePolicy('get_role')),
    probe: (w) => ({ path: `/identity/v3/roles/${w.roleIds.member}` }),
  },
  {
    route: 'PATCH /identity/v3/roles/:roleId',
    expect: adminOnly(200, keystonePolicy('update_role')),
    probe: async (w, role) => ({
      path: `/identity/v3/roles/${isAdmin(role) ? await freshRole() : w.roleIds.member}`,
      body: { role: { description: 'changed' } },
    }),
  },
  {
    route: 'DELETE /identity/v3/roles/:roleId',
    expect: adminOnly(204, keystonePolicy('delete_role')),
    probe: async (w, role) => ({
      path: `/identity/v3/roles/${isAdmin(role) ? await freshRole() : w.roleIds.member}`,
    }),
  },
  {
    route: 'GET /identity/v3/projects/:projectId/users/:userId/roles',
    expect: adminOnly(200, keystonePolicy('list_grants')),
    probe: () => ({ path: `/identity/v3/projects/${ids().demoProject}/users/${ids().demoUser}/roles` }),
  },
  {
    route: 'GET /identity/v3/projects/:projectId/users/:userId/roles/:roleId',
    expect: adminOnly(204, keystonePolicy('check_grant')),
    probe: (w) => ({
      path: `/identity/v3/projects/${ids().demoProject}/users/${ids().demoUser}/roles/${w.roleIds.member}`,
    }),
  },
  {
    // The reader cannot make itself a member (nor anyone else).
    route: 'PUT /identity/v3/projects/:projectId/users/:userId/roles/:roleId',
    expect: adminOnly(204, keystonePolicy('create_grant')),
    probe: async (w, role) => ({
      path: isAdmin(role)
        ? `/identity/v3/projects/${await w.freshProject(uniqueName('authz-p'))}/users/${await w.freshUser(uniqueName('authz-u'))}/roles/${w.roleIds.reader}`
        : `/identity/v3/projects/${ids().demoProject}/users/${ids().readerUser}/roles/${w.roleIds.member}`,
    }),
  },
  {
    route: 'DELETE /identity/v3/projects/:projectId/users/:userId/roles/:roleId',
    expect: adminOnly(204, keystonePolicy('revoke_grant')),
    probe: async (w, role) => {
      if (!isAdmin(role)) {
        return {
          path: `/identity/v3/projects/${ids().demoProject}/users/${ids().demoUser}/roles/${w.roleIds.member}`,
        };
      }
      const path = `/identity/v3/projects/${await w.freshProject(uniqueName('authz-p'))}/users/${await w.freshUser(uniqueName('authz-u'))}/roles/${w.roleIds.reader}`;
      await w.must(w.actors.admin, 'PUT', path);
      return { path };
    },
  },
  {
    route: 'GET /identity/v3/role_assignments',
    expect: adminOnly(200, keystonePolicy('list_role_assignments')),
    probe: () => ({ path: '/identity/v3/role_assignments' }),
  },
  {
    route: 'GET /identity/v3/domains',
    expect: adminOnly(200, keystonePolicy('list_domains')),
    probe: () => ({ path: '/identity/v3/domains' }),
  },
  {
    route: 'GET /identity/v3/domains/:domainId',
    expect: anyToken(200),
    probe: () => ({ path: '/identity/v3/domains/default' }),
  },

  // --- Nova -----------------------------------------------------------------------------------
  { route: 'ALL /compute/', expect: everyone(200), probe: () => ({ path: '/compute/' }) },
  { route: 'GET /compute/v2.1', expect: everyone(200), probe: () => ({ path: '/compute/v2.1' }) },
  { route: 'GET /compute/v2.1/', expect: everyone(200), probe: () => ({ path: '/compute/v2.1/' }) },
  {
    route: 'GET /compute/v2.1/flavors',
    expect: anyToken(200),
    probe: () => ({ path: '/compute/v2.1/flavors' }),
  },
  {
    route: 'GET /compute/v2.1/flavors/detail',
    expect: anyToken(200),
    probe: () => ({ path: '/compute/v2.1/flavors/detail' }),
  },
  {
    route: 'GET /compute/v2.1/flavors/:id',
    expect: anyToken(200),
    probe: () => ({ path: '/compute/v2.1/flavors/42' }),
  },
  {
    route: 'GET /compute/v2.1/flavors/:id/os-extra_specs',
    expect: anyToken(200),
    probe: () => ({ path: '/compute/v2.1/flavors/42/os-extra_specs' }),
  },
  {
    route: 'GET /compute/v2.1/flavors/:id/os-extra_specs/:key',
    expect: anyToken(200),
    probe: () => ({ path: '/compute/v2.1/flavors/42/os-extra_specs/hw:cpu_policy' }),
  },
  {
    route: 'POST /compute/v2.1/flavors',
    expect: adminOnly(200, policy('os_compute_api:os-flavor-manage:create')),
    probe: () => ({
      path: '/compute/v2.1/flavors',
      body: { flavor: { name: uniqueName('authz-flavor'), ram: 64, vcpus: 1, disk: 1 } },
    }),
  },
  {
    route: 'PUT /compute/v2.1/flavors/:id',
    expect: adminOnly(200, policy('os_compute_api:os-flavor-manage:update')),
    probe: async (_w, role) => ({
      path: `/compute/v2.1/flavors/${isAdmin(role) ? await freshFlavor() : '42'}`,
      body: { flavor: { description: 'changed' } },
    }),
  },
  {
    route: 'DELETE /compute/v2.1/flavors/:id',
    expect: adminOnly(202, policy('os_compute_api:os-flavor-manage:delete')),
    probe: async (_w, role) => ({
      path: `/compute/v2.1/flavors/${isAdmin(role) ? await freshFlavor() : '42'}`,
    }),
  },
  {
    route: 'GET /compute/v2.1/os-availability-zone',
    expect: anyToken(200),
    probe: () => ({ path: '/compute/v2.1/os-availability-zone' }),
  },
  {
    route: 'GET /compute/v2.1/os-availability-zone/detail',
    expect: adminOnly(200, policy('os_compute_api:os-availability-zone:detail')),
    probe: () => ({ path: '/compute/v2.1/os-availability-zone/detail' }),
  },
  {
    route: 'GET /compute/v2.1/os-services',
    expect: adminOnly(200, policy('os_compute_api:os-services:list')),
    probe: () => ({ path: '/compute/v2.1/os-services' }),
  },
  {
    route: 'PUT /compute/v2.1/os-services/:id',
    expect: adminOnly(200, policy('os_compute_api:os-services:update')),
    probe: async () => ({
      path: `/compute/v2.1/os-services/${await computeServiceUuid()}`,
      body: { status: 'enabled' },
    }),
  },
  {
    // Nothing worth deleting: the admin gets past policy to the lookup's 404.
    route: 'DELETE /compute/v2.1/os-services/:id',
    expect: adminOnly(
      notFound(`Service ${NO_SUCH_ID} not found.`),
      policy('os_compute_api:os-services:delete'),
    ),
    probe: () => ({ path: `/compute/v2.1/os-services/${NO_SUCH_ID}` }),
  },
  {
    route: 'GET /compute/v2.1/os-hypervisors',
    expect: adminOnly(200, policy('os_compute_api:os-hypervisors:list')),
    probe: () => ({ path: '/compute/v2.1/os-hypervisors' }),
  },
  {
    route: 'GET /compute/v2.1/os-hypervisors/detail',
    expect: adminOnly(200, policy('os_compute_api:os-hypervisors:list-detail')),
    probe: () => ({ path: '/compute/v2.1/os-hypervisors/detail' }),
  },
  {
    route: 'GET /compute/v2.1/os-hypervisors/statistics',
    expect: adminOnly(200, policy('os_compute_api:os-hypervisors:statistics')),
    probe: () => ({ path: '/compute/v2.1/os-hypervisors/statistics', version: 'compute 2.87' }),
  },
  {
    route: 'GET /compute/v2.1/os-hypervisors/:id',
    expect: adminOnly(200, policy('os_compute_api:os-hypervisors:show')),
    probe: async () => ({ path: `/compute/v2.1/os-hypervisors/${await hypervisorUuid()}` }),
  },
  {
    route: 'GET /compute/v2.1/os-hypervisors/:id/uptime',
    expect: adminOnly(200, policy('os_compute_api:os-hypervisors:uptime')),
    probe: async () => ({
      path: `/compute/v2.1/os-hypervisors/${await hypervisorUuid()}/uptime`,
      version: 'compute 2.87',
    }),
  },
  {
    route: 'GET /compute/v2.1/os-hypervisors/:pattern/search',
    expect: adminOnly(200, policy('os_compute_api:os-hypervisors:search')),
    probe: () => ({ path: '/compute/v2.1/os-hypervisors/compute/search', version: 'compute 2.52' }),
  },
  {
    route: 'GET /compute/v2.1/os-hypervisors/:pattern/servers',
    expect: adminOnly(200, policy('os_compute_api:os-hypervisors:servers')),
    probe: () => ({ path: '/compute/v2.1/os-hypervisors/compute/servers', version: 'compute 2.52' }),
  },
  {
    route: 'GET /compute/v2.1/os-emulator-hosts',
    expect: adminOnly(200, policy('os_compute_api:os-emulator-hosts:list')),
    probe: () => ({ path: '/compute/v2.1/os-emulator-hosts' }),
  },
  {
    route: 'GET /compute/v2.1/os-emulator-topology',
    expect: anyToken(200),
    probe: () => ({ path: '/compute/v2.1/os-emulator-topology' }),
  },
  {
    route: 'GET /compute/v2.1/servers/:serverId/os-volume_attachments',
    expect: demosToRead(200, instanceNotFound('<demo server>')),
    probe: (w) => ({ path: `/compute/v2.1/servers/${w.demo.server}/os-volume_attachments` }),
  },
  {
    route: 'POST /compute/v2.1/servers/:serverId/os-volume_attachments',
    expect: demosToChange(
      202,
      'os_compute_api:os-volumes-attachments:create',
      instanceNotFound('<demo server>'),
    ),
    probe: async (w, role) => ({
      path: `/compute/v2.1/servers/${w.demo.server}/os-volume_attachments`,
      body: {
        volumeAttachment: {
          volumeId: spends(role)
            ? await w.freshVolume('member', { shared: true })
            : role === 'other'
              ? w.other.volume
              : w.demo.plain,
        },
      },
    }),
  },
  {
    route: 'GET /compute/v2.1/servers/:serverId/os-volume_attachments/:volumeId',
    expect: demosToRead(200, instanceNotFound('<demo server>')),
    probe: (w) => ({ path: `/compute/v2.1/servers/${w.demo.server}/os-volume_attachments/${w.demo.shared}` }),
  },
  {
    route: 'PUT /compute/v2.1/servers/:serverId/os-volume_attachments/:volumeId',
    expect: demosToChange(
      202,
      'os_compute_api:os-volumes-attachments:update',
      instanceNotFound('<demo server>'),
    ),
    probe: (w) => ({
      path: `/compute/v2.1/servers/${w.demo.server}/os-volume_attachments/${w.demo.shared}`,
      body: { volumeAttachment: { volumeId: w.demo.shared, delete_on_termination: false } },
    }),
  },
  {
    route: 'DELETE /compute/v2.1/servers/:serverId/os-volume_attachments/:volumeId',
    expect: demosToChange(
      202,
      'os_compute_api:os-volumes-attachments:delete',
      instanceNotFound('<demo server>'),
    ),
    probe: async (w, role) => {
      const { serverId, volumeId } = spends(role)
        ? await w.freshNovaAttachment()
        : { serverId: w.demo.server, volumeId: w.demo.shared };
      return { path: `/compute/v2.1/servers/${serverId}/os-volume_attachments/${volumeId}` };
    },
  },
  {
    route: 'GET /compute/v2.1/servers/:serverId/os-emulator-domain-xml',
    expect: adminOnly(200, policy('os_compute_api:os-emulator-domain-xml:show')),
    probe: (w) => ({ path: `/compute/v2.1/servers/${w.demo.server}/os-emulator-domain-xml` }),
  },
  {
    route: 'POST /compute/v2.1/servers',
    expect: ownToCreate(202, 'os_compute_api:servers:create'),
    probe: (_w, role) => ({
      path: '/compute/v2.1/servers',
      body: {
        server: {
          name: uniqueName(`authz-${role === 'anonymous' ? 'member' : role}-srv`),
          flavorRef: '42',
          imageRef: imageId,
          networks: 'none',
        },
      },
    }),
  },
  {
    route: 'GET /compute/v2.1/servers',
    expect: anyToken(200),
    probe: () => ({ path: '/compute/v2.1/servers' }),
  },
  {
    route: 'GET /compute/v2.1/servers/detail',
    expect: anyToken(200),
    probe: () => ({ path: '/compute/v2.1/servers/detail' }),
  },
  {
    route: 'GET /compute/v2.1/servers/:id',
    expect: demosToRead(200, instanceNotFound('<demo server>')),
    probe: (w) => ({ path: `/compute/v2.1/servers/${w.demo.server}` }),
  },
  {
    route: 'DELETE /compute/v2.1/servers/:id',
    expect: demosToChange(204, 'os_compute_api:servers:delete', instanceNotFound('<demo server>')),
    probe: async (w, role) => ({
      path: `/compute/v2.1/servers/${spends(role) ? await w.freshServer('member') : w.demo.server}`,
    }),
  },
  {
    // Every action against every role: the reader sub-table below.
    route: 'POST /compute/v2.1/servers/:id/action',
    expect: demosToChange(202, 'os_compute_api:servers:stop', instanceNotFound('<demo server>')),
    probe: async (w, role) => ({
      path: `/compute/v2.1/servers/${spends(role) ? await w.freshServer('member') : w.demo.server}/action`,
      body: { 'os-stop': null },
    }),
  },

  // --- Cinder ---------------------------------------------------------------------------------
  { route: 'GET /volume/', expect: everyone(300), probe: () => ({ path: '/volume/' }) },
  { route: 'GET /volume/v3/', expect: anyToken(200), probe: () => ({ path: '/volume/v3/' }) },
  {
    route: 'GET /volume/v3/:projectId/attachments',
    expect: anyToken(200),
    probe: (_w, role) => ({ path: `${cinder(role)}/attachments` }),
  },
  {
    route: 'GET /volume/v3/:projectId/attachments/detail',
    expect: anyToken(200),
    probe: (_w, role) => ({ path: `${cinder(role)}/attachments/detail` }),
  },
  {
    route: 'GET /volume/v3/:projectId/attachments/:attachmentId',
    expect: demosToRead(200, attachmentNotFound('<demo attachment>')),
    probe: (w, role) => ({ path: `${cinder(role)}/attachments/${w.demo.attachment}` }),
  },
  {
    route: 'POST /volume/v3/:projectId/attachments',
    expect: demosToChange(200, 'volume:attachment_create', volumeNotFound('<demo volume>')),
    probe: async (w, role) => ({
      path: `${cinder(role)}/attachments`,
      body: { attachment: { volume_uuid: spends(role) ? await w.freshVolume('member') : w.demo.plain } },
    }),
  },
  {
    route: 'PUT /volume/v3/:projectId/attachments/:attachmentId',
    expect: demosToChange(200, 'volume:attachment_update', attachmentNotFound('<demo attachment>')),
    probe: async (w, role) => ({
      path: `${cinder(role)}/attachments/${spends(role) ? await w.freshCinderAttachment() : w.demo.attachment}`,
      body: {
        attachment: { connector: { initiator: 'iqn.1993-08.org.debian:01:authz', host: 'authz-host' } },
      },
    }),
  },
  {
    // The reader's 403 comes before Cinder asks Nova whether the attachment is in use (409).
    route: 'DELETE /volume/v3/:projectId/attachments/:attachmentId',
    expect: demosToChange(200, 'volume:attachment_delete', attachmentNotFound('<demo attachment>')),
    probe: async (w, role) => ({
      path: `${cinder(role)}/attachments/${spends(role) ? await w.freshCinderAttachment() : w.demo.attachment}`,
    }),
  },
  {
    route: 'POST /volume/v3/:projectId/attachments/:attachmentId/action',
    expect: demosToChange(204, 'volume:attachment_complete', attachmentNotFound('<demo attachment>')),
    probe: async (w, role) => ({
      path: `${cinder(role)}/attachments/${spends(role) ? await w.freshCinderAttachment() : w.demo.attachment}/action`,
      body: { 'os-complete': null },
    }),
  },
  {
    route: 'GET /volume/v3/:projectId/volumes',
    expect: anyToken(200),
    probe: (_w, role) => ({ path: `${cinder(role)}/volumes` }),
  },
  {
    route: 'GET /volume/v3/:projectId/volumes/detail',
    expect: anyToken(200),
    probe: (_w, role) => ({ path: `${cinder(role)}/volumes/detail` }),
  },
  {
    route: 'GET /volume/v3/:projectId/volumes/summary',
    expect: anyToken(200),
    probe: (_w, role) => ({ path: `${cinder(role)}/volumes/summary` }),
  },
  {
    route: 'POST /volume/v3/:projectId/volumes',
    expect: ownToCreate(202, 'volume:create'),
    probe: (_w, role) => ({
      path: `${cinder(role)}/volumes`,
      body: { volume: { name: uniqueName(`authz-${role === 'anonymous' ? 'member' : role}-vol`), size: 1 } },
    }),
  },
  {
    route: 'GET /volume/v3/:projectId/volumes/:volumeId',
    expect: demosToRead(200, volumeNotFound('<demo volume>')),
    probe: (w, role) => ({ path: `${cinder(role)}/volumes/${w.demo.plain}` }),
  },
  {
    route: 'PUT /volume/v3/:projectId/volumes/:volumeId',
    expect: demosToChange(200, 'volume:update', volumeNotFound('<demo volume>')),
    probe: (w, role) => ({
      path: `${cinder(role)}/volumes/${w.demo.plain}`,
      body: { volume: { description: `changed by ${role}` } },
    }),
  },
  {
    route: 'DELETE /volume/v3/:projectId/volumes/:volumeId',
    expect: demosToChange(202, 'volume:delete', volumeNotFound('<demo volume>')),
    probe: async (w, role) => ({
      path: `${cinder(role)}/volumes/${spends(role) ? await w.freshVolume('member') : w.demo.plain}`,
    }),
  },
  {
    // Every action against the reader: the sub-table below.
    route: 'POST /volume/v3/:projectId/volumes/:volumeId/action',
    expect: demosToChange(202, 'volume:extend', volumeNotFound('<demo volume>')),
    probe: async (w, role) => ({
      path: `${cinder(role)}/volumes/${spends(role) ? await w.freshVolume('member') : w.demo.plain}/action`,
      body: { 'os-extend': { new_size: 2 } },
    }),
  },
  {
    route: 'GET /volume/v3/:projectId/types',
    expect: anyToken(200),
    probe: (_w, role) => ({ path: `${cinder(role)}/types` }),
  },
  {
    route: 'GET /volume/v3/:projectId/types/:typeId',
    expect: anyToken(200),
    probe: async (_w, role) => ({ path: `${cinder(role)}/types/${await multiattachTypeId()}` }),
  },
  {
    route: 'POST /volume/v3/:projectId/types',
    expect: adminOnly(200, policy('volume_extension:type_create')),
    probe: (_w, role) => ({
      path: `${cinder(role)}/types`,
      body: { volume_type: { name: uniqueName('authz-type') } },
    }),
  },
  {
    route: 'PUT /volume/v3/:projectId/types/:typeId',
    expect: adminOnly(200, policy('volume_extension:type_update')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/types/${isAdmin(role) ? await freshType() : await multiattachTypeId()}`,
      body: { volume_type: { description: 'changed' } },
    }),
  },
  {
    route: 'DELETE /volume/v3/:projectId/types/:typeId',
    expect: adminOnly(202, policy('volume_extension:type_delete')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/types/${isAdmin(role) ? await freshType() : await multiattachTypeId()}`,
    }),
  },
  {
    route: 'GET /volume/v3/:projectId/types/:typeId/extra_specs',
    expect: anyToken(200),
    probe: async (_w, role) => ({ path: `${cinder(role)}/types/${await multiattachTypeId()}/extra_specs` }),
  },
  {
    route: 'POST /volume/v3/:projectId/types/:typeId/extra_specs',
    expect: adminOnly(200, policy('volume_extension:types_extra_specs:create')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/types/${isAdmin(role) ? await freshType() : await multiattachTypeId()}/extra_specs`,
      body: { extra_specs: { 'authz:key': 'value' } },
    }),
  },
  {
    route: 'GET /volume/v3/:projectId/types/:typeId/extra_specs/:key',
    expect: anyToken(200),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/types/${await multiattachTypeId()}/extra_specs/multiattach`,
    }),
  },
  {
    route: 'PUT /volume/v3/:projectId/types/:typeId/extra_specs/:key',
    expect: adminOnly(200, policy('volume_extension:types_extra_specs:update')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/types/${isAdmin(role) ? await freshType() : await multiattachTypeId()}/extra_specs/authz:key`,
      body: { 'authz:key': 'changed' },
    }),
  },
  {
    route: 'DELETE /volume/v3/:projectId/types/:typeId/extra_specs/:key',
    expect: adminOnly(202, policy('volume_extension:types_extra_specs:delete')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/types/${isAdmin(role) ? await freshType({ 'authz:key': 'value' }) : await multiattachTypeId()}/extra_specs/authz:key`,
    }),
  },
  {
    route: 'GET /volume/v3/:projectId/scheduler-stats/get_pools',
    expect: adminOnly(200, policy('scheduler_extension:scheduler_stats:get_pools')),
    probe: (_w, role) => ({ path: `${cinder(role)}/scheduler-stats/get_pools` }),
  },

  // --- Glance ---------------------------------------------------------------------------------
  { route: 'GET /image/versions', expect: everyone(200), probe: () => ({ path: '/image/versions' }) },
  { route: 'GET /image/v2/images', expect: anyToken(200), probe: () => ({ path: '/image/v2/images' }) },
  {
    route: 'GET /image/v2/images/:id',
    expect: anyToken(200),
    probe: () => ({ path: `/image/v2/images/${imageId}` }),
  },
  // --- N: network -----------------------------------------------------------------------------
  {
    route: 'GET /compute/v2.1/servers/:id/ips',
    expect: demosToRead(200, instanceNotFound('<demo server>')),
    probe: (w) => ({ path: `/compute/v2.1/servers/${w.demo.server}/ips` }),
  },
  {
    // Demo's server is on no network: even its owner learns it is not a member of `private`.
    route: 'GET /compute/v2.1/servers/:id/ips/:network',
    expect: demosToRead(404, instanceNotFound('<demo server>')),
    probe: (w) => ({ path: `/compute/v2.1/servers/${w.demo.server}/ips/private` }),
  },
  {
    route: 'GET /compute/v2.1/servers/:id/os-interface',
    expect: demosToRead(200, instanceNotFound('<demo server>')),
    probe: (w) => ({ path: `/compute/v2.1/servers/${w.demo.server}/os-interface` }),
  },
  {
    route: 'GET /compute/v2.1/servers/:id/os-interface/:portId',
    expect: demosToRead(404, instanceNotFound('<demo server>')),
    probe: (w) => ({ path: `/compute/v2.1/servers/${w.demo.server}/os-interface/${NO_SUCH_ID}` }),
  },
  { route: 'GET /network/', expect: everyone(200), probe: () => ({ path: '/network/' }) },
  { route: 'GET /network/v2.0/', expect: anyToken(200), probe: () => ({ path: '/network/v2.0/' }) },
  {
    route: 'GET /network/v2.0/extensions',
    expect: anyToken(200),
    probe: () => ({ path: '/network/v2.0/extensions' }),
  },
  {
    route: 'GET /network/v2.0/extensions/:alias',
    expect: anyToken(200),
    probe: () => ({ path: '/network/v2.0/extensions/security-group' }),
  },
  ...neutronRows(),
  {
    // Neutron's defaults for every project; only its own members (and admins) may read them.
    route: 'GET /network/v2.0/quotas/:projectId',
    expect: demosToRead(200, neutron(403, 'rule:get_quota is disallowed by policy')),
    probe: () => ({ path: `/network/v2.0/quotas/${ids().demoProject}` }),
  },
  {
    route: 'GET /network/v2.0/quotas/:projectId/default',
    expect: demosToRead(200, neutron(403, 'rule:get_quota is disallowed by policy')),
    probe: () => ({ path: `/network/v2.0/quotas/${ids().demoProject}/default` }),
  },

  // --- C1: the server's own API (issue 14) -----------------------------------------------------
  { route: 'ALL /compute/v2', expect: everyone(200), probe: () => ({ path: '/compute/v2' }) },
  { route: 'ALL /compute/v2/', expect: everyone(200), probe: () => ({ path: '/compute/v2/' }) },
  {
    route: 'PUT /compute/v2.1/servers/:id',
    expect: demosToChange(200, 'os_compute_api:servers:update', instanceNotFound('<demo server>')),
    probe: (w) => ({
      path: `/compute/v2.1/servers/${w.demo.server}`,
      body: { server: { accessIPv4: '192.0.2.7' } },
    }),
  },
  {
    route: 'GET /compute/v2.1/servers/:id/metadata',
    expect: demosToRead(200, instanceNotFound('<demo server>')),
    probe: (w) => ({ path: `/compute/v2.1/servers/${w.demo.server}/metadata` }),
  },
  {
    route: 'POST /compute/v2.1/servers/:id/metadata',
    expect: demosToChange(200, 'os_compute_api:server-metadata:create', instanceNotFound('<demo server>')),
    probe: (w) => ({
      path: `/compute/v2.1/servers/${w.demo.server}/metadata`,
      body: { metadata: { authz: 'merged' } },
    }),
  },
  {
    route: 'PUT /compute/v2.1/servers/:id/metadata',
    expect: demosToChange(
      200,
      'os_compute_api:server-metadata:update_all',
      instanceNotFound('<demo server>'),
    ),
    probe: (w) => ({
      path: `/compute/v2.1/servers/${w.demo.server}/metadata`,
      body: { metadata: { authz: 'replaced' } },
    }),
  },
  {
    route: 'GET /compute/v2.1/servers/:id/metadata/:key',
    expect: demosToRead(200, instanceNotFound('<demo server>')),
    probe: async (w) => {
      await w.must(w.actors.admin, 'PUT', `/compute/v2.1/servers/${w.demo.server}/metadata/authz`, {
        body: { meta: { authz: 'read' } },
      });
      return { path: `/compute/v2.1/servers/${w.demo.server}/metadata/authz` };
    },
  },
  {
    route: 'PUT /compute/v2.1/servers/:id/metadata/:key',
    expect: demosToChange(200, 'os_compute_api:server-metadata:update', instanceNotFound('<demo server>')),
    probe: (w) => ({
      path: `/compute/v2.1/servers/${w.demo.server}/metadata/authz`,
      body: { meta: { authz: 'one' } },
    }),
  },
  {
    route: 'DELETE /compute/v2.1/servers/:id/metadata/:key',
    expect: demosToChange(204, 'os_compute_api:server-metadata:delete', instanceNotFound('<demo server>')),
    probe: async (w) => {
      await w.must(w.actors.admin, 'PUT', `/compute/v2.1/servers/${w.demo.server}/metadata/gone`, {
        body: { meta: { gone: 'soon' } },
      });
      return { path: `/compute/v2.1/servers/${w.demo.server}/metadata/gone` };
    },
  },
  {
    route: 'GET /compute/v2.1/servers/:id/os-instance-actions',
    expect: demosToRead(200, instanceNotFound('<demo server>')),
    probe: (w) => ({ path: `/compute/v2.1/servers/${w.demo.server}/os-instance-actions` }),
  },
  {
    route: 'GET /compute/v2.1/servers/:id/os-instance-actions/:requestId',
    expect: demosToRead(200, instanceNotFound('<demo server>')),
    probe: async (w) => {
      const list = await w.must(
        w.actors.admin,
        'GET',
        `/compute/v2.1/servers/${w.demo.server}/os-instance-actions`,
      );
      const requestId = list.body.instanceActions.at(-1).request_id as string;
      return { path: `/compute/v2.1/servers/${w.demo.server}/os-instance-actions/${requestId}` };
    },
  },
  // --- end C1 ---

  // --- V1: block storage everyday API (volume metadata, snapshots) ---
  {
    route: 'GET /volume/v3/:projectId/volumes/:volumeId/metadata',
    expect: demosToRead(200, volumeNotFound('<demo volume>')),
    probe: (w, role) => ({ path: `${cinder(role)}/volumes/${w.demo.plain}/metadata` }),
  },
  {
    route: 'POST /volume/v3/:projectId/volumes/:volumeId/metadata',
    expect: demosToChange(200, 'volume:create_volume_metadata', volumeNotFound('<demo volume>')),
    probe: (w, role) => ({
      path: `${cinder(role)}/volumes/${w.demo.plain}/metadata`,
      body: { metadata: { authz: 'value' } },
    }),
  },
  {
    route: 'PUT /volume/v3/:projectId/volumes/:volumeId/metadata',
    expect: demosToChange(200, 'volume:update_volume_metadata', volumeNotFound('<demo volume>')),
    probe: (w, role) => ({
      path: `${cinder(role)}/volumes/${w.demo.plain}/metadata`,
      body: { metadata: { authz: 'value' } },
    }),
  },
  {
    route: 'GET /volume/v3/:projectId/volumes/:volumeId/metadata/:key',
    expect: demosToRead(200, volumeNotFound('<demo volume>')),
    probe: async (w, role) => {
      await demoVolumeMetadata();
      return { path: `${cinder(role)}/volumes/${w.demo.plain}/metadata/authz` };
    },
  },
  {
    route: 'PUT /volume/v3/:projectId/volumes/:volumeId/metadata/:key',
    expect: demosToChange(200, 'volume:update_volume_metadata', volumeNotFound('<demo volume>')),
    probe: (w, role) => ({
      path: `${cinder(role)}/volumes/${w.demo.plain}/metadata/authz`,
      body: { meta: { authz: 'value' } },
    }),
  },
  {
    route: 'DELETE /volume/v3/:projectId/volumes/:volumeId/metadata/:key',
    expect: demosToChange(200, 'volume:delete_volume_metadata', volumeNotFound('<demo volume>')),
    probe: async (w, role) => {
      const key = spends(role) ? `authz-${role}` : 'authz';
      await w.must(
        w.actors.member,
        'POST',
        `${w.actors.member.volumeBase}/volumes/${w.demo.plain}/metadata`,
        {
          body: { metadata: { [key]: 'value' } },
        },
      );
      return { path: `${cinder(role)}/volumes/${w.demo.plain}/metadata/${key}` };
    },
  },
  {
    route: 'GET /volume/v3/:projectId/snapshots',
    expect: anyToken(200),
    probe: (_w, role) => ({ path: `${cinder(role)}/snapshots` }),
  },
  {
    route: 'GET /volume/v3/:projectId/snapshots/detail',
    expect: anyToken(200),
    probe: (_w, role) => ({ path: `${cinder(role)}/snapshots/detail` }),
  },
  {
    route: 'POST /volume/v3/:projectId/snapshots',
    expect: demosToChange(202, 'volume:create_snapshot', volumeNotFound('<demo volume>')),
    probe: (w, role) => ({
      path: `${cinder(role)}/snapshots`,
      body: { snapshot: { volume_id: w.demo.plain, name: uniqueName('authz-snap') } },
    }),
  },
  {
    route: 'GET /volume/v3/:projectId/snapshots/:snapshotId',
    expect: demosToRead(200, snapshotNotFound('<demo snapshot>')),
    probe: async (_w, role) => ({ path: `${cinder(role)}/snapshots/${await demoSnapshot()}` }),
  },
  {
    route: 'PUT /volume/v3/:projectId/snapshots/:snapshotId',
    expect: demosToChange(200, 'volume:update_snapshot', snapshotNotFound('<demo snapshot>')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/snapshots/${await demoSnapshot()}`,
      body: { snapshot: { description: `changed by ${role}` } },
    }),
  },
  {
    route: 'DELETE /volume/v3/:projectId/snapshots/:snapshotId',
    expect: demosToChange(202, 'volume:delete_snapshot', snapshotNotFound('<demo snapshot>')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/snapshots/${spends(role) ? await freshSnapshot() : await demoSnapshot()}`,
    }),
  },
  {
    route: 'POST /volume/v3/:projectId/snapshots/:snapshotId/action',
    expect: {
      ...adminOnly(202, policy('volume_extension:snapshot_admin_actions:reset_status')),
      other: snapshotNotFound('<demo snapshot>'),
    },
    probe: async (_w, role) => ({
      path: `${cinder(role)}/snapshots/${await demoSnapshot()}/action`,
      body: { 'os-reset_status': { status: 'available' } },
    }),
  },
  {
    route: 'GET /volume/v3/:projectId/snapshots/:snapshotId/metadata',
    expect: demosToRead(200, snapshotNotFound('<demo snapshot>')),
    probe: async (_w, role) => ({ path: `${cinder(role)}/snapshots/${await demoSnapshot()}/metadata` }),
  },
  {
    route: 'POST /volume/v3/:projectId/snapshots/:snapshotId/metadata',
    expect: demosToChange(200, 'volume:update_snapshot_metadata', snapshotNotFound('<demo snapshot>')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/snapshots/${await demoSnapshot()}/metadata`,
      body: { metadata: { authz: 'value' } },
    }),
  },
  {
    route: 'PUT /volume/v3/:projectId/snapshots/:snapshotId/metadata',
    expect: demosToChange(200, 'volume:update_snapshot_metadata', snapshotNotFound('<demo snapshot>')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/snapshots/${await demoSnapshot()}/metadata`,
      body: { metadata: { authz: 'value' } },
    }),
  },
  {
    route: 'GET /volume/v3/:projectId/snapshots/:snapshotId/metadata/:key',
    expect: demosToRead(200, snapshotNotFound('<demo snapshot>')),
    probe: async (_w, role) => ({ path: `${cinder(role)}/snapshots/${await demoSnapshot()}/metadata/authz` }),
  },
  {
    route: 'PUT /volume/v3/:projectId/snapshots/:snapshotId/metadata/:key',
    expect: demosToChange(200, 'volume:update_snapshot_metadata', snapshotNotFound('<demo snapshot>')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/snapshots/${await demoSnapshot()}/metadata/authz`,
      body: { meta: { authz: 'value' } },
    }),
  },
  {
    route: 'DELETE /volume/v3/:projectId/snapshots/:snapshotId/metadata/:key',
    expect: demosToChange(200, 'volume:delete_snapshot_metadata', snapshotNotFound('<demo snapshot>')),
    probe: async (w, role) => {
      const snap = await demoSnapshot();
      const key = spends(role) ? `authz-${role}` : 'authz';
      await w.must(w.actors.member, 'POST', `${w.actors.member.volumeBase}/snapshots/${snap}/metadata`, {
        body: { metadata: { [key]: 'value' } },
      });
      return { path: `${cinder(role)}/snapshots/${snap}/metadata/${key}` };
    },
  },
  {
    route: 'GET /volume/v3/:projectId/os-services',
    expect: adminOnly(200, policy('volume_extension:services:index')),
    probe: (_w, role) => ({ path: `${cinder(role)}/os-services` }),
  },
  {
    route: 'PUT /volume/v3/:projectId/os-services/:action',
    expect: adminOnly(200, policy('volume_extension:services:update')),
    probe: (_w, role) => ({
      path: `${cinder(role)}/os-services/enable`,
      body: { binary: 'cinder-volume', host: 'cloud@lvmdriver-1' },
    }),
  },
  {
    route: 'GET /volume/v3/:projectId/os-availability-zone',
    expect: anyToken(200),
    probe: (_w, role) => ({ path: `${cinder(role)}/os-availability-zone` }),
  },
  // --- C2: tenancy ---
  {
    // Key pairs belong to users: each creates its own; the other project's member names demo's user.
    route: 'POST /compute/v2.1/os-keypairs',
    expect: demosToRead(201, policy('os_compute_api:os-keypairs:create')),
    probe: (_w, role) => ({
      path: '/compute/v2.1/os-keypairs',
      body: {
        keypair: {
          name: uniqueName(`authz-key-${role}`),
          public_key: AUTHZ_PUBLIC_KEY,
          ...(role === 'other' ? { user_id: ids().demoUser } : {}),
        },
      },
    }),
  },
  {
    route: 'GET /compute/v2.1/os-keypairs',
    expect: demosToRead(200, policy('os_compute_api:os-keypairs:index')),
    probe: (_w, role) => ({
      path: `/compute/v2.1/os-keypairs${role === 'other' ? `?user_id=${ids().demoUser}` : ''}`,
    }),
  },
  {
    // Demo's member's key pair: its owner and the admin see it, the reader (another user) cannot.
    route: 'GET /compute/v2.1/os-keypairs/:name',
    expect: {
      ...anyToken(200),
      reader: policy('os_compute_api:os-keypairs:show'),
      other: policy('os_compute_api:os-keypairs:show'),
    },
    probe: async () => ({
      path: `/compute/v2.1/os-keypairs/${await demosKeypair()}?user_id=${ids().demoUser}`,
    }),
  },
  {
    route: 'DELETE /compute/v2.1/os-keypairs/:name',
    expect: {
      ...anyToken(204),
      reader: policy('os_compute_api:os-keypairs:delete'),
      other: policy('os_compute_api:os-keypairs:delete'),
    },
    probe: async (_w, role) => ({
      path: `/compute/v2.1/os-keypairs/${spends(role) ? await freshKeypair() : await demosKeypair()}?user_id=${ids().demoUser}`,
    }),
  },
  {
    route: 'GET /compute/v2.1/limits',
    expect: anyToken(200),
    probe: () => ({ path: '/compute/v2.1/limits' }),
  },
  {
    route: 'GET /compute/v2.1/os-quota-sets/:id/defaults',
    expect: anyToken(200),
    probe: () => ({ path: `/compute/v2.1/os-quota-sets/${ids().demoProject}/defaults` }),
  },
  {
    route: 'GET /compute/v2.1/os-quota-sets/:id',
    expect: demosToRead(200, policy('os_compute_api:os-quota-sets:show')),
    probe: () => ({ path: `/compute/v2.1/os-quota-sets/${ids().demoProject}` }),
  },
  {
    route: 'GET /compute/v2.1/os-quota-sets/:id/detail',
    expect: demosToRead(200, policy('os_compute_api:os-quota-sets:detail')),
    probe: () => ({ path: `/compute/v2.1/os-quota-sets/${ids().demoProject}/detail` }),
  },
  {
    // The default value: demo's quota is the same after the admin's call.
    route: 'PUT /compute/v2.1/os-quota-sets/:id',
    expect: adminOnly(200, policy('os_compute_api:os-quota-sets:update')),
    probe: () => ({
      path: `/compute/v2.1/os-quota-sets/${ids().demoProject}`,
      body: { quota_set: { metadata_items: 128 } },
    }),
  },
  {
    route: 'DELETE /compute/v2.1/os-quota-sets/:id',
    expect: adminOnly(202, policy('os_compute_api:os-quota-sets:delete')),
    probe: async (w, role) => ({
      path: `/compute/v2.1/os-quota-sets/${isAdmin(role) ? await w.freshProject(uniqueName('authz-q')) : ids().demoProject}`,
    }),
  },
  {
    route: 'GET /compute/v2.1/os-quota-class-sets/:id',
    expect: adminOnly(200, policy('os_compute_api:os-quota-class-sets:show')),
    probe: () => ({ path: '/compute/v2.1/os-quota-class-sets/default' }),
  },
  {
    route: 'PUT /compute/v2.1/os-quota-class-sets/:id',
    expect: adminOnly(200, policy('os_compute_api:os-quota-class-sets:update')),
    probe: () => ({
      path: '/compute/v2.1/os-quota-class-sets/default',
      body: { quota_class_set: { metadata_items: 128 } },
    }),
  },
  {
    route: 'GET /volume/v3/:projectId/limits',
    expect: anyToken(200),
    probe: (_w, role) => ({ path: `${cinder(role)}/limits` }),
  },
  {
    route: 'GET /volume/v3/:projectId/os-quota-sets/:target',
    expect: demosToRead(200, policy('volume_extension:quotas:show')),
    probe: (_w, role) => ({ path: `${cinder(role)}/os-quota-sets/${ids().demoProject}?usage=true` }),
  },
  {
    route: 'GET /volume/v3/:projectId/os-quota-sets/:target/defaults',
    expect: demosToRead(200, policy('volume_extension:quotas:show')),
    probe: (_w, role) => ({ path: `${cinder(role)}/os-quota-sets/${ids().demoProject}/defaults` }),
  },
  {
    route: 'PUT /volume/v3/:projectId/os-quota-sets/:target',
    expect: adminOnly(200, policy('volume_extension:quotas:update')),
    probe: (_w, role) => ({
      path: `${cinder(role)}/os-quota-sets/${ids().demoProject}`,
      body: { quota_set: { backups: 10 } },
    }),
  },
  {
    // The admin clears a fresh project's: demo keeps the room the table's volumes need.
    route: 'DELETE /volume/v3/:projectId/os-quota-sets/:target',
    expect: adminOnly(200, policy('volume_extension:quotas:delete')),
    probe: async (w, role) => ({
      path: `${cinder(role)}/os-quota-sets/${isAdmin(role) ? await w.freshProject(uniqueName('authz-q')) : ids().demoProject}`,
    }),
  },
  {
    route: 'GET /volume/v3/:projectId/os-quota-class-sets/:className',
    expect: adminOnly(200, policy('volume_extension:quota_classes:get')),
    probe: (_w, role) => ({ path: `${cinder(role)}/os-quota-class-sets/default` }),
  },
  {
    route: 'PUT /volume/v3/:projectId/os-quota-class-sets/:className',
    expect: adminOnly(200, policy('volume_extension:quota_classes:update')),
    probe: (_w, role) => ({
      path: `${cinder(role)}/os-quota-class-sets/default`,
      body: { quota_class_set: { backups: 10 } },
    }),
  },
  // --- cloud15: scheduler dry-run extension (issue 15) ---
  {
    // Changes nothing, so a reader-only token may ask too; no host names in the answer.
    route: 'POST /compute/v2.1/os-scheduler-dry-run',
    expect: anyToken(200),
    probe: () => ({
      path: '/compute/v2.1/os-scheduler-dry-run',
      body: { dry_run: { flavorRef: '1', count: 2, availability_zone: 'nova' } },
    }),
  },
  {
    route: 'POST /compute/v2.1/os-server-groups',
    expect: ownToCreate(200, 'os_compute_api:os-server-groups:create'),
    probe: (_w, role) => ({
      path: '/compute/v2.1/os-server-groups',
      body: { server_group: { name: uniqueName(`authz-sg-${role}`), policy: 'anti-affinity' } },
    }),
  },
  {
    route: 'GET /compute/v2.1/os-server-groups',
    expect: anyToken(200),
    probe: () => ({ path: '/compute/v2.1/os-server-groups' }),
  },
  {
    // Another project's group is found, then refused by the owner check (not hidden as a 404).
    route: 'GET /compute/v2.1/os-server-groups/:id',
    expect: demosToRead(200, policy('os_compute_api:os-server-groups:show')),
    probe: async () => ({ path: `/compute/v2.1/os-server-groups/${await demosServerGroup()}` }),
  },
  {
    route: 'DELETE /compute/v2.1/os-server-groups/:id',
    expect: demosToChange(
      204,
      'os_compute_api:os-server-groups:delete',
      policy('os_compute_api:os-server-groups:delete'),
    ),
    probe: async (_w, role) => ({
      path: `/compute/v2.1/os-server-groups/${spends(role) ? await freshServerGroup() : await demosServerGroup()}`,
    }),
  },
  {
    route: 'GET /compute/v2.1/os-simple-tenant-usage',
    expect: adminOnly(200, policy('os_compute_api:os-simple-tenant-usage:list')),
    probe: () => ({ path: '/compute/v2.1/os-simple-tenant-usage?start=2026-01-01T00:00:00' }),
  },
  {
    // Demo's usage: its reader and member, and the admin; another project's member is refused.
    route: 'GET /compute/v2.1/os-simple-tenant-usage/:tenantId',
    expect: demosToRead(200, policy('os_compute_api:os-simple-tenant-usage:show')),
    probe: () => ({
      path: `/compute/v2.1/os-simple-tenant-usage/${ids().demoProject}?start=2026-01-01T00:00:00`,
    }),
  },
  {
    route: 'PUT /compute/v2.1/servers/:serverId/tags/:tag',
    expect: demosToChange(201, 'os_compute_api:os-server-tags:update', instanceNotFound('<demo server>')),
    probe: (w, role) => ({ path: `/compute/v2.1/servers/${w.demo.server}/tags/authz-${role}` }),
  },
  {
    route: 'GET /compute/v2.1/servers/:serverId/tags',
    expect: demosToRead(200, instanceNotFound('<demo server>')),
    probe: (w) => ({ path: `/compute/v2.1/servers/${w.demo.server}/tags` }),
  },
  {
    route: 'GET /compute/v2.1/servers/:serverId/tags/:tag',
    expect: demosToRead(204, instanceNotFound('<demo server>')),
    probe: async (w) => {
      await w.must(w.actors.member, 'PUT', `/compute/v2.1/servers/${w.demo.server}/tags/authz-seen`);
      return { path: `/compute/v2.1/servers/${w.demo.server}/tags/authz-seen` };
    },
  },
  {
    route: 'DELETE /compute/v2.1/servers/:serverId/tags/:tag',
    expect: demosToChange(204, 'os_compute_api:os-server-tags:delete', instanceNotFound('<demo server>')),
    probe: async (w, role) => {
      await w.must(w.actors.member, 'PUT', `/compute/v2.1/servers/${w.demo.server}/tags/authz-gone-${role}`);
      return { path: `/compute/v2.1/servers/${w.demo.server}/tags/authz-gone-${role}` };
    },
  },
  {
    route: 'PUT /compute/v2.1/servers/:serverId/tags',
    expect: demosToChange(200, 'os_compute_api:os-server-tags:update_all', instanceNotFound('<demo server>')),
    probe: (w) => ({ path: `/compute/v2.1/servers/${w.demo.server}/tags`, body: { tags: ['authz'] } }),
  },
  {
    route: 'DELETE /compute/v2.1/servers/:serverId/tags',
    expect: demosToChange(204, 'os_compute_api:os-server-tags:delete_all', instanceNotFound('<demo server>')),
    probe: (w) => ({ path: `/compute/v2.1/servers/${w.demo.server}/tags` }),
  },
  {
    route: 'GET /compute/v2.1/servers/:serverId/os-server-password',
    expect: demosToRead(200, instanceNotFound('<demo server>')),
    probe: (w) => ({ path: `/compute/v2.1/servers/${w.demo.server}/os-server-password` }),
  },
  {
    route: 'DELETE /compute/v2.1/servers/:serverId/os-server-password',
    expect: demosToChange(204, 'os_compute_api:os-server-password:clear', instanceNotFound('<demo server>')),
    probe: (w) => ({ path: `/compute/v2.1/servers/${w.demo.server}/os-server-password` }),
  },
  // --- end cloud15 ---
  // --- cloud14v: identity catalog (services and endpoints for admins, regions for any token) ---
  {
    route: 'GET /identity/v3/services',
    expect: adminOnly(200, keystonePolicy('list_services')),
    probe: () => ({ path: '/identity/v3/services' }),
  },
  {
    route: 'GET /identity/v3/services/:serviceId',
    expect: adminOnly(200, keystonePolicy('get_service')),
    probe: async (w) => ({ path: `/identity/v3/services/${await catalogIdOf(w, 'services')}` }),
  },
  {
    route: 'GET /identity/v3/endpoints',
    expect: adminOnly(200, keystonePolicy('list_endpoints')),
    probe: () => ({ path: '/identity/v3/endpoints' }),
  },
  {
    route: 'GET /identity/v3/endpoints/:endpointId',
    expect: adminOnly(200, keystonePolicy('get_endpoint')),
    probe: async (w) => ({ path: `/identity/v3/endpoints/${await catalogIdOf(w, 'endpoints')}` }),
  },
  {
    route: 'GET /identity/v3/regions',
    expect: anyToken(200),
    probe: () => ({ path: '/identity/v3/regions' }),
  },
  {
    route: 'GET /identity/v3/regions/:regionId',
    expect: anyToken(200),
    probe: () => ({ path: '/identity/v3/regions/RegionOne' }),
  },
  // --- cloud14v: Cinder os-hosts and extensions; Nova flavor extra specs (write) ---
  {
    route: 'GET /volume/v3/:projectId/os-hosts',
    expect: adminOnly(200, policy('volume_extension:hosts')),
    probe: (_w, role) => ({ path: `${cinder(role)}/os-hosts` }),
  },
  {
    route: 'GET /volume/v3/:projectId/os-hosts/:host',
    expect: adminOnly(200, policy('volume_extension:hosts')),
    probe: (_w, role) => ({ path: `${cinder(role)}/os-hosts/cloud@lvmdriver-1` }),
  },
  {
    route: 'GET /volume/v3/:projectId/capabilities/:host',
    expect: adminOnly(200, policy('volume_extension:capabilities')),
    probe: (_w, role) => ({ path: `${cinder(role)}/capabilities/cloud@lvmdriver-1` }),
  },
  {
    route: 'GET /volume/v3/:projectId/backups',
    expect: anyToken(200),
    probe: (_w, role) => ({ path: `${cinder(role)}/backups` }),
  },
  {
    route: 'GET /volume/v3/:projectId/backups/detail',
    expect: anyToken(200),
    probe: (_w, role) => ({ path: `${cinder(role)}/backups/detail` }),
  },
  {
    // No backup service runs, so there is never a backup to show: a 404 for everyone with a token.
    route: 'GET /volume/v3/:projectId/backups/:backupId',
    expect: anyToken(404),
    probe: (_w, role) => ({ path: `${cinder(role)}/backups/0b7d6f4e-0000-4000-8000-000000000001` }),
  },
  {
    route: 'GET /volume/v3/:projectId/types/:typeId/os-volume-type-access',
    expect: adminOnly(200, policy('volume_extension:volume_type_access:get_all_for_type')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/types/${await privateType()}/os-volume-type-access`,
    }),
  },
  {
    route: 'POST /volume/v3/:projectId/types/:typeId/action',
    expect: adminOnly(202, policy('volume_extension:volume_type_access:addProjectAccess')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/types/${await privateType()}/action`,
      body: { addProjectAccess: { project: randomUUID() } },
    }),
  },
  {
    route: 'GET /volume/v3/:projectId/extensions',
    expect: anyToken(200),
    probe: (_w, role) => ({ path: `${cinder(role)}/extensions` }),
  },
  {
    route: 'GET /volume/v3/:projectId/extensions/:alias',
    expect: anyToken(200),
    probe: (_w, role) => ({ path: `${cinder(role)}/extensions/os-hosts` }),
  },
  {
    route: 'POST /compute/v2.1/flavors/:id/os-extra_specs',
    expect: adminOnly(200, policy('os_compute_api:os-flavor-extra-specs:create')),
    probe: async (_w, role) => ({
      path: `/compute/v2.1/flavors/${isAdmin(role) ? await freshFlavor() : '42'}/os-extra_specs`,
      body: { extra_specs: { 'authz:key': 'v' } },
    }),
  },
  {
    route: 'PUT /compute/v2.1/flavors/:id/os-extra_specs/:key',
    expect: adminOnly(200, policy('os_compute_api:os-flavor-extra-specs:update')),
    probe: async (_w, role) => ({
      path: `/compute/v2.1/flavors/${isAdmin(role) ? await freshFlavor() : '42'}/os-extra_specs/authz:key`,
      body: { 'authz:key': 'v2' },
    }),
  },
  {
    route: 'DELETE /compute/v2.1/flavors/:id/os-extra_specs/:key',
    expect: adminOnly(200, policy('os_compute_api:os-flavor-extra-specs:delete')),
    probe: async (w, role) => {
      if (!isAdmin(role)) return { path: '/compute/v2.1/flavors/42/os-extra_specs/authz:key' };
      const id = await freshFlavor();
      await w.must(w.actors.admin, 'POST', `/compute/v2.1/flavors/${id}/os-extra_specs`, {
        body: { extra_specs: { 'authz:key': 'v' } },
      });
      return { path: `/compute/v2.1/flavors/${id}/os-extra_specs/authz:key` };
    },
  },
  // --- cloudv2: Cinder user messages (3.3+) ---
  {
    route: 'GET /volume/v3/:projectId/messages',
    expect: anyToken(200),
    probe: (_w, role) => ({ path: `${cinder(role)}/messages`, version: 'volume 3.3' }),
  },
  {
    route: 'GET /volume/v3/:projectId/messages/:messageId',
    expect: demosToRead(200, notFound('Message <demo message> could not be found.')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/messages/${await demoMessage()}`,
      version: 'volume 3.3',
    }),
  },
  {
    route: 'DELETE /volume/v3/:projectId/messages/:messageId',
    expect: demosToChange(204, 'message:delete', notFound('Message <demo message> could not be found.')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/messages/${spends(role) ? await freshMessage() : await demoMessage()}`,
      version: 'volume 3.3',
    }),
  },
  // --- cloudv2: volume type encryption (admins only, the policy before the type) ---
  {
    route: 'GET /volume/v3/:projectId/types/:typeId/encryption',
    expect: adminOnly(200, policy('volume_extension:volume_type_encryption:get')),
    probe: async (_w, role) => ({ path: `${cinder(role)}/types/${await encryptedType()}/encryption` }),
  },
  {
    route: 'GET /volume/v3/:projectId/types/:typeId/encryption/:key',
    expect: adminOnly(200, policy('volume_extension:volume_type_encryption:get')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/types/${await encryptedType()}/encryption/provider`,
    }),
  },
  {
    route: 'POST /volume/v3/:projectId/types/:typeId/encryption',
    expect: adminOnly(200, policy('volume_extension:volume_type_encryption:create')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/types/${isAdmin(role) ? await freshType() : await encryptedType()}/encryption`,
      body: { encryption: { provider: 'luks', control_location: 'front-end' } },
    }),
  },
  {
    route: 'PUT /volume/v3/:projectId/types/:typeId/encryption/:encryptionId',
    expect: adminOnly(200, policy('volume_extension:volume_type_encryption:update')),
    probe: async (_w, role) => {
      const typeId = await encryptedType();
      return {
        path: `${cinder(role)}/types/${typeId}/encryption/${typeId}`,
        body: { encryption: { control_location: 'back-end' } },
      };
    },
  },
  {
    route: 'DELETE /volume/v3/:projectId/types/:typeId/encryption/:encryptionId',
    expect: adminOnly(202, policy('volume_extension:volume_type_encryption:delete')),
    probe: async (_w, role) => {
      const typeId = isAdmin(role) ? await freshEncryptedType() : await encryptedType();
      return { path: `${cinder(role)}/types/${typeId}/encryption/${typeId}` };
    },
  },
  // --- cloudc2: server diagnostics (admin only; the lookup's 404 first) ---
  {
    route: 'GET /compute/v2.1/servers/:serverId/diagnostics',
    expect: {
      ...adminOnly(200, policy('os_compute_api:os-server-diagnostics')),
      other: instanceNotFound('<demo server>'),
    },
    probe: async (w, role) => ({
      path: `/compute/v2.1/servers/${isAdmin(role) ? await w.freshServer('member') : w.demo.server}/diagnostics`,
    }),
  },
  {
    route: 'POST /compute/v2.1/os-server-external-events',
    expect: adminOnly(200, policy('os_compute_api:os-server-external-events:create')),
    probe: (w) => ({
      path: '/compute/v2.1/os-server-external-events',
      body: { events: [{ name: 'network-changed', server_uuid: w.demo.server }] },
    }),
  },
  // --- end cloudc2 ---
  // --- cloud-rescue: extensions, os-migrations, flavor access ---
  {
    route: 'GET /compute/v2.1/extensions',
    expect: anyToken(200),
    probe: () => ({ path: '/compute/v2.1/extensions' }),
  },
  {
    route: 'GET /compute/v2.1/extensions/:alias',
    expect: anyToken(200),
    probe: () => ({ path: '/compute/v2.1/extensions/os-consoles' }),
  },
  {
    route: 'GET /compute/v2.1/os-migrations',
    expect: adminOnly(200, policy('os_compute_api:os-migrations:index')),
    probe: () => ({ path: '/compute/v2.1/os-migrations', version: 'compute 2.80' }),
  },
  {
    // Shared with demo's project: its reader and member see the list, the other project does not.
    route: 'GET /compute/v2.1/flavors/:id/os-flavor-access',
    expect: demosToRead(200, notFound('Flavor authz-shared-flavor could not be found.')),
    probe: async () => ({ path: `/compute/v2.1/flavors/${await sharedFlavor()}/os-flavor-access` }),
  },
  {
    route: 'POST /compute/v2.1/flavors/:id/action',
    expect: adminOnly(200, policy('os_compute_api:os-flavor-access:add_tenant_access')),
    probe: async (w, role) => ({
      path: `/compute/v2.1/flavors/${isAdmin(role) ? await freshPrivateFlavor() : await sharedFlavor()}/action`,
      body: { addTenantAccess: { tenant: w.actors.member.projectId } },
    }),
  },
  // --- end cloud-rescue ---
  // --- cloud-proxy-hosts: the os-volumes / os-snapshots proxy (2.1-2.35): Nova's policy, then Cinder's rules ---
  ...['/os-volumes', '/os-volumes/detail', '/os-snapshots', '/os-snapshots/detail'].map(
    (path): Row => ({
      route: `GET /compute/v2.1${path}`,
      expect: anyToken(200),
      probe: () => ({ path: `/compute/v2.1${path}`, version: PROXY_VERSION }),
    }),
  ),
  {
    route: 'POST /compute/v2.1/os-volumes',
    expect: ownToCreate(200, 'os_compute_api:os-volumes:create'),
    probe: () => ({
      path: '/compute/v2.1/os-volumes',
      version: PROXY_VERSION,
      body: { volume: { size: 1, display_name: uniqueName('authz-proxy') } },
    }),
  },
  {
    route: 'GET /compute/v2.1/os-volumes/:id',
    expect: demosToRead(200, volumeNotFound('<demo volume>')),
    probe: (w) => ({ path: `/compute/v2.1/os-volumes/${w.demo.plain}`, version: PROXY_VERSION }),
  },
  {
    route: 'DELETE /compute/v2.1/os-volumes/:id',
    expect: demosToChange(202, 'os_compute_api:os-volumes:delete', volumeNotFound('<demo volume>')),
    probe: async (w, role) => ({
      path: `/compute/v2.1/os-volumes/${spends(role) ? await w.freshVolume('member') : w.demo.plain}`,
      version: PROXY_VERSION,
    }),
  },
  {
    route: 'POST /compute/v2.1/os-snapshots',
    expect: ownToCreate(200, 'os_compute_api:os-volumes:snapshots:create'),
    probe: async (w, role) => ({
      path: '/compute/v2.1/os-snapshots',
      version: PROXY_VERSION,
      body: {
        snapshot: {
          volume_id:
            role === 'member' || role === 'admin' || role === 'other'
              ? await w.freshVolume(role)
              : w.demo.plain,
        },
      },
    }),
  },
  {
    route: 'GET /compute/v2.1/os-snapshots/:id',
    expect: demosToRead(200, snapshotNotFound('<demo snapshot>')),
    probe: async () => ({
      path: `/compute/v2.1/os-snapshots/${await demoSnapshot()}`,
      version: PROXY_VERSION,
    }),
  },
  {
    route: 'DELETE /compute/v2.1/os-snapshots/:id',
    expect: demosToChange(
      202,
      'os_compute_api:os-volumes:snapshots:delete',
      snapshotNotFound('<demo snapshot>'),
    ),
    probe: async (_w, role) => ({
      path: `/compute/v2.1/os-snapshots/${spends(role) ? await freshSnapshot() : await demoSnapshot()}`,
      version: PROXY_VERSION,
    }),
  },
  // os-hosts (2.1-2.42) and the usage audit log: admin only, the policy before the host lookup.
  {
    route: 'GET /compute/v2.1/os-hosts',
    expect: adminOnly(200, policy('os_compute_api:os-hosts:list')),
    probe: () => ({ path: '/compute/v2.1/os-hosts', version: HOSTS_VERSION }),
  },
  {
    route: 'GET /compute/v2.1/os-hosts/:host',
    expect: adminOnly(200, policy('os_compute_api:os-hosts:show')),
    probe: () => ({ path: '/compute/v2.1/os-hosts/compute-1', version: HOSTS_VERSION }),
  },
  {
    route: 'PUT /compute/v2.1/os-hosts/:host',
    expect: adminOnly(200, policy('os_compute_api:os-hosts:update')),
    probe: () => ({
      path: '/compute/v2.1/os-hosts/compute-1',
      version: HOSTS_VERSION,
      body: { status: 'enable', maintenance_mode: 'disable' },
    }),
  },
  ...(
    [
      ['reboot', 'reboot'],
      ['shutdown', 'shutdown'],
      ['startup', 'start'],
    ] as const
  ).map(
    ([action, rule]): Row => ({
      route: `GET /compute/v2.1/os-hosts/:host/${action}`,
      expect: adminOnly(200, policy(`os_compute_api:os-hosts:${rule}`)),
      probe: () => ({ path: `/compute/v2.1/os-hosts/compute-1/${action}`, version: HOSTS_VERSION }),
    }),
  ),
  {
    route: 'GET /compute/v2.1/os-instance_usage_audit_log',
    expect: adminOnly(200, policy('os_compute_api:os-instance-usage-audit-log:list')),
    probe: () => ({ path: '/compute/v2.1/os-instance_usage_audit_log' }),
  },
  {
    route: 'GET /compute/v2.1/os-instance_usage_audit_log/:before',
    expect: adminOnly(200, policy('os_compute_api:os-instance-usage-audit-log:show')),
    probe: () => ({ path: '/compute/v2.1/os-instance_usage_audit_log/2026-11-25%2006:00:00' }),
  },
  // Host aggregates: admin only; the body is checked first, then the policy.
  {
    route: 'GET /compute/v2.1/os-aggregates',
    expect: adminOnly(200, policy('os_compute_api:os-aggregates:index')),
    probe: () => ({ path: '/compute/v2.1/os-aggregates' }),
  },
  {
    route: 'POST /compute/v2.1/os-aggregates',
    expect: adminOnly(200, policy('os_compute_api:os-aggregates:create')),
    probe: (_w, role) => ({
      path: '/compute/v2.1/os-aggregates',
      body: { aggregate: { name: uniqueName(`authz-agg-${role}`) } },
    }),
  },
  {
    route: 'GET /compute/v2.1/os-aggregates/:id',
    expect: adminOnly(200, policy('os_compute_api:os-aggregates:show')),
    probe: async () => ({ path: `/compute/v2.1/os-aggregates/${await anAggregate()}` }),
  },
  {
    route: 'PUT /compute/v2.1/os-aggregates/:id',
    expect: adminOnly(200, policy('os_compute_api:os-aggregates:update')),
    probe: async (_w, role) => ({
      path: `/compute/v2.1/os-aggregates/${await anAggregate()}`,
      body: { aggregate: { name: uniqueName(`authz-agg-renamed-${role}`) } },
    }),
  },
  {
    route: 'DELETE /compute/v2.1/os-aggregates/:id',
    expect: adminOnly(200, policy('os_compute_api:os-aggregates:delete')),
    probe: async (_w, role) => ({
      path: `/compute/v2.1/os-aggregates/${isAdmin(role) ? await freshAggregate() : await anAggregate()}`,
    }),
  },
  {
    // The action's own rule: add_host here (a fresh aggregate each time the admin adds).
    route: 'POST /compute/v2.1/os-aggregates/:id/action',
    expect: adminOnly(200, policy('os_compute_api:os-aggregates:add_host')),
    probe: async (_w, role) => ({
      path: `/compute/v2.1/os-aggregates/${isAdmin(role) ? await freshAggregate() : await anAggregate()}/action`,
      body: { add_host: { host: 'compute-1' } },
    }),
  },
  // --- end cloud-proxy-hosts ---
  // cloud-qos-transfer: QoS specs (admins only, the policy before the lookup) and volume transfers
  {
    route: 'GET /volume/v3/:projectId/qos-specs',
    expect: adminOnly(200, policy('volume_extension:qos_specs_manage:get_all')),
    probe: (_w, role) => ({ path: `${cinder(role)}/qos-specs` }),
  },
  {
    route: 'POST /volume/v3/:projectId/qos-specs',
    expect: adminOnly(200, policy('volume_extension:qos_specs_manage:create')),
    probe: (_w, role) => ({
      path: `${cinder(role)}/qos-specs`,
      body: { qos_specs: { name: uniqueName('authz-qos'), consumer: 'both', read_iops_sec: '100' } },
    }),
  },
  {
    route: 'GET /volume/v3/:projectId/qos-specs/:qosId',
    expect: adminOnly(200, policy('volume_extension:qos_specs_manage:get')),
    probe: async (_w, role) => ({ path: `${cinder(role)}/qos-specs/${await sharedQos()}` }),
  },
  {
    route: 'PUT /volume/v3/:projectId/qos-specs/:qosId',
    expect: adminOnly(200, policy('volume_extension:qos_specs_manage:update')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/qos-specs/${await sharedQos()}`,
      body: { qos_specs: { write_iops_sec: '200' } },
    }),
  },
  {
    route: 'PUT /volume/v3/:projectId/qos-specs/:qosId/delete_keys',
    expect: adminOnly(202, policy('volume_extension:qos_specs_manage:delete')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/qos-specs/${isAdmin(role) ? await freshQos() : await sharedQos()}/delete_keys`,
      body: { keys: ['read_iops_sec'] },
    }),
  },
  {
    route: 'DELETE /volume/v3/:projectId/qos-specs/:qosId',
    expect: adminOnly(202, policy('volume_extension:qos_specs_manage:delete')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/qos-specs/${isAdmin(role) ? await freshQos() : await sharedQos()}`,
    }),
  },
  {
    route: 'GET /volume/v3/:projectId/qos-specs/:qosId/associations',
    expect: adminOnly(200, policy('volume_extension:qos_specs_manage:get_all')),
    probe: async (_w, role) => ({ path: `${cinder(role)}/qos-specs/${await sharedQos()}/associations` }),
  },
  {
    route: 'GET /volume/v3/:projectId/qos-specs/:qosId/associate',
    expect: adminOnly(202, policy('volume_extension:qos_specs_manage:update')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/qos-specs/${await sharedQos()}/associate?vol_type_id=${await freshType()}`,
    }),
  },
  {
    route: 'GET /volume/v3/:projectId/qos-specs/:qosId/disassociate',
    expect: adminOnly(202, policy('volume_extension:qos_specs_manage:update')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/qos-specs/${await sharedQos()}/disassociate?vol_type_id=${await freshType()}`,
    }),
  },
  {
    route: 'GET /volume/v3/:projectId/qos-specs/:qosId/disassociate_all',
    expect: adminOnly(202, policy('volume_extension:qos_specs_manage:update')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/qos-specs/${isAdmin(role) ? await freshQos() : await sharedQos()}/disassociate_all`,
    }),
  },
  ...(['os-volume-transfer', 'volume-transfers'] as const).flatMap((resource): Row[] => {
    const version = resource === 'volume-transfers' ? 'volume 3.55' : undefined;
    const at = (path: string): Probe => ({ path, ...(version ? { version } : {}) });
    const base = `/volume/v3/:projectId/${resource}`;
    return [
      { route: `GET ${base}`, expect: anyToken(200), probe: (_w, role) => at(`${cinder(role)}/${resource}`) },
      {
        route: `GET ${base}/detail`,
        expect: anyToken(200),
        probe: (_w, role) => at(`${cinder(role)}/${resource}/detail`),
      },
      {
        // The volume's 404 first, then the owner rule.
        route: `POST ${base}`,
        expect: demosToChange(202, 'volume:create_transfer', volumeNotFound('<demo volume>')),
        probe: async (w, role) => ({
          ...at(`${cinder(role)}/${resource}`),
          body: { transfer: { volume_id: spends(role) ? await w.freshVolume('member') : w.demo.plain } },
        }),
      },
      {
        route: `GET ${base}/:transferId`,
        expect: demosToRead(200, notFound('Transfer <demo transfer> could not be found.')),
        probe: async (_w, role) => at(`${cinder(role)}/${resource}/${(await demoTransfer()).id}`),
      },
      {
        route: `DELETE ${base}/:transferId`,
        expect: demosToChange(
          202,
          'volume:delete_transfer',
          notFound('Transfer <demo transfer> could not be found.'),
        ),
        probe: async (_w, role) =>
          at(
            `${cinder(role)}/${resource}/${(spends(role) ? await freshTransfer() : await demoTransfer()).id}`,
          ),
      },
      {
        // Any project that holds the key takes the volume; a reader may not.
        route: `POST ${base}/:transferId/accept`,
        expect: { ...anyToken(202), reader: policy('volume:accept_transfer') },
        probe: async (_w, role) => {
          const t = role === 'reader' || role === 'anonymous' ? await demoTransfer() : await freshTransfer();
          return {
            ...at(`${cinder(role)}/${resource}/${t.id}/accept`),
            body: { accept: { auth_key: t.key } },
          };
        },
      },
    ];
  }),
  // cloud-qos-transfer: Keystone services, endpoints and regions for admins (policy before lookup)
  {
    route: 'POST /identity/v3/services',
    expect: adminOnly(201, keystonePolicy('create_service')),
    probe: () => ({ path: '/identity/v3/services', body: { service: { type: uniqueName('authz-type') } } }),
  },
  {
    route: 'PATCH /identity/v3/services/:serviceId',
    expect: adminOnly(200, keystonePolicy('update_service')),
    probe: async () => ({
      path: `/identity/v3/services/${await freshCatalogService()}`,
      body: { service: { description: 'changed' } },
    }),
  },
  {
    route: 'DELETE /identity/v3/services/:serviceId',
    expect: adminOnly(204, keystonePolicy('delete_service')),
    probe: async () => ({ path: `/identity/v3/services/${await freshCatalogService()}` }),
  },
  {
    route: 'POST /identity/v3/endpoints',
    expect: adminOnly(201, keystonePolicy('create_endpoint')),
    probe: async () => ({
      path: '/identity/v3/endpoints',
      body: {
        endpoint: {
          service_id: await freshCatalogService(),
          interface: 'public',
          url: 'http://authz.example/',
        },
      },
    }),
  },
  {
    route: 'PATCH /identity/v3/endpoints/:endpointId',
    expect: adminOnly(200, keystonePolicy('update_endpoint')),
    probe: async () => ({
      path: `/identity/v3/endpoints/${await freshCatalogEndpoint()}`,
      body: { endpoint: { enabled: false } },
    }),
  },
  {
    route: 'DELETE /identity/v3/endpoints/:endpointId',
    expect: adminOnly(204, keystonePolicy('delete_endpoint')),
    probe: async () => ({ path: `/identity/v3/endpoints/${await freshCatalogEndpoint()}` }),
  },
  {
    route: 'POST /identity/v3/regions',
    expect: adminOnly(201, keystonePolicy('create_region')),
    probe: () => ({ path: '/identity/v3/regions', body: { region: { id: uniqueName('authz-region') } } }),
  },
  {
    route: 'PUT /identity/v3/regions/:regionId',
    expect: adminOnly(201, keystonePolicy('create_region')),
    probe: () => ({ path: `/identity/v3/regions/${uniqueName('authz-region')}`, body: { region: {} } }),
  },
  {
    route: 'PATCH /identity/v3/regions/:regionId',
    expect: adminOnly(200, keystonePolicy('update_region')),
    probe: async () => ({
      path: `/identity/v3/regions/${await freshRegion()}`,
      body: { region: { description: 'changed' } },
    }),
  },
  {
    route: 'DELETE /identity/v3/regions/:regionId',
    expect: adminOnly(204, keystonePolicy('delete_region')),
    probe: async () => ({ path: `/identity/v3/regions/${await freshRegion()}` }),
  },
  // --- end cloud-qos-transfer ---
  // --- cloud-groups: generic volume groups (group types 3.11: writes and specs for admins only;
  // groups 3.13 and group snapshots 3.14: demo's to read, members' to change, resets for admins) ---
  {
    route: 'GET /volume/v3/:projectId/group_types',
    expect: anyToken(200),
    probe: (_w, role) => ({ path: `${cinder(role)}/group_types` }),
  },
  {
    route: 'GET /volume/v3/:projectId/group_types/:typeId',
    expect: anyToken(200),
    probe: async (_w, role) => ({ path: `${cinder(role)}/group_types/${await sharedGroupType()}` }),
  },
  {
    route: 'POST /volume/v3/:projectId/group_types',
    expect: adminOnly(202, policy('group:group_types:create')),
    probe: (_w, role) => ({
      path: `${cinder(role)}/group_types`,
      body: { group_type: { name: uniqueName('authz-gt') } },
    }),
  },
  {
    route: 'PUT /volume/v3/:projectId/group_types/:typeId',
    expect: adminOnly(200, policy('group:group_types:update')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/group_types/${await sharedGroupType()}`,
      body: { group_type: { description: `changed by ${role}` } },
    }),
  },
  {
    route: 'DELETE /volume/v3/:projectId/group_types/:typeId',
    expect: adminOnly(202, policy('group:group_types:delete')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/group_types/${isAdmin(role) ? await freshGroupType() : await sharedGroupType()}`,
    }),
  },
  {
    route: 'GET /volume/v3/:projectId/group_types/:typeId/group_specs',
    expect: adminOnly(200, policy('group:group_types_specs:get_all')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/group_types/${await sharedGroupType()}/group_specs`,
    }),
  },
  {
    route: 'POST /volume/v3/:projectId/group_types/:typeId/group_specs',
    expect: adminOnly(202, policy('group:group_types_specs:create')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/group_types/${await sharedGroupType()}/group_specs`,
      body: { group_specs: { 'authz:other': 'v' } },
    }),
  },
  {
    route: 'GET /volume/v3/:projectId/group_types/:typeId/group_specs/:key',
    expect: adminOnly(200, policy('group:group_types_specs:get')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/group_types/${await sharedGroupType()}/group_specs/authz:key`,
    }),
  },
  {
    route: 'PUT /volume/v3/:projectId/group_types/:typeId/group_specs/:key',
    expect: adminOnly(200, policy('group:group_types_specs:update')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/group_types/${await sharedGroupType()}/group_specs/authz:key`,
      body: { 'authz:key': `set by ${role}` },
    }),
  },
  {
    route: 'DELETE /volume/v3/:projectId/group_types/:typeId/group_specs/:key',
    expect: adminOnly(202, policy('group:group_types_specs:delete')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/group_types/${isAdmin(role) ? await freshGroupType() : await sharedGroupType()}/group_specs/authz:key`,
    }),
  },
  {
    route: 'GET /volume/v3/:projectId/groups',
    expect: anyToken(200),
    probe: (_w, role) => ({ path: `${cinder(role)}/groups` }),
  },
  {
    route: 'GET /volume/v3/:projectId/groups/detail',
    expect: anyToken(200),
    probe: (_w, role) => ({ path: `${cinder(role)}/groups/detail` }),
  },
  {
    route: 'POST /volume/v3/:projectId/groups',
    expect: ownToCreate(202, 'group:create'),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/groups`,
      body: { group: { group_type: await sharedGroupType(), volume_types: [await groupVolumeType()] } },
    }),
  },
  {
    route: 'POST /volume/v3/:projectId/groups/action',
    expect: {
      ...ownToCreate(202, 'group:create'),
      other: notFound('Group <demo group> could not be found.'),
    },
    probe: async (_w, role) => ({
      path: `${cinder(role)}/groups/action`,
      body: { 'create-from-src': { source_group_id: await demoGroup() } },
    }),
  },
  {
    route: 'GET /volume/v3/:projectId/groups/:groupId',
    expect: demosToRead(200, notFound('Group <demo group> could not be found.')),
    probe: async (_w, role) => ({ path: `${cinder(role)}/groups/${await demoGroup()}` }),
  },
  {
    route: 'PUT /volume/v3/:projectId/groups/:groupId',
    expect: demosToChange(202, 'group:update', notFound('Group <demo group> could not be found.')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/groups/${await demoGroup()}`,
      body: { group: { description: `changed by ${role}` } },
    }),
  },
  {
    route: 'POST /volume/v3/:projectId/groups/:groupId/action',
    expect: demosToChange(202, 'group:delete', notFound('Group <demo group> could not be found.')),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/groups/${spends(role) ? await freshGroup() : await demoGroup()}/action`,
      body: { delete: { 'delete-volumes': true } },
    }),
  },
  {
    route: 'GET /volume/v3/:projectId/group_snapshots',
    expect: anyToken(200),
    probe: (_w, role) => ({ path: `${cinder(role)}/group_snapshots` }),
  },
  {
    route: 'GET /volume/v3/:projectId/group_snapshots/detail',
    expect: anyToken(200),
    probe: (_w, role) => ({ path: `${cinder(role)}/group_snapshots/detail` }),
  },
  {
    route: 'POST /volume/v3/:projectId/group_snapshots',
    expect: demosToChange(
      202,
      'group:create_group_snapshot',
      notFound('Group <demo group> could not be found.'),
    ),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/group_snapshots`,
      body: { group_snapshot: { group_id: await demoGroup() } },
    }),
  },
  {
    route: 'GET /volume/v3/:projectId/group_snapshots/:groupSnapshotId',
    expect: demosToRead(200, notFound('GroupSnapshot <demo group_snapshot> could not be found.')),
    probe: async (_w, role) => ({ path: `${cinder(role)}/group_snapshots/${await demoGroupSnapshot()}` }),
  },
  {
    route: 'DELETE /volume/v3/:projectId/group_snapshots/:groupSnapshotId',
    expect: demosToChange(
      202,
      'group:delete_group_snapshot',
      notFound('GroupSnapshot <demo group_snapshot> could not be found.'),
    ),
    probe: async (_w, role) => ({
      path: `${cinder(role)}/group_snapshots/${spends(role) ? await freshGroupSnapshot() : await demoGroupSnapshot()}`,
    }),
  },
  {
    route: 'POST /volume/v3/:projectId/group_snapshots/:groupSnapshotId/action',
    expect: {
      ...adminOnly(202, policy('group:reset_group_snapshot_status')),
      other: notFound('GroupSnapshot <demo group_snapshot> could not be found.'),
    },
    probe: async (_w, role) => ({
      path: `${cinder(role)}/group_snapshots/${await demoGroupSnapshot()}/action`,
      body: { reset_status: { status: 'available' } },
    }),
  },
  // --- end cloud-groups ---
];

// --- cloud-rescue: private flavors, for the flavor access rows ---
const SHARED_FLAVOR = 'authz-shared-flavor';
let sharedFlavorId: Promise<string> | undefined;
/** A private flavor shared with demo's project. */
function sharedFlavor(): Promise<string> {
  sharedFlavorId ??= (async () => {
    await w.must(w.actors.admin, 'POST', '/compute/v2.1/flavors', {
      body: {
        flavor: {
          id: SHARED_FLAVOR,
          name: SHARED_FLAVOR,
          ram: 64,
          vcpus: 1,
          disk: 1,
          'os-flavor-access:is_public': false,
        },
      },
    });
    await w.must(w.actors.admin, 'POST', `/compute/v2.1/flavors/${SHARED_FLAVOR}/action`, {
      body: { addTenantAccess: { tenant: w.actors.member.projectId } },
    });
    return SHARED_FLAVOR;
  })();
  return sharedFlavorId;
}
async function freshPrivateFlavor(): Promise<string> {
  const res = await w.must(w.actors.admin, 'POST', '/compute/v2.1/flavors', {
    body: {
      flavor: {
        name: uniqueName('authz-private-flavor'),
        ram: 64,
        vcpus: 1,
        disk: 1,
        'os-flavor-access:is_public': false,
      },
    },
  });
  return res.body.flavor.id;
}
// --- end cloud-rescue ---

// --- cloud14v: a private volume type, for the type access rows ---
let privateTypeId: Promise<string> | undefined;
function privateType(): Promise<string> {
  privateTypeId ??= w
    .must(w.actors.admin, 'POST', `${w.actors.admin.volumeBase}/types`, {
      body: { volume_type: { name: uniqueName('authz-private'), 'os-volume-type-access:is_public': false } },
    })
    .then((res) => res.body.volume_type.id as string);
  return privateTypeId;
}

// --- cloud14v: identity catalog ---
/** The first service's or endpoint's id, as the admin lists them. */
async function catalogIdOf(w: AuthzWorld, collection: 'services' | 'endpoints'): Promise<string> {
  const listed = await w.must(w.actors.admin, 'GET', `/identity/v3/${collection}`);
  return (listed.body[collection] as { id: string }[])[0]!.id;
}

/**
 * Neutron's five resources, each list/create/show/update/delete: readers read, the other
 * project's member finds nothing of demo's (the resource's NotFound), and a reader-only token is
 * refused every change with oslo.policy's `rule:<action>_<resource> is disallowed by policy`.
 */
function neutronRows(): Row[] {
  const N = '/network/v2.0';
  const resources = [
    { path: 'networks', singular: 'network', missing: (id: string) => `Network ${id} could not be found.` },
    { path: 'subnets', singular: 'subnet', missing: (id: string) => `Subnet ${id} could not be found.` },
    { path: 'ports', singular: 'port', missing: (id: string) => `Port ${id} could not be found.` },
    {
      path: 'security-groups',
      singular: 'security_group',
      missing: (id: string) => `Security group ${id} does not exist`,
    },
    {
      path: 'security-group-rules',
      singular: 'security_group_rule',
      missing: (id: string) => `Security group rule ${id} does not exist`,
    },
  ] as const;
  const out: Row[] = [];
  for (const r of resources) {
    const demoId = (): Promise<string> => neutronFixture(r.singular);
    const stranger = (): Expect => neutron(404, r.missing(`<demo ${r.singular}>`));
    out.push(
      { route: `GET ${N}/${r.path}`, expect: anyToken(200), probe: () => ({ path: `${N}/${r.path}` }) },
      {
        route: `POST ${N}/${r.path}`,
        expect: {
          ...anyToken(201),
          reader: neutron(403, `rule:create_${r.singular} is disallowed by policy`),
        },
        probe: async (_w, role) => ({
          path: `${N}/${r.path}`,
          body: await neutronCreateBody(r.singular, role),
        }),
      },
      {
        route: `GET ${N}/${r.path}/:id`,
        expect: demosToRead(200, stranger()),
        probe: async () => ({ path: `${N}/${r.path}/${await demoId()}` }),
      },
      {
        route: `PUT ${N}/${r.path}/:id`,
        expect: {
          ...demosToRead(200, stranger()),
          reader: neutron(403, `rule:update_${r.singular} is disallowed by policy`),
        },
        probe: async () => ({
          path: `${N}/${r.path}/${await demoId()}`,
          body: { [r.singular]: { description: 'changed' } },
        }),
      },
      {
        route: `DELETE ${N}/${r.path}/:id`,
        expect: {
          ...demosToRead(204, stranger()),
          reader: neutron(403, `rule:delete_${r.singular} is disallowed by policy`),
        },
        probe: async (_w, role) => ({
          path: `${N}/${r.path}/${spends(role) ? await freshNeutron(r.singular) : await demoId()}`,
        }),
      },
    );
  }
  return out;
}

/** Neutron's fault: `{"NeutronError": {"type", "message", "detail"}}`. */
function neutron(status: number, message: string): Expect {
  return { status, fault: { key: 'NeutronError', message } };
}

/** Demo's network resources: the seeded network and subnet, its default group, a port and a rule. */
let demoNeutronMade: Promise<Record<string, string>> | undefined;
const demoNeutron = () => {
  demoNeutronMade ??= makeDemoNeutron();
  return demoNeutronMade;
};
async function makeDemoNeutron(): Promise<Record<string, string>> {
  const m = w.actors.member;
  const N = '/network/v2.0';
  const network = (await w.must(m, 'GET', `${N}/networks?name=private`)).body.networks[0].id as string;
  const subnet = (await w.must(m, 'GET', `${N}/subnets?network_id=${network}`)).body.subnets[0].id as string;
  const group = (await w.must(m, 'GET', `${N}/security-groups?name=default`)).body.security_groups[0]
    .id as string;
  const port = (await w.must(m, 'POST', `${N}/ports`, { body: { port: { network_id: network } } })).body.port
    .id as string;
  const rule = (
    await w.must(m, 'POST', `${N}/security-group-rules`, {
      body: { security_group_rule: { security_group_id: group, direction: 'ingress', protocol: 'icmp' } },
    })
  ).body.security_group_rule.id as string;
  neutronIds = { network, subnet, port, security_group: group, security_group_rule: rule };
  return neutronIds;
}
/** Demo's network resources by singular, once made (for the placeholders in expected messages). */
let neutronIds: Record<string, string> = {};
const neutronFixture = async (singular: string): Promise<string> => (await demoNeutron())[singular]!;

let subnetCount = 0;
/** A body that creates one resource in the role's own project (a new subnet on a new network). */
async function neutronCreateBody(singular: string, role: Role): Promise<unknown> {
  const who = asActor(role);
  const N = '/network/v2.0';
  switch (singular) {
    case 'network':
      return { network: { name: uniqueName('authz-net') } };
    case 'subnet': {
      const net =
        isAdmin(role) || role === 'other'
          ? (
              await w.must(who, 'POST', `${N}/networks`, {
                body: { network: { name: uniqueName('authz-net') } },
              })
            ).body.network.id
          : await neutronFixture('network');
      subnetCount++;
      return { subnet: { network_id: net, ip_version: 4, cidr: `10.${100 + subnetCount}.0.0/28` } };
    }
    case 'port': {
      const net =
        isAdmin(role) || role === 'other'
          ? (
              await w.must(who, 'POST', `${N}/networks`, {
                body: { network: { name: uniqueName('authz-net') } },
              })
            ).body.network.id
          : await neutronFixture('network');
      if (isAdmin(role) || role === 'other') {
        subnetCount++;
        await w.must(who, 'POST', `${N}/subnets`, {
          body: { subnet: { network_id: net, ip_version: 4, cidr: `10.${100 + subnetCount}.0.0/28` } },
        });
      }
      return { port: { network_id: net } };
    }
    case 'security_group':
      return { security_group: { name: uniqueName('authz-sg') } };
    default: {
      const sg =
        role === 'reader'
          ? await neutronFixture('security_group')
          : (
              await w.must(who, 'POST', `${N}/security-groups`, {
                body: { security_group: { name: uniqueName('authz-sg') } },
              })
            ).body.security_group.id;
      return {
        security_group_rule: {
          security_group_id: sg,
          direction: 'ingress',
          protocol: 'tcp',
          port_range_min: 22,
          port_range_max: 22,
        },
      };
    }
  }
}

/** A resource of demo's made to be deleted (a port, group or rule needs nothing else). */
async function freshNeutron(singular: string): Promise<string> {
  const m = w.actors.member;
  const N = '/network/v2.0';
  switch (singular) {
    case 'network':
      return (
        await w.must(m, 'POST', `${N}/networks`, { body: { network: { name: uniqueName('authz-net') } } })
      ).body.network.id;
    case 'subnet': {
      subnetCount++;
      return (
        await w.must(m, 'POST', `${N}/subnets`, {
          body: {
            subnet: {
              network_id: await neutronFixture('network'),
              ip_version: 4,
              cidr: `10.${100 + subnetCount}.0.0/28`,
            },
          },
        })
      ).body.subnet.id;
    }
    case 'port':
      return (
        await w.must(m, 'POST', `${N}/ports`, {
          body: { port: { network_id: await neutronFixture('network') } },
        })
      ).body.port.id;
    case 'security_group':
      return (
        await w.must(m, 'POST', `${N}/security-groups`, {
          body: { security_group: { name: uniqueName('authz-sg') } },
        })
      ).body.security_group.id;
    default:
      return (
        await w.must(m, 'POST', `${N}/security-group-rules`, {
          body: {
            security_group_rule: {
              security_group_id: await neutronFixture('security_group'),
              direction: 'egress',
              protocol: 'udp',
              port_range_min: 1000 + subnetCount,
              port_range_max: 1000 + subnetCount++,
            },
          },
        })
      ).body.security_group_rule.id;
  }
}

// --- Fixtures some rows need -------------------------------------------------------------------

let imageId: string;
/** The demo snapshot's id once made (the placeholder of the snapshot rows' expected messages). */
let demoSnapshotId: string | undefined;
const memo = <T>(fn: () => Promise<T>) => {
  let value: Promise<T> | undefined;
  return () => {
    value ??= fn();
    return value;
  };
};
const computeServiceUuid = memo(async () => {
  const res = await w.must(
    w.actors.admin,
    'GET',
    '/compute/v2.1/os-services?binary=nova-compute&host=compute-1',
  );
  return res.body.services[0].id as string;
});
const hypervisorUuid = memo(async () => {
  const res = await w.must(
    w.actors.admin,
    'GET',
    '/compute/v2.1/os-hypervisors?hypervisor_hostname_pattern=compute-1',
  );
  return res.body.hypervisors[0].id as string;
});
const multiattachTypeId = memo(async () => {
  const res = await w.must(w.actors.admin, 'GET', `${w.actors.admin.volumeBase}/types`);
  return res.body.volume_types.find((t: { name: string }) => t.name === 'multiattach').id as string;
});
// --- C2: tenancy ---
const AUTHZ_PUBLIC_KEY =
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICMeyPifz/ERmTjtWa0gNK5Q3Rt63igmcgKP0AQaWKcR authz@test';
/** A key pair of demo's member (made by the admin for that user). */
async function freshKeypair(): Promise<string> {
  const name = uniqueName('authz-key');
  await w.must(w.actors.admin, 'POST', '/compute/v2.1/os-keypairs', {
    body: { keypair: { name, public_key: AUTHZ_PUBLIC_KEY, user_id: ids().demoUser } },
  });
  return name;
}
const demosKeypair = memo(freshKeypair);

async function freshFlavor(): Promise<string> {
  const res = await w.must(w.actors.admin, 'POST', '/compute/v2.1/flavors', {
    body: { flavor: { name: uniqueName('authz-flavor'), ram: 64, vcpus: 1, disk: 1 } },
  });
  return res.body.flavor.id;
}
async function freshRole(): Promise<string> {
  const res = await w.must(w.actors.admin, 'POST', '/identity/v3/roles', {
    body: { role: { name: uniqueName('authz-role') } },
  });
  return res.body.role.id;
}
async function freshType(specs?: Record<string, string>): Promise<string> {
  const res = await w.must(w.actors.admin, 'POST', `${w.actors.admin.volumeBase}/types`, {
    body: { volume_type: { name: uniqueName('authz-type'), ...(specs ? { extra_specs: specs } : {}) } },
  });
  return res.body.volume_type.id;
}

// --- V1: fixtures of the volume metadata and snapshot rows ---
const demoVolumeMetadata = memo(async () => {
  await w.must(w.actors.member, 'POST', `${w.actors.member.volumeBase}/volumes/${w.demo.plain}/metadata`, {
    body: { metadata: { authz: 'value' } },
  });
});
async function freshSnapshot(): Promise<string> {
  const res = await w.must(w.actors.member, 'POST', `${w.actors.member.volumeBase}/snapshots`, {
    body: {
      snapshot: { volume_id: w.demo.plain, name: uniqueName('authz-snap'), metadata: { authz: 'value' } },
    },
  });
  await tc.settle();
  return res.body.snapshot.id;
}
const demoSnapshot = memo(async () => {
  demoSnapshotId = await freshSnapshot();
  return demoSnapshotId;
});

/** Placeholders in expected messages, filled once the world exists. */
function resolve(want: Expect): Expect {
  if (!want.fault) return want;
  const message = want.fault.message
    .replace('<demo server>', w.demo.server)
    .replace('<demo volume>', w.demo.plain)
    .replace('<demo attachment>', w.demo.attachment)
    .replace('<demo snapshot>', demoSnapshotId ?? '')
    .replace(/<demo (\w+)>/, (all, singular: string) => neutronIds[singular] ?? all)
    // --- cloudv2: Cinder user messages ---
    .replace('<demo message>', demoMessageId ?? '')
    // cloud-qos-transfer: volume transfers
    .replace('<demo transfer>', demoTransferId ?? '')
    // --- cloud-groups: a group and a group snapshot of demo's ---
    .replace('<demo group>', demoGroupId ?? '')
    .replace('<demo group_snapshot>', demoGroupSnapshotId ?? '');
  return { ...want, fault: { ...want.fault, message } };
}

/** Sends a probe as a role and keeps the exchange for the leak check. */
async function send(role: Role, method: string, probe: Probe, token?: string): Promise<HttpResult> {
  const who = role === 'anonymous' ? null : w.actors[role];
  const opts: RequestOptions = {
    ...(probe.body !== undefined ? { body: probe.body } : {}),
    ...(probe.version ? { version: probe.version } : {}),
    headers: { ...probe.headers, ...(token ? { 'X-Auth-Token': token } : {}) },
  };
  const res = await w.call(who, method, probe.path, opts);
  exchanges.push({ role, method, path: probe.path, request: JSON.stringify(opts), res });
  return res;
}

beforeAll(async () => {
  tc = await startCloud();
  w = await buildAuthzWorld(tc);
  // --- C2: tenancy --- the table makes more volumes and servers than the default quotas allow.
  await w.must(
    w.actors.admin,
    'PUT',
    `${w.actors.admin.volumeBase}/os-quota-sets/${w.actors.member.projectId}`,
    {
      body: { quota_set: { volumes: -1, gigabytes: -1 } },
    },
  );
  await w.must(w.actors.admin, 'PUT', `/compute/v2.1/os-quota-sets/${w.actors.member.projectId}`, {
    body: { quota_set: { instances: -1, cores: -1, ram: -1 } },
  });
  const { SEED_IMAGE_ID } = await import('../../src/image/seed.js');
  imageId = SEED_IMAGE_ID;
  // A flavor extra spec to read (the API has no call that sets one).
  await tc.cloud.deps.store.db
    .updateTable('flavors')
    .set({ extra_specs: JSON.stringify({ 'hw:cpu_policy': 'shared' }) })
    .where('id', '=', '42')
    .execute();
}, 120_000);

afterAll(async () => {
  await tc?.close();
});

describe('the authorization table', () => {
  it('has a row for every route the cloud serves, and none for a route it does not', () => {
    const served = servedRoutes(tc.cloud.app);
    const table = rows.map((r) => r.route);
    expect(new Set(table).size, 'one row per route').toBe(table.length);
    expect(
      served.filter((r) => !table.includes(r)),
      'served but missing from the table',
    ).toEqual([]);
    expect(
      table.filter((r) => !served.includes(r)),
      'in the table but not served',
    ).toEqual([]);
  });

  for (const row of rows) {
    it(row.route, async () => {
      const [verb] = row.route.split(' ') as [string];
      const method = verb === 'ALL' ? 'GET' : verb;
      for (const role of ROLES) {
        const probe = await row.probe(w, role);
        const want = resolve(row.expect[role]);
        const res = await send(role, method, probe);
        expectCell(res, want, `${row.route} as ${role}`);
        if (role === 'anonymous' && want.status === 401) {
          // A token Keystone never issued is no better than none.
          const bogus = await send(role, method, probe, 'gAAAAABnot-a-token');
          expectCell(bogus, want, `${row.route} with a bogus token`);
        }
      }
      await tc.settle();
    });
  }
});

describe('a reader-only token', () => {
  const serverActions: [Record<string, unknown>, string][] = [
    [{ 'os-stop': null }, 'os_compute_api:servers:stop'],
    [{ 'os-start': null }, 'os_compute_api:servers:start'],
    [{ reboot: { type: 'SOFT' } }, 'os_compute_api:servers:reboot'],
    [{ shelve: null }, 'os_compute_api:os-shelve:shelve'],
    [{ shelveOffload: null }, 'os_compute_api:os-shelve:shelve_offload'],
    [{ unshelve: null }, 'os_compute_api:os-shelve:unshelve'],
    [{ resize: { flavorRef: '1' } }, 'os_compute_api:servers:resize'],
    [{ confirmResize: null }, 'os_compute_api:servers:confirm_resize'],
    [{ revertResize: null }, 'os_compute_api:servers:revert_resize'],
    // --- C1 ---
    [{ lock: null }, 'os_compute_api:os-lock-server:lock'],
    [{ unlock: null }, 'os_compute_api:os-lock-server:unlock'],
    [{ pause: null }, 'os_compute_api:os-pause-server:pause'],
    [{ unpause: null }, 'os_compute_api:os-pause-server:unpause'],
    [{ suspend: null }, 'os_compute_api:os-suspend-server:suspend'],
    [{ resume: null }, 'os_compute_api:os-suspend-server:resume'],
    // --- end C1 ---
    // --- cloud15: console output ---
    [{ 'os-getConsoleOutput': {} }, 'os_compute_api:os-console-output'],
    // --- end cloud15 ---
    // --- cloudc2: admin actions ---
    [{ 'os-resetState': { state: 'error' } }, 'os_compute_api:os-admin-actions:reset_state'],
    [{ forceDelete: null }, 'os_compute_api:os-deferred-delete:force'],
    [{ restore: null }, 'os_compute_api:os-deferred-delete:restore'],
    [{ changePassword: { adminPass: 'x' } }, 'os_compute_api:os-admin-password'],
    // --- end cloudc2 ---
    // cloud-rebuild: any well-formed image id, the policy refuses before the image is looked at
    [{ rebuild: { imageRef: '8ad7ac80-1c1d-5607-a7c8-f8111ac8399d' } }, 'os_compute_api:servers:rebuild'],
    // --- end cloud-rebuild ---
  ];

  it('is refused every server action, each with its own rule, after the 404 for a server it cannot see', async () => {
    for (const [body, rule] of serverActions) {
      const own = await send('reader', 'POST', {
        path: `/compute/v2.1/servers/${w.demo.server}/action`,
        body,
      });
      expectCell(own, policy(rule), `reader ${Object.keys(body)[0]}`);
      const theirs = await send('reader', 'POST', {
        path: `/compute/v2.1/servers/${w.other.server}/action`,
        body,
      });
      expectCell(
        theirs,
        instanceNotFound(w.other.server),
        `reader ${Object.keys(body)[0]} on another project's server`,
      );
    }
  });

  const volumeActions: [Record<string, unknown>, string][] = [
    [{ 'os-set_bootable': { bootable: true } }, 'volume:update'],
    [{ 'os-update_readonly_flag': { readonly: true } }, 'volume:update_readonly_flag'],
    [{ 'os-retype': { new_type: 'multiattach' } }, 'volume:retype'],
    [{ 'os-reset_status': { status: 'error' } }, 'volume_extension:volume_admin_actions:reset_status'],
    [{ 'os-extend': { new_size: 5 } }, 'volume:extend'],
    [{ 'os-reserve': null }, 'volume_extension:volume_actions:reserve'],
    [{ 'os-unreserve': null }, 'volume_extension:volume_actions:unreserve'],
    [{ 'os-begin_detaching': null }, 'volume_extension:volume_actions:begin_detaching'],
    [{ 'os-roll_detaching': null }, 'volume_extension:volume_actions:roll_detaching'],
    [
      { 'os-attach': { mountpoint: '/dev/vdz', host_name: 'authz-host' } },
      'volume_extension:volume_actions:attach',
    ],
    [{ 'os-detach': {} }, 'volume_extension:volume_actions:detach'],
    [
      { 'os-initialize_connection': { connector: {} } },
      'volume_extension:volume_actions:initialize_connection',
    ],
    [
      { 'os-terminate_connection': { connector: {} } },
      'volume_extension:volume_actions:terminate_connection',
    ],
  ];

  it('is refused every volume action, each with its own rule, after the 404 for a volume it cannot see', async () => {
    const base = w.actors.reader.volumeBase;
    for (const [body, rule] of volumeActions) {
      const name = Object.keys(body)[0];
      const own = await send('reader', 'POST', { path: `${base}/volumes/${w.demo.shared}/action`, body });
      expectCell(own, policy(rule), `reader ${name}`);
      const theirs = await send('reader', 'POST', { path: `${base}/volumes/${w.other.volume}/action`, body });
      expectCell(theirs, volumeNotFound(w.other.volume), `reader ${name} on another project's volume`);
    }
  });

  it('still reads everything its project has', async () => {
    const reader = w.actors.reader;
    const servers = await send('reader', 'GET', { path: '/compute/v2.1/servers' });
    expect(servers.body.servers.map((s: { id: string }) => s.id)).toContain(w.demo.server);
    const volumes = await send('reader', 'GET', { path: `${reader.volumeBase}/volumes` });
    expect(volumes.body.volumes.map((v: { id: string }) => v.id)).toEqual(
      expect.arrayContaining([w.demo.shared, w.demo.plain]),
    );
    const topology = await send('reader', 'GET', { path: '/compute/v2.1/os-emulator-topology' });
    expect(topology.status).toBe(200);
  });
});

describe('another project’s ids in a body or a query', () => {
  /** [label, method, path, body, expected]: demo's member naming the other project's things. */
  const probes = (): [string, string, string, unknown, Expect][] => {
    const m = w.actors.member;
    const them = w.actors.other.projectId;
    return [
      [
        'attach their volume to my server',
        'POST',
        `/compute/v2.1/servers/${w.demo.server}/os-volume_attachments`,
        { volumeAttachment: { volumeId: w.other.volume } },
        volumeNotFound(w.other.volume),
      ],
      [
        'boot from their volume',
        'POST',
        '/compute/v2.1/servers',
        {
          server: {
            name: 'authz-member-bfv',
            flavorRef: '42',
            networks: 'none',
            block_device_mapping_v2: [
              { boot_index: 0, uuid: w.other.volume, source_type: 'volume', destination_type: 'volume' },
            ],
          },
        },
        {
          status: 400,
          fault: {
            key: 'badRequest',
            message: `Block Device Mapping is Invalid: failed to get volume ${w.other.volume}.`,
          },
        },
      ],
      [
        'clone their volume',
        'POST',
        `${m.volumeBase}/volumes`,
        { volume: { name: 'authz-member-clone', source_volid: w.other.volume } },
        volumeNotFound(w.other.volume),
      ],
      [
        'list every project’s servers',
        'GET',
        '/compute/v2.1/servers?all_tenants=1',
        undefined,
        policy('os_compute_api:servers:index:get_all_tenants'),
      ],
      [
        'list every project’s servers in detail',
        'GET',
        '/compute/v2.1/servers/detail?all_tenants=1',
        undefined,
        policy('os_compute_api:servers:detail:get_all_tenants'),
      ],
      [
        'filter servers by their project (ignored)',
        'GET',
        `/compute/v2.1/servers/detail?project_id=${them}`,
        undefined,
        pass(200),
      ],
      [
        'filter servers by their tenant (ignored)',
        'GET',
        `/compute/v2.1/servers/detail?tenant_id=${them}`,
        undefined,
        pass(200),
      ],
      [
        'ask for their server by uuid',
        'GET',
        `/compute/v2.1/servers/detail?uuid=${w.other.server}`,
        undefined,
        pass(200),
      ],
      // Nova looks a marker up with an elevated context (multi_cell_list get_marker_record), so
      // another project's server is a marker like any other; nothing of it is shown.
      [
        'page from their server',
        'GET',
        `/compute/v2.1/servers?marker=${w.other.server}`,
        undefined,
        pass(200),
      ],
      [
        'list every project’s volumes (ignored)',
        'GET',
        `${m.volumeBase}/volumes/detail?all_tenants=1`,
        undefined,
        pass(200),
      ],
      [
        'filter volumes by their project',
        'GET',
        `${m.volumeBase}/volumes?project_id=${them}`,
        undefined,
        {
          status: 400,
          fault: { key: 'badRequest', message: 'Invalid filters project_id are found in query options.' },
        },
      ],
      [
        'page from their volume',
        'GET',
        `${m.volumeBase}/volumes?marker=${w.other.volume}`,
        undefined,
        volumeNotFound(w.other.volume),
      ],
      [
        'summarise every project’s volumes (ignored)',
        'GET',
        `${m.volumeBase}/volumes/summary?all_tenants=1`,
        undefined,
        pass(200),
      ],
      [
        'list every project’s attachments (ignored)',
        'GET',
        `${m.volumeBase}/attachments/detail?all_tenants=1`,
        undefined,
        pass(200),
      ],
      [
        'filter attachments by their volume',
        'GET',
        `${m.volumeBase}/attachments?volume_id=${w.other.volume}`,
        undefined,
        pass(200),
      ],
      [
        'page from their attachment',
        'GET',
        `${m.volumeBase}/attachments?marker=${w.other.attachment}`,
        undefined,
        attachmentNotFound(w.other.attachment),
      ],
      [
        'the whole cloud’s topology',
        'GET',
        '/compute/v2.1/os-emulator-topology?all_tenants=1',
        undefined,
        policy('os_compute_api:os-emulator-topology:all_tenants'),
      ],
      [
        'their project’s topology (ignored)',
        'GET',
        `/compute/v2.1/os-emulator-topology?project_id=${them}`,
        undefined,
        pass(200),
      ],
      [
        'their server’s topology',
        'GET',
        `/compute/v2.1/os-emulator-topology?server_id=${w.other.server}`,
        undefined,
        pass(200),
      ],
      [
        'their volume’s topology',
        'GET',
        `/compute/v2.1/os-emulator-topology?volume_id=${w.other.volume}`,
        undefined,
        pass(200),
      ],
    ];
  };

  it('finds nothing of theirs: 404, 400, a policy 403, or a list of one’s own (checked for leaks below)', async () => {
    for (const [label, method, path, body, want] of probes()) {
      const res = await send('member', method, { path, ...(body !== undefined ? { body } : {}) });
      expectCell(res, want, label);
    }
    await tc.settle();
  });
});

describe('the admin', () => {
  it('sees every project’s servers, volumes and attachments in the all_tenants lists', async () => {
    const base = w.actors.admin.volumeBase;
    const ids = async (path: string, key: string) =>
      ((await send('admin', 'GET', { path })).body[key] as { id: string }[]).map((x) => x.id);
    expect(await ids('/compute/v2.1/servers/detail?all_tenants=1', 'servers')).toEqual(
      expect.arrayContaining([w.demo.server, w.other.server, w.admin.server]),
    );
    expect(await ids(`${base}/volumes/detail?all_tenants=1`, 'volumes')).toEqual(
      expect.arrayContaining([w.demo.plain, w.other.volume, w.admin.volume]),
    );
    expect(await ids(`${base}/attachments?all_tenants=1`, 'attachments')).toEqual(
      expect.arrayContaining([w.demo.attachment, w.other.attachment]),
    );
    // …and only its own project's without it, as Nova and Cinder do.
    expect(await ids('/compute/v2.1/servers', 'servers')).not.toContain(w.demo.server);
    expect(await ids(`${base}/volumes`, 'volumes')).not.toContain(w.demo.plain);
  });
});

describe('a Cinder URL naming a project that is not the token’s', () => {
  it('is a malformed URL whoever asks, the admin included, before anything is looked up', async () => {
    const volumeRows = rows.filter((r) => r.route.includes(' /volume/v3/:projectId/'));
    expect(volumeRows.length).toBeGreaterThan(20);
    const foreign: Record<SignedInRole, string> = {
      reader: w.actors.other.projectId,
      member: w.actors.other.projectId,
      other: w.actors.member.projectId,
      admin: w.actors.member.projectId,
    };
    for (const row of volumeRows) {
      const method = row.route.split(' ')[0] as string;
      for (const role of ['reader', 'member', 'other', 'admin'] as const) {
        const probe = await row.probe(w, role);
        const path = probe.path.replace(w.actors[role].volumeBase, `/volume/v3/${foreign[role]}`);
        expect(path).not.toBe(probe.path);
        expectCell(await send(role, method, { ...probe, path }), MALFORMED_URL, `${row.route} as ${role}`);
      }
    }
  });
});

describe('what the refused calls left behind', () => {
  it('nothing: demo’s server, volumes and attachment are as they were', async () => {
    await tc.settle();
    const member = w.actors.member;
    const server = await w.must(member, 'GET', `/compute/v2.1/servers/${w.demo.server}`);
    expect(server.body.server.status).toBe('ACTIVE');
    const shared = await w.must(member, 'GET', `${member.volumeBase}/volumes/${w.demo.shared}`);
    expect(shared.body.volume.status).toBe('in-use');
    expect(shared.body.volume.size).toBe(1);
    expect(shared.body.volume.attachments.map((a: { attachment_id: string }) => a.attachment_id)).toContain(
      w.demo.attachment,
    );
    const plain = await w.must(member, 'GET', `${member.volumeBase}/volumes/${w.demo.plain}`);
    expect(plain.body.volume).toMatchObject({ status: 'available', size: 1, bootable: 'false' });
    // Only the members' and the admin's descriptions ever landed.
    expect(['changed by member', 'changed by admin']).toContain(plain.body.volume.description);
    const grants = await w.must(
      w.actors.admin,
      'GET',
      `/identity/v3/role_assignments?user.id=${w.actors.reader.userId}`,
    );
    expect(grants.body.role_assignments.map((a: { role: { id: string } }) => a.role.id)).toEqual([
      w.roleIds.reader,
    ]);
    const flavor = await w.must(member, 'GET', '/compute/v2.1/flavors/42');
    expect(flavor.body.flavor.description ?? null).toBeNull();
  });
});

/**
 * Where OpenStack itself shows a project something of another's: the volume owner sees the servers
 * its volume is attached to (Cinder's volume `attachments` and `/attachments` list every one of the
 * volume's attachments), and a server's owner sees the volumes attached to it and their Cinder
 * attachment ids (Nova's `volumes_attached` and `os-volume_attachments`). The topology extension
 * shows each side what those calls show it (docs/cloud-extensions.md).
 */
function crossProjectAllowances(w: AuthzWorld): Allowance[] {
  const cinderViews = /^\/volume\/v3\/[^/]+\/(volumes|attachments)(\/|\?|$)/;
  const novaViews = /^\/compute\/v2\.1\/(servers|os-emulator-topology)(\/|\?|$)/;
  const topology = /^\/compute\/v2\.1\/os-emulator-topology(\?|$)/;
  return [
    ...(['reader', 'member'] as const).flatMap((role) => [
      { role, value: w.cross.server, path: cinderViews, why: 'Cinder lists every attachment of a volume' },
      {
        role,
        value: w.cross.server,
        path: topology,
        why: 'a volume’s writers, whoever’s (multiple_writers)',
      },
    ]),
    // --- C1 ---
    ...(['reader', 'member'] as const).flatMap((role) =>
      [w.actors.admin.userId, w.actors.admin.projectId].map((value) => ({
        role,
        value,
        path: /^\/compute\/v2\.1\/servers\/[^/]+\/os-instance-actions(\/|\?|$)/,
        why: 'an instance action names whoever acted on the server (user_id, project_id)',
      })),
    ),
    // --- end C1 ---
    { role: 'other', value: w.cross.volume, path: novaViews, why: 'Nova lists a server’s volumes' },
    {
      role: 'other',
      value: w.cross.attachment,
      path: novaViews,
      why: 'Nova shows the Cinder attachment id (2.89)',
    },
    // --- cloud-proxy-hosts ---
    ...(['reader', 'member'] as const).map((role) => ({
      role,
      value: w.cross.server,
      path: /^\/compute\/v2\.1\/os-volumes(\/|\?|$)/,
      why: 'Nova’s os-volumes proxy shows what Cinder shows: every server the volume is attached to',
    })),
    // --- end cloud-proxy-hosts ---
  ];
}

describe('what each caller sees of the others', () => {
  it('shows each side of a cross-project attachment what OpenStack shows it, and no more', async () => {
    const { member, other } = w.actors;
    const volume = await send('member', 'GET', { path: `${member.volumeBase}/volumes/${w.cross.volume}` });
    expect(volume.body.volume.attachments.map((a: { server_id: string }) => a.server_id)).toContain(
      w.cross.server,
    );
    // The owner of the volume still cannot look at the server itself.
    expectCell(
      await send('member', 'GET', { path: `/compute/v2.1/servers/${w.cross.server}` }),
      instanceNotFound(w.cross.server),
      'member GET the other project’s server',
    );
    const server = await send('other', 'GET', { path: `/compute/v2.1/servers/${w.cross.server}` });
    expect(
      server.body.server['os-extended-volumes:volumes_attached'].map((v: { id: string }) => v.id),
    ).toContain(w.cross.volume);
    const held = await send('other', 'GET', {
      path: `/compute/v2.1/servers/${w.cross.server}/os-volume_attachments`,
    });
    expect(held.body.volumeAttachments).toContainEqual(
      expect.objectContaining({ volumeId: w.cross.volume, attachment_id: w.cross.attachment }),
    );
    // …nor the volume, nor its attachment through Cinder.
    expectCell(
      await send('other', 'GET', { path: `${other.volumeBase}/volumes/${w.cross.volume}` }),
      volumeNotFound(w.cross.volume),
      'other GET demo’s volume',
    );
    expectCell(
      await send('other', 'GET', { path: `${other.volumeBase}/attachments/${w.cross.attachment}` }),
      attachmentNotFound(w.cross.attachment),
      'other GET the attachment of demo’s volume',
    );
  });

  it('no response to demo’s reader or member, or to the other project’s member, names or ids what is not theirs', async () => {
    const secrets = await secretsOf(w);
    const leaks = leaksIn(exchanges, secrets, w, crossProjectAllowances(w));
    expect(leaks).toEqual([]);
    // The check looked at something: every role's column went through it.
    for (const role of ['reader', 'member', 'other'] as const) {
      expect(exchanges.filter((e) => e.role === role).length).toBeGreaterThan(80);
    }
  });
});

// --- cloud15: server groups ---
/** A server group of demo's member, made for one row. */
async function freshServerGroup(): Promise<string> {
  const res = await w.must(w.actors.member, 'POST', '/compute/v2.1/os-server-groups', {
    body: { server_group: { name: uniqueName('authz-sg'), policy: 'affinity' } },
  });
  return res.body.server_group.id;
}
const demosServerGroup = memo(freshServerGroup);
// --- end cloud15 ---

// --- cloudv2: Cinder user messages ---
/** A user message of demo's: the scheduler's about a member's volume of a type no backend takes. */
let demoMessageId: string | undefined;
async function freshMessage(): Promise<string> {
  const typeId = await freshType({ storage_protocol: 'authz-nosuch' });
  const created = await w.must(w.actors.member, 'POST', `${w.actors.member.volumeBase}/volumes`, {
    body: { volume: { size: 1, volume_type: typeId } },
  });
  await tc.settle();
  const listed = await w.must(w.actors.member, 'GET', `${w.actors.member.volumeBase}/messages`, {
    version: 'volume 3.3',
  });
  const volumeId = created.body.volume.id as string;
  return (listed.body.messages as { id: string; resource_uuid: string }[]).find(
    (m) => m.resource_uuid === volumeId,
  )!.id;
}
const demoMessage = memo(async () => {
  demoMessageId = await freshMessage();
  return demoMessageId;
});

// --- cloudv2: volume type encryption ---
async function freshEncryptedType(): Promise<string> {
  const typeId = await freshType();
  await w.must(w.actors.admin, 'POST', `${w.actors.admin.volumeBase}/types/${typeId}/encryption`, {
    body: { encryption: { provider: 'luks', control_location: 'front-end' } },
  });
  return typeId;
}
const encryptedType = memo(freshEncryptedType);

// --- cloud-proxy-hosts: the proxy APIs end at 2.35 ---
const PROXY_VERSION = 'compute 2.35';
/** os-hosts' last microversion. */
const HOSTS_VERSION = 'compute 2.42';
/** An aggregate without a zone, made by the admin for one row. */
async function freshAggregate(): Promise<number> {
  const res = await w.must(w.actors.admin, 'POST', '/compute/v2.1/os-aggregates', {
    body: { aggregate: { name: uniqueName('authz-agg') } },
  });
  return res.body.aggregate.id as number;
}
const anAggregate = memo(freshAggregate);
// --- end cloud-proxy-hosts ---
// cloud-qos-transfer: QoS spec sets and demo's volume transfers
async function freshQos(): Promise<string> {
  const res = await w.must(w.actors.admin, 'POST', `${w.actors.admin.volumeBase}/qos-specs`, {
    body: { qos_specs: { name: uniqueName('authz-qos'), read_iops_sec: '100' } },
  });
  return res.body.qos_specs.id as string;
}
const sharedQos = memo(freshQos);
/** A transfer of a fresh volume of demo's, with its key. */
let demoTransferId: string | undefined;
async function freshTransfer(): Promise<{ id: string; key: string }> {
  const volumeId = await w.freshVolume('member');
  const res = await w.must(w.actors.member, 'POST', `${w.actors.member.volumeBase}/os-volume-transfer`, {
    body: { transfer: { volume_id: volumeId } },
  });
  return { id: res.body.transfer.id as string, key: res.body.transfer.auth_key as string };
}
const demoTransfer = memo(async () => {
  const t = await freshTransfer();
  demoTransferId = t.id;
  return t;
});
// --- end cloud-qos-transfer ---
// cloud-qos-transfer: a service, an endpoint and a region of the admin's, for the catalog rows
async function freshCatalogService(): Promise<string> {
  const res = await w.must(w.actors.admin, 'POST', '/identity/v3/services', {
    body: { service: { type: uniqueName('authz-type') } },
  });
  return res.body.service.id as string;
}
async function freshCatalogEndpoint(): Promise<string> {
  const res = await w.must(w.actors.admin, 'POST', '/identity/v3/endpoints', {
    body: {
      endpoint: { service_id: await freshCatalogService(), interface: 'admin', url: 'http://authz.example/' },
    },
  });
  return res.body.endpoint.id as string;
}
async function freshRegion(): Promise<string> {
  const res = await w.must(w.actors.admin, 'POST', '/identity/v3/regions', {
    body: { region: { id: uniqueName('authz-region') } },
  });
  return res.body.region.id as string;
}
// --- end cloud-qos-transfer ---
// --- cloud-groups: fixtures of the volume group rows ---
/** A public group type with the spec `authz:key`, and a public volume type for groups. */
async function freshGroupType(): Promise<string> {
  const res = await w.must(w.actors.admin, 'POST', `${w.actors.admin.volumeBase}/group_types`, {
    body: { group_type: { name: uniqueName('authz-gt'), group_specs: { 'authz:key': 'v' } } },
  });
  return res.body.group_type.id;
}
const sharedGroupType = memo(freshGroupType);
const groupVolumeType = memo(() => freshType());
/** A group of demo's (one volume in it), available; demo's group quota is lifted first. */
let demoGroupId: string | undefined;
const liftGroupQuota = memo(async () => {
  await w.must(
    w.actors.admin,
    'PUT',
    `${w.actors.admin.volumeBase}/os-quota-sets/${w.actors.member.projectId}`,
    {
      body: { quota_set: { groups: -1, snapshots: -1 } },
    },
  );
});
async function freshGroup(): Promise<string> {
  await liftGroupQuota();
  const volumeType = await groupVolumeType();
  const res = await w.must(w.actors.member, 'POST', `${w.actors.member.volumeBase}/groups`, {
    body: {
      group: {
        name: uniqueName('authz-group'),
        group_type: await sharedGroupType(),
        volume_types: [volumeType],
      },
    },
  });
  await tc.settle();
  await w.must(w.actors.member, 'POST', `${w.actors.member.volumeBase}/volumes`, {
    body: { volume: { size: 1, volume_type: volumeType, group_id: res.body.group.id } },
  });
  await tc.settle();
  return res.body.group.id;
}
const demoGroup = memo(async () => {
  demoGroupId = await freshGroup();
  return demoGroupId;
});
/** A group snapshot of demo's group, available. */
let demoGroupSnapshotId: string | undefined;
async function freshGroupSnapshot(): Promise<string> {
  const res = await w.must(w.actors.member, 'POST', `${w.actors.member.volumeBase}/group_snapshots`, {
    body: { group_snapshot: { group_id: await demoGroup() } },
  });
  await tc.settle();
  return res.body.group_snapshot.id;
}
const demoGroupSnapshot = memo(async () => {
  demoGroupSnapshotId = await freshGroupSnapshot();
  return demoGroupSnapshotId;
});
// --- end cloud-groups ---
