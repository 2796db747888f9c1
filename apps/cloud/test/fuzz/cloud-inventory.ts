import type { CloudFixtures, IdKind } from './cloud-fixtures.js';

/**
 * Every endpoint of the bundled cloud, as `METHOD /path` in Express syntax from the app root, with
 * a valid body for each one that takes a body. `cloud.fuzz.test.ts` fails while the app serves a
 * route this list lacks (or the other way round), so a new route cannot escape the fuzz: add it
 * here with a valid body.
 */

export type Service = 'identity' | 'compute' | 'volume' | 'image' | 'network';
export type Role = 'admin' | 'member';

export interface BodyContext {
  fx: CloudFixtures;
  role: Role;
  /** A number from the fuzz, to make names unique and pick among alternatives. */
  n: number;
}

export interface Endpoint {
  /** `GET /compute/v2.1/servers/:id` (`ALL` for a route that answers every method). */
  key: string;
  method: string;
  path: string;
  service: Service;
  /** A body the endpoint accepts (one of several, chosen by `n`). */
  body?: (c: BodyContext) => unknown;
  /** Extra headers a valid call sends (Keystone's X-Subject-Token). */
  headers?: (c: BodyContext) => Record<string, string>;
  /** The microversion a valid call is made at. */
  version?: string;
}

const COMPUTE = 'compute 2.105';
// cloud-proxy-hosts: the last microversion of Nova's proxy APIs.
const PROXY = 'compute 2.35';
const HOSTS = 'compute 2.42';
const VOLUME = 'volume 3.71';

const pick = <T>(n: number, xs: readonly T[]): T => xs[Math.abs(n) % xs.length]!;
const serversOf = (c: BodyContext) => (c.role === 'admin' ? c.fx.adminServers : c.fx.memberServers);
const volumesOf = (c: BodyContext) =>
  c.role === 'admin'
    ? [c.fx.adminVolume]
    : [c.fx.memberVolumes.multiattach, c.fx.memberVolumes.plain, c.fx.memberVolumes.spare];
const connector = (host = 'compute-1') => ({
  initiator: `iqn.1993-08.org.debian:01:${host}`,
  host,
  ip: '192.0.2.10',
  platform: 'x86_64',
  os_type: 'linux2',
  multipath: false,
});

const subjectToken = (c: BodyContext, method: 'read' | 'revoke') =>
  // Never our own tokens on a DELETE: revoking them would end the fuzz's sessions.
  method === 'revoke'
    ? c.fx.throwawayToken
    : pick(c.n, [c.fx.throwawayToken, c.role === 'admin' ? c.fx.admin.token : c.fx.member.token]);

const E = (key: string, rest: Omit<Endpoint, 'key' | 'method' | 'path' | 'service'> = {}): Endpoint => {
  const [method, path] = key.split(' ') as [string, string];
  const service = path.split('/')[1] as Service;
  return { key, method, path, service, ...rest };
};

export const cloudEndpoints: Endpoint[] = [
  // --- Identity ---------------------------------------------------------------------------------
  E('GET /identity/'),
  E('GET /identity/v3'),
  E('POST /identity/v3/auth/tokens', {
    body: ({ fx, n }) => ({
      auth: {
        identity: {
          methods: ['password'],
          password: {
            user: pick(n, [
              { name: fx.fuzzUser.name, domain: { id: 'default' }, password: fx.fuzzUser.password },
              { id: fx.fuzzUser.id, password: fx.fuzzUser.password },
            ]),
          },
        },
        scope: pick(n, [
          { project: { name: fx.fuzzUser.projectName, domain: { name: 'Default' } } },
          { project: { id: fx.fuzzUser.projectId } },
        ]),
      },
    }),
  }),
  E('GET /identity/v3/auth/tokens', { headers: (c) => ({ 'X-Subject-Token': subjectToken(c, 'read') }) }),
  E('DELETE /identity/v3/auth/tokens', {
    headers: (c) => ({ 'X-Subject-Token': subjectToken(c, 'revoke') }),
  }),
  E('GET /identity/v3/auth/projects'),
  E('GET /identity/v3/auth/catalog'),
  E('GET /identity/v3/domains'),
  E('GET /identity/v3/domains/:domainId'),
  E('GET /identity/v3/projects'),
  E('POST /identity/v3/projects', {
    body: ({ n }) => ({
      project: {
        name: `fz-project-${n}`,
        domain_id: 'default',
        description: 'fuzz',
        enabled: true,
        tags: ['a'],
      },
    }),
  }),
  E('GET /identity/v3/projects/:projectId'),
  E('PATCH /identity/v3/projects/:projectId', {
    body: ({ n }) => ({
      project: pick(n, [{ description: `d${n}` }, { enabled: true }, { tags: ['x', 'y'] }]),
    }),
  }),
  E('DELETE /identity/v3/projects/:projectId'),
  E('GET /identity/v3/projects/:projectId/users/:userId/roles'),
  E('GET /identity/v3/projects/:projectId/users/:userId/roles/:roleId'),
  E('PUT /identity/v3/projects/:projectId/users/:userId/roles/:roleId'),
  E('DELETE /identity/v3/projects/:projectId/users/:userId/roles/:roleId'),
  E('GET /identity/v3/role_assignments'),
  E('GET /identity/v3/roles'),
  E('POST /identity/v3/roles', {
    body: ({ n }) => ({ role: { name: `fz-role-${n}`, description: 'fuzz' } }),
  }),
  E('GET /identity/v3/roles/:roleId'),
  E('PATCH /identity/v3/roles/:roleId', { body: ({ n }) => ({ role: { description: `d${n}` } }) }),
  E('DELETE /identity/v3/roles/:roleId'),
  E('GET /identity/v3/users'),
  E('POST /identity/v3/users', {
    body: ({ fx, n }) => ({
      user: {
        name: `fz-user-${n}`,
        domain_id: 'default',
        password: 'secret',
        default_project_id: fx.fuzzUser.projectId,
        email: 'fz@example.org',
        enabled: true,
      },
    }),
  }),
  E('GET /identity/v3/users/:userId'),
  E('PATCH /identity/v3/users/:userId', {
    body: ({ n }) => ({
      user: pick(n, [{ description: `d${n}` }, { email: `e${n}@example.org` }, { enabled: true }]),
    }),
  }),
  E('DELETE /identity/v3/users/:userId'),
  E('POST /identity/v3/users/:userId/password', {
    // The same password again, so the fuzz user can still sign in afterwards.
    body: ({ fx }) => ({ user: { original_password: fx.fuzzUser.password, password: fx.fuzzUser.password } }),
  }),
  E('GET /identity/v3/users/:userId/projects'),

  // --- Compute ----------------------------------------------------------------------------------
  E('ALL /compute/'),
  E('GET /compute/v2.1'),
  E('GET /compute/v2.1/'),
  E('GET /compute/v2.1/flavors'),
  E('GET /compute/v2.1/flavors/detail'),
  E('POST /compute/v2.1/flavors', {
    version: COMPUTE,
    body: ({ n }) => ({
      flavor: {
        name: `fz-flavor-${n}`,
        ram: 512,
        vcpus: 1,
        disk: 1,
        'OS-FLV-EXT-DATA:ephemeral': 0,
        swap: 0,
      },
    }),
  }),
  E('GET /compute/v2.1/flavors/:id'),
  E('PUT /compute/v2.1/flavors/:id', {
    version: COMPUTE,
    body: ({ n }) => ({ flavor: { description: `d${n}` } }),
  }),
  E('DELETE /compute/v2.1/flavors/:id'),
  E('GET /compute/v2.1/flavors/:id/os-extra_specs'),
  E('GET /compute/v2.1/flavors/:id/os-extra_specs/:key'),
  E('GET /compute/v2.1/os-availability-zone'),
  E('GET /compute/v2.1/os-availability-zone/detail'),
  E('GET /compute/v2.1/os-services'),
  E('PUT /compute/v2.1/os-services/:id', {
    version: COMPUTE,
    body: ({ n }) =>
      pick(n, [
        { status: 'disabled', disabled_reason: 'fuzz' },
        { status: 'enabled' },
        { forced_down: false },
      ]),
  }),
  E('DELETE /compute/v2.1/os-services/:id'),
  E('GET /compute/v2.1/os-hypervisors'),
  E('GET /compute/v2.1/os-hypervisors/detail'),
  E('GET /compute/v2.1/os-hypervisors/statistics'),
  E('GET /compute/v2.1/os-hypervisors/:id'),
  E('GET /compute/v2.1/os-hypervisors/:id/uptime'),
  E('GET /compute/v2.1/os-hypervisors/:pattern/search'),
  E('GET /compute/v2.1/os-hypervisors/:pattern/servers'),
  E('GET /compute/v2.1/os-emulator-hosts'),
  E('GET /compute/v2.1/os-emulator-topology'),
  E('GET /compute/v2.1/servers'),
  E('GET /compute/v2.1/servers/detail'),
  E('POST /compute/v2.1/servers', {
    version: COMPUTE,
    body: (c) => {
      const base = { name: `fz-server-${c.n}`, flavorRef: '1', networks: 'none' };
      return {
        server: pick(c.n, [
          { ...base, imageRef: c.fx.imageId },
          { ...base, imageRef: c.fx.imageId, min_count: 2, max_count: 2, return_reservation_id: true },
          {
            ...base,
            imageRef: c.fx.imageId,
            availability_zone: 'nova',
            metadata: { k: 'v' },
            block_device_mapping_v2: [
              { boot_index: 0, uuid: c.fx.imageId, source_type: 'image', destination_type: 'local' },
              {
                boot_index: -1,
                uuid: c.role === 'admin' ? c.fx.adminVolume : c.fx.memberVolumes.spare,
                source_type: 'volume',
                destination_type: 'volume',
                attach_mode: 'ro',
              },
            ],
          },
          {
            ...base,
            block_device_mapping_v2: [
              {
                boot_index: 0,
                uuid: c.fx.imageId,
                source_type: 'image',
                destination_type: 'volume',
                volume_size: 1,
                delete_on_termination: true,
              },
            ],
          },
        ]),
      };
    },
  }),
  E('GET /compute/v2.1/servers/:id'),
  E('DELETE /compute/v2.1/servers/:id'),
  E('POST /compute/v2.1/servers/:id/action', {
    version: COMPUTE,
    body: ({ n }) =>
      pick(n, [
        { 'os-stop': null },
        { 'os-start': null },
        { reboot: { type: 'SOFT' } },
        { reboot: { type: 'HARD' } },
        { shelve: null },
        { shelveOffload: null },
        { unshelve: null },
        { unshelve: { availability_zone: 'nova' } },
        { resize: { flavorRef: '2' } },
        { confirmResize: null },
        { revertResize: null },
        // --- C1 ---
        { lock: null },
        { lock: { locked_reason: 'fz' } },
        { unlock: null },
        { pause: null },
        { unpause: null },
        { suspend: null },
        { resume: null },
        // --- end C1 ---
        // --- cloudc2: admin actions ---
        { 'os-resetState': { state: 'error' } },
        { 'os-resetState': { state: 'active' } },
        { restore: null },
        { forceDelete: null },
        { changePassword: { adminPass: 'fz' } },
        // --- end cloudc2 ---
        // --- cloud-rescue: rescue, unrescue, cold migrate ---
        { rescue: null },
        { rescue: { adminPass: 'fz' } },
        { unrescue: null },
        { migrate: null },
        { migrate: { host: 'compute-2' } },
        // --- end cloud-rescue ---
        // cloud-rebuild: the seeded image, plain and with what each microversion adds
        { rebuild: { imageRef: '8ad7ac80-1c1d-5607-a7c8-f8111ac8399d' } },
        {
          rebuild: {
            imageRef: '8ad7ac80-1c1d-5607-a7c8-f8111ac8399d',
            name: 'fz-rebuilt',
            metadata: { fz: '1' },
            description: 'fz',
            user_data: 'ZnoK',
            hostname: 'fz-host',
            preserve_ephemeral: true,
          },
        },
        { rebuild: { imageRef: '8ad7ac80-1c1d-5607-a7c8-f8111ac8399d', trusted_image_certificates: ['fz'] } },
        // --- end cloud-rebuild ---
      ]),
  }),
  E('GET /compute/v2.1/servers/:serverId/os-emulator-domain-xml'),
  E('GET /compute/v2.1/servers/:serverId/os-volume_attachments'),
  E('POST /compute/v2.1/servers/:serverId/os-volume_attachments', {
    version: COMPUTE,
    body: (c) => ({
      volumeAttachment: {
        volumeId: pick(c.n, volumesOf(c)),
        ...pick(c.n >> 2, [
          {},
          { attach_mode: 'ro' },
          { attach_mode: 'rw', delete_on_termination: false },
          { tag: 't' },
        ]),
      },
    }),
  }),
  E('GET /compute/v2.1/servers/:serverId/os-volume_attachments/:volumeId'),
  E('PUT /compute/v2.1/servers/:serverId/os-volume_attachments/:volumeId', {
    version: COMPUTE,
    body: (c) => ({
      volumeAttachment: pick(c.n, [
        { volumeId: c.fx.memberVolumes.multiattach, delete_on_termination: true },
        { volumeId: pick(c.n >> 1, volumesOf(c)) },
      ]),
    }),
  }),
  E('DELETE /compute/v2.1/servers/:serverId/os-volume_attachments/:volumeId'),

  // --- Volume -----------------------------------------------------------------------------------
  E('GET /volume/'),
  E('GET /volume/v3/'),
  E('GET /volume/v3/:projectId/volumes'),
  E('GET /volume/v3/:projectId/volumes/detail'),
  E('GET /volume/v3/:projectId/volumes/summary'),
  E('POST /volume/v3/:projectId/volumes', {
    version: VOLUME,
    body: ({ n }) => ({
      volume: pick(n, [
        { size: 1, name: `fz-volume-${n}` },
        {
          size: 1,
          name: `fz-volume-${n}`,
          volume_type: 'multiattach',
          metadata: { k: 'v' },
          description: 'd',
        },
        { size: 2, display_name: `fz-${n}`, availability_zone: 'nova', multiattach: 'false' },
      ]),
    }),
  }),
  E('GET /volume/v3/:projectId/volumes/:volumeId'),
  E('PUT /volume/v3/:projectId/volumes/:volumeId', {
    version: VOLUME,
    body: ({ n }) => ({
      volume: pick(n, [{ name: `r${n}` }, { description: 'd' }, { metadata: { a: 'b' } }]),
    }),
  }),
  E('DELETE /volume/v3/:projectId/volumes/:volumeId'),
  E('POST /volume/v3/:projectId/volumes/:volumeId/action', {
    version: VOLUME,
    body: (c) =>
      pick(c.n, [
        { 'os-set_bootable': { bootable: true } },
        { 'os-update_readonly_flag': { readonly: false } },
        { 'os-extend': { new_size: 3 } },
        { 'os-reset_status': { status: 'available' } },
        { 'os-retype': { new_type: 'multiattach' } },
        { 'os-reserve': null },
        { 'os-unreserve': null },
        { 'os-begin_detaching': null },
        { 'os-roll_detaching': null },
        { 'os-attach': { instance_uuid: pick(c.n >> 4, serversOf(c)), mountpoint: '/dev/vdc', mode: 'rw' } },
        { 'os-detach': { attachment_id: pick(c.n >> 4, c.fx.ids.attachment.concat(['x'])) } },
        { 'os-initialize_connection': { connector: connector() } },
        { 'os-terminate_connection': { connector: connector() } },
      ]),
  }),
  E('GET /volume/v3/:projectId/attachments'),
  E('GET /volume/v3/:projectId/attachments/detail'),
  E('POST /volume/v3/:projectId/attachments', {
    version: VOLUME,
    body: (c) => ({
      attachment: {
        volume_uuid: pick(c.n, volumesOf(c)),
        instance_uuid: pick(c.n >> 2, serversOf(c)),
        ...pick(c.n >> 3, [{}, { connector: connector() }, { connector: null, mode: 'ro' }]),
      },
    }),
  }),
  E('GET /volume/v3/:projectId/attachments/:attachmentId'),
  E('PUT /volume/v3/:projectId/attachments/:attachmentId', {
    version: VOLUME,
    body: () => ({ attachment: { connector: connector() } }),
  }),
  E('DELETE /volume/v3/:projectId/attachments/:attachmentId'),
  E('POST /volume/v3/:projectId/attachments/:attachmentId/action', {
    version: VOLUME,
    body: () => ({ 'os-complete': null }),
  }),
  E('GET /volume/v3/:projectId/types'),
  E('POST /volume/v3/:projectId/types', {
    version: VOLUME,
    body: ({ n }) => ({
      volume_type: {
        name: `fz-type-${n}`,
        description: 'd',
        extra_specs: { k: 'v' },
        'os-volume-type-access:is_public': true,
      },
    }),
  }),
  E('GET /volume/v3/:projectId/types/:typeId'),
  E('PUT /volume/v3/:projectId/types/:typeId', {
    version: VOLUME,
    body: ({ n }) => ({
      volume_type: pick(n, [{ description: `d${n}` }, { name: `fz-renamed-${n}` }, { is_public: true }]),
    }),
  }),
  E('DELETE /volume/v3/:projectId/types/:typeId'),
  E('GET /volume/v3/:projectId/types/:typeId/extra_specs'),
  E('POST /volume/v3/:projectId/types/:typeId/extra_specs', {
    version: VOLUME,
    body: ({ n }) => ({ extra_specs: { [`k${n % 5}`]: 'v' } }),
  }),
  E('GET /volume/v3/:projectId/types/:typeId/extra_specs/:key'),
  E('PUT /volume/v3/:projectId/types/:typeId/extra_specs/:key', {
    version: VOLUME,
    // The key must match the path's: the fuzz puts `fuzz_key` there as often as anything.
    body: ({ n }) => ({ fuzz_key: `v${n}` }),
  }),
  E('DELETE /volume/v3/:projectId/types/:typeId/extra_specs/:key'),
  E('GET /volume/v3/:projectId/scheduler-stats/get_pools'),

  // --- Image ------------------------------------------------------------------------------------
  E('GET /image/versions'),
  E('GET /image/v2/images'),
  E('GET /image/v2/images/:id'),

  // --- N: network ---------------------------------------------------------------------------------
  E('GET /compute/v2.1/servers/:id/ips'),
  E('GET /compute/v2.1/servers/:id/ips/:network'),
  E('GET /compute/v2.1/servers/:id/os-interface'),
  E('GET /compute/v2.1/servers/:id/os-interface/:portId'),
  E('GET /network/'),
  E('GET /network/v2.0/'),
  E('GET /network/v2.0/extensions'),
  E('GET /network/v2.0/extensions/:alias'),
  E('GET /network/v2.0/networks'),
  E('POST /network/v2.0/networks', { body: ({ n }) => ({ network: { name: `fuzz-net-${n}` } }) }),
  E('GET /network/v2.0/networks/:id'),
  E('PUT /network/v2.0/networks/:id', { body: ({ n }) => ({ network: { description: `d${n}` } }) }),
  E('DELETE /network/v2.0/networks/:id'),
  E('GET /network/v2.0/subnets'),
  E('POST /network/v2.0/subnets', {
    body: ({ fx, role, n }) => ({
      subnet: {
        network_id: role === 'admin' ? fx.network.adminNetwork : fx.network.memberNetwork,
        ip_version: 4,
        cidr: `172.${16 + (n % 16)}.${n % 250}.0/28`,
      },
    }),
  }),
  E('GET /network/v2.0/subnets/:id'),
  E('PUT /network/v2.0/subnets/:id', { body: ({ n }) => ({ subnet: { name: `fuzz-subnet-${n}` } }) }),
  E('DELETE /network/v2.0/subnets/:id'),
  E('GET /network/v2.0/ports'),
  E('POST /network/v2.0/ports', {
    body: ({ fx, role, n }) => ({
      port: {
        network_id: role === 'admin' ? fx.network.adminNetwork : fx.network.memberNetwork,
        name: `fuzz-port-${n}`,
      },
    }),
  }),
  E('GET /network/v2.0/ports/:id'),
  E('PUT /network/v2.0/ports/:id', { body: ({ n }) => ({ port: { name: `p${n}` } }) }),
  E('DELETE /network/v2.0/ports/:id'),
  E('GET /network/v2.0/security-groups'),
  E('POST /network/v2.0/security-groups', {
    body: ({ n }) => ({ security_group: { name: `fuzz-sg-${n}`, description: 'fuzz' } }),
  }),
  E('GET /network/v2.0/security-groups/:id'),
  E('PUT /network/v2.0/security-groups/:id', {
    body: ({ n }) => ({ security_group: { description: `d${n}` } }),
  }),
  E('DELETE /network/v2.0/security-groups/:id'),
  E('GET /network/v2.0/security-group-rules'),
  E('POST /network/v2.0/security-group-rules', {
    body: ({ fx, role, n }) => ({
      security_group_rule: {
        security_group_id: role === 'admin' ? fx.network.adminGroup : fx.network.memberGroup,
        direction: 'ingress',
        protocol: 'tcp',
        port_range_min: 1 + (n % 60000),
        port_range_max: 1 + (n % 60000),
      },
    }),
  }),
  E('GET /network/v2.0/security-group-rules/:id'),
  E('PUT /network/v2.0/security-group-rules/:id', {
    body: ({ n }) => ({ security_group_rule: { description: `d${n}` } }),
  }),
  E('DELETE /network/v2.0/security-group-rules/:id'),
  E('GET /network/v2.0/quotas/:projectId'),
  E('GET /network/v2.0/quotas/:projectId/default'),
  // --- C1: the server's own API (issue 14) ---
  E('ALL /compute/v2'),
  E('ALL /compute/v2/'),
  E('PUT /compute/v2.1/servers/:id', {
    version: COMPUTE,
    body: ({ n }) => ({
      server: pick(n, [
        { name: `fz-renamed-${n}` },
        { description: 'fz', accessIPv4: '192.0.2.1', accessIPv6: '2001:db8::1' },
        { 'OS-DCF:diskConfig': 'AUTO' },
      ]),
    }),
  }),
  E('GET /compute/v2.1/servers/:id/metadata'),
  E('POST /compute/v2.1/servers/:id/metadata', {
    version: COMPUTE,
    body: ({ n }) => ({ metadata: pick(n, [{}, { fz: `v${n}` }, { a: '1', 'b.c': '2' }]) }),
  }),
  E('PUT /compute/v2.1/servers/:id/metadata', {
    version: COMPUTE,
    body: ({ n }) => ({ metadata: pick(n, [{}, { fz: `v${n}` }]) }),
  }),
  E('GET /compute/v2.1/servers/:id/metadata/:key'),
  // The key must match the path's: the fuzz puts `fuzz_key` there as often as anything.
  E('PUT /compute/v2.1/servers/:id/metadata/:key', {
    version: COMPUTE,
    body: ({ n }) => ({ meta: { fuzz_key: `v${n}` } }),
  }),
  E('DELETE /compute/v2.1/servers/:id/metadata/:key'),
  E('GET /compute/v2.1/servers/:id/os-instance-actions'),
  E('GET /compute/v2.1/servers/:id/os-instance-actions/:requestId'),
  // --- end C1 ---
  // --- V1: block storage everyday API (volume metadata, snapshots) ---
  E('GET /volume/v3/:projectId/volumes/:volumeId/metadata'),
  E('POST /volume/v3/:projectId/volumes/:volumeId/metadata', {
    version: VOLUME,
    body: ({ n }) => ({ metadata: { [`k${n % 5}`]: 'v' } }),
  }),
  E('PUT /volume/v3/:projectId/volumes/:volumeId/metadata', {
    version: VOLUME,
    body: ({ n }) => ({ metadata: { fuzz: 'v', [`k${n % 5}`]: 'v' } }),
  }),
  E('GET /volume/v3/:projectId/volumes/:volumeId/metadata/:key'),
  E('PUT /volume/v3/:projectId/volumes/:volumeId/metadata/:key', {
    version: VOLUME,
    // The key must match the path's: the fuzz puts `fuzz` there as often as anything.
    body: ({ n }) => ({ meta: { fuzz: `v${n}` } }),
  }),
  E('DELETE /volume/v3/:projectId/volumes/:volumeId/metadata/:key'),
  E('GET /volume/v3/:projectId/snapshots'),
  E('GET /volume/v3/:projectId/snapshots/detail'),
  E('POST /volume/v3/:projectId/snapshots', {
    version: VOLUME,
    body: (c) => ({
      snapshot: pick(c.n, [
        { volume_id: pick(c.n >> 1, volumesOf(c)), name: `fz-snap-${c.n}` },
        { volume_id: pick(c.n >> 1, volumesOf(c)), force: true, metadata: { a: 'b' } },
      ]),
    }),
  }),
  E('GET /volume/v3/:projectId/snapshots/:snapshotId'),
  E('PUT /volume/v3/:projectId/snapshots/:snapshotId', {
    version: VOLUME,
    body: ({ n }) => ({ snapshot: pick(n, [{ name: `s${n}` }, { description: 'd' }]) }),
  }),
  E('DELETE /volume/v3/:projectId/snapshots/:snapshotId'),
  E('POST /volume/v3/:projectId/snapshots/:snapshotId/action', {
    version: VOLUME,
    body: ({ n }) =>
      pick(n, [
        { 'os-reset_status': { status: 'available' } },
        { 'os-update_snapshot_status': { status: 'available', progress: '100%' } },
      ]),
  }),
  E('GET /volume/v3/:projectId/snapshots/:snapshotId/metadata'),
  E('POST /volume/v3/:projectId/snapshots/:snapshotId/metadata', {
    version: VOLUME,
    body: ({ n }) => ({ metadata: { [`k${n % 5}`]: 'v' } }),
  }),
  E('PUT /volume/v3/:projectId/snapshots/:snapshotId/metadata', {
    version: VOLUME,
    body: ({ n }) => ({ metadata: { fuzz: 'v', [`k${n % 5}`]: 'v' } }),
  }),
  E('GET /volume/v3/:projectId/snapshots/:snapshotId/metadata/:key'),
  E('PUT /volume/v3/:projectId/snapshots/:snapshotId/metadata/:key', {
    version: VOLUME,
    body: ({ n }) => ({ meta: { fuzz: `v${n}` } }),
  }),
  E('DELETE /volume/v3/:projectId/snapshots/:snapshotId/metadata/:key'),
  E('GET /volume/v3/:projectId/os-services'),
  E('PUT /volume/v3/:projectId/os-services/:action', {
    version: VOLUME,
    body: ({ n }) =>
      pick(n, [
        { binary: 'cinder-volume', host: 'cloud@lvmdriver-1' },
        { service: 'cinder-scheduler', host: 'cloud' },
        { host: 'cloud@lvmdriver-1' },
      ]),
  }),
  E('GET /volume/v3/:projectId/os-availability-zone'),
  // --- C2: tenancy ---
  E('POST /compute/v2.1/os-keypairs', {
    version: COMPUTE,
    body: ({ n }) => ({
      keypair: {
        name: `fz-key-${n}`,
        public_key:
          'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICMeyPifz/ERmTjtWa0gNK5Q3Rt63igmcgKP0AQaWKcR fz@test',
      },
    }),
  }),
  E('GET /compute/v2.1/os-keypairs'),
  E('GET /compute/v2.1/os-keypairs/:name'),
  E('DELETE /compute/v2.1/os-keypairs/:name'),
  E('GET /compute/v2.1/limits'),
  E('GET /compute/v2.1/os-quota-sets/:id'),
  E('GET /compute/v2.1/os-quota-sets/:id/defaults'),
  E('GET /compute/v2.1/os-quota-sets/:id/detail'),
  E('PUT /compute/v2.1/os-quota-sets/:id', {
    version: COMPUTE,
    body: ({ n }) => ({ quota_set: { metadata_items: 128 + (n % 5) } }),
  }),
  E('DELETE /compute/v2.1/os-quota-sets/:id'),
  E('GET /compute/v2.1/os-quota-class-sets/:id'),
  E('PUT /compute/v2.1/os-quota-class-sets/:id', {
    version: COMPUTE,
    body: ({ n }) => ({ quota_class_set: { metadata_items: 128 + (n % 5) } }),
  }),
  E('GET /volume/v3/:projectId/limits'),
  E('GET /volume/v3/:projectId/os-quota-sets/:target'),
  E('GET /volume/v3/:projectId/os-quota-sets/:target/defaults'),
  E('PUT /volume/v3/:projectId/os-quota-sets/:target', {
    version: VOLUME,
    body: ({ n }) => ({ quota_set: { backups: 10 + (n % 5) } }),
  }),
  E('DELETE /volume/v3/:projectId/os-quota-sets/:target'),
  E('GET /volume/v3/:projectId/os-quota-class-sets/:className'),
  E('PUT /volume/v3/:projectId/os-quota-class-sets/:className', {
    version: VOLUME,
    body: ({ n }) => ({ quota_class_set: { backups: 10 + (n % 5) } }),
  }),
  // --- cloud15: scheduler dry-run extension (issue 15) ---
  E('POST /compute/v2.1/os-scheduler-dry-run', {
    version: COMPUTE,
    body: ({ n }) => ({
      dry_run: pick(n, [
        { flavorRef: '1', count: 1 + (Math.abs(n) % 1000) },
        { flavorRef: '5', count: 40, availability_zone: 'az2', volume_backed: true },
        { flavorRef: '2', count: 3, multiattach: true, read_only: true },
      ]),
    }),
  }),
  E('POST /compute/v2.1/os-server-groups', {
    version: COMPUTE,
    body: ({ n }) => ({
      server_group: pick(n, [
        {
          name: `fz-sg-${n}`,
          policy: 'anti-affinity',
          rules: { max_server_per_host: 1 + (Math.abs(n) % 3) },
        },
        { name: `fz-sg-${n}`, policy: 'soft-affinity' },
      ]),
    }),
  }),
  E('GET /compute/v2.1/os-server-groups'),
  E('GET /compute/v2.1/os-server-groups/:id'),
  E('DELETE /compute/v2.1/os-server-groups/:id'),
  E('GET /compute/v2.1/os-simple-tenant-usage'),
  E('GET /compute/v2.1/os-simple-tenant-usage/:tenantId'),
  E('GET /compute/v2.1/servers/:serverId/tags'),
  E('PUT /compute/v2.1/servers/:serverId/tags', {
    version: COMPUTE,
    body: ({ n }) => ({ tags: pick(n, [['fz'], ['fz-a', 'fz-b'], []]) }),
  }),
  E('DELETE /compute/v2.1/servers/:serverId/tags'),
  E('GET /compute/v2.1/servers/:serverId/tags/:tag'),
  E('PUT /compute/v2.1/servers/:serverId/tags/:tag'),
  E('DELETE /compute/v2.1/servers/:serverId/tags/:tag'),
  E('GET /compute/v2.1/servers/:serverId/os-server-password'),
  E('DELETE /compute/v2.1/servers/:serverId/os-server-password'),
  // --- end cloud15 ---
  // --- cloud14v: identity catalog ---
  E('GET /identity/v3/services'),
  E('GET /identity/v3/services/:serviceId'),
  E('GET /identity/v3/endpoints'),
  E('GET /identity/v3/endpoints/:endpointId'),
  E('GET /identity/v3/regions'),
  E('GET /identity/v3/regions/:regionId'),
  // --- cloud14v: Cinder os-hosts and extensions; Nova flavor extra specs (write) ---
  E('GET /volume/v3/:projectId/os-hosts'),
  E('GET /volume/v3/:projectId/os-hosts/:host'),
  E('GET /volume/v3/:projectId/capabilities/:host'),
  E('GET /volume/v3/:projectId/types/:typeId/os-volume-type-access'),
  E('POST /volume/v3/:projectId/types/:typeId/action', {
    version: VOLUME,
    body: ({ n, fx }) =>
      n % 2 === 0
        ? { addProjectAccess: { project: fx.member.projectId } }
        : { removeProjectAccess: { project: fx.member.projectId } },
  }),
  E('GET /volume/v3/:projectId/backups'),
  E('GET /volume/v3/:projectId/backups/detail'),
  E('GET /volume/v3/:projectId/backups/:backupId'),
  E('GET /volume/v3/:projectId/extensions'),
  E('GET /volume/v3/:projectId/extensions/:alias'),
  E('POST /compute/v2.1/flavors/:id/os-extra_specs', {
    version: COMPUTE,
    body: ({ n }) => ({ extra_specs: { fuzz: `v${n % 5}` } }),
  }),
  E('PUT /compute/v2.1/flavors/:id/os-extra_specs/:key', {
    version: COMPUTE,
    body: ({ n }) => ({ fuzz: `v${n % 5}` }),
  }),
  E('DELETE /compute/v2.1/flavors/:id/os-extra_specs/:key'),
  // --- cloudv2: Cinder user messages ---
  E('GET /volume/v3/:projectId/messages'),
  E('GET /volume/v3/:projectId/messages/:messageId'),
  E('DELETE /volume/v3/:projectId/messages/:messageId'),
  // --- cloudv2: volume type encryption ---
  E('GET /volume/v3/:projectId/types/:typeId/encryption'),
  E('GET /volume/v3/:projectId/types/:typeId/encryption/:key'),
  E('POST /volume/v3/:projectId/types/:typeId/encryption', {
    version: VOLUME,
    body: ({ n }) => ({
      encryption: { provider: 'luks', control_location: pick(n, ['front-end', 'back-end']), key_size: 256 },
    }),
  }),
  E('PUT /volume/v3/:projectId/types/:typeId/encryption/:encryptionId', {
    version: VOLUME,
    body: ({ n }) => ({ encryption: { control_location: pick(n, ['front-end', 'back-end']) } }),
  }),
  E('DELETE /volume/v3/:projectId/types/:typeId/encryption/:encryptionId'),
  // --- cloudc2: server diagnostics ---
  E('GET /compute/v2.1/servers/:serverId/diagnostics'),
  E('POST /compute/v2.1/os-server-external-events', {
    version: COMPUTE,
    body: (c) => ({
      events: [
        {
          name: pick(c.n, ['network-changed', 'network-vif-plugged', 'volume-extended', 'power-update']),
          server_uuid: pick(c.n >> 2, serversOf(c)),
          ...pick(c.n >> 4, [{}, { status: 'failed' }, { tag: 'fz' }]),
        },
      ],
    }),
  }),
  // --- end cloudc2 ---
  // --- cloud-rescue: extensions, os-migrations, flavor access ---
  E('GET /compute/v2.1/extensions'),
  E('GET /compute/v2.1/extensions/:alias'),
  E('GET /compute/v2.1/os-migrations', { version: COMPUTE }),
  E('GET /compute/v2.1/flavors/:id/os-flavor-access'),
  E('POST /compute/v2.1/flavors/:id/action', {
    version: COMPUTE,
    body: ({ n, fx }) =>
      n % 2 === 0
        ? { addTenantAccess: { tenant: fx.member.projectId } }
        : { removeTenantAccess: { tenant: fx.member.projectId } },
  }),
  // --- end cloud-rescue ---
  // --- cloud-proxy-hosts: os-volumes / os-snapshots proxy (2.1-2.35) ---
  E('GET /compute/v2.1/os-volumes', { version: PROXY }),
  E('GET /compute/v2.1/os-volumes/detail', { version: PROXY }),
  E('POST /compute/v2.1/os-volumes', {
    version: PROXY,
    body: ({ n }) => ({
      volume: {
        size: 1 + (Math.abs(n) % 2),
        display_name: `fz-proxy-${n}`,
        ...pick(n >> 2, [{}, { metadata: { fz: 'v' } }]),
      },
    }),
  }),
  E('GET /compute/v2.1/os-volumes/:id', { version: PROXY }),
  E('DELETE /compute/v2.1/os-volumes/:id', { version: PROXY }),
  E('GET /compute/v2.1/os-snapshots', { version: PROXY }),
  E('GET /compute/v2.1/os-snapshots/detail', { version: PROXY }),
  E('POST /compute/v2.1/os-snapshots', {
    version: PROXY,
    body: (c) => ({ snapshot: { volume_id: pick(c.n, volumesOf(c)), display_name: `fz-snap-${c.n}` } }),
  }),
  E('GET /compute/v2.1/os-snapshots/:id', { version: PROXY }),
  E('DELETE /compute/v2.1/os-snapshots/:id', { version: PROXY }),
  E('GET /compute/v2.1/os-hosts', { version: HOSTS }),
  E('GET /compute/v2.1/os-hosts/:host', { version: HOSTS }),
  E('PUT /compute/v2.1/os-hosts/:host', {
    version: HOSTS,
    body: ({ n }) =>
      pick(n, [
        { status: 'enable' },
        { maintenance_mode: 'disable' },
        { status: 'Disable', maintenance_mode: 'ENABLE' },
      ]),
  }),
  E('GET /compute/v2.1/os-hosts/:host/reboot', { version: HOSTS }),
  E('GET /compute/v2.1/os-hosts/:host/shutdown', { version: HOSTS }),
  E('GET /compute/v2.1/os-hosts/:host/startup', { version: HOSTS }),
  E('GET /compute/v2.1/os-instance_usage_audit_log'),
  E('GET /compute/v2.1/os-instance_usage_audit_log/:before'),
  E('GET /compute/v2.1/os-aggregates'),
  E('POST /compute/v2.1/os-aggregates', {
    version: COMPUTE,
    body: ({ n }) => ({
      aggregate: { name: `fz-agg-${n}`, ...pick(n >> 1, [{}, { availability_zone: `fz-az-${n}` }]) },
    }),
  }),
  E('GET /compute/v2.1/os-aggregates/:id'),
  E('PUT /compute/v2.1/os-aggregates/:id', {
    version: COMPUTE,
    body: ({ n }) => ({ aggregate: pick(n, [{ name: `fz-agg-r${n}` }, { availability_zone: 'fuzz-az' }]) }),
  }),
  E('DELETE /compute/v2.1/os-aggregates/:id'),
  E('POST /compute/v2.1/os-aggregates/:id/action', {
    version: COMPUTE,
    body: ({ n }) =>
      pick(n, [
        { add_host: { host: pick(n >> 2, ['compute-1', 'compute-2', 'compute-3']) } },
        { remove_host: { host: pick(n >> 2, ['compute-1', 'compute-2']) } },
        { set_metadata: { metadata: { fz: `v${n}`, gone: null } } },
      ]),
  }),
  // --- end cloud-proxy-hosts ---
  // cloud-qos-transfer: QoS specs and volume transfers
  E('GET /volume/v3/:projectId/qos-specs'),
  E('POST /volume/v3/:projectId/qos-specs', {
    version: VOLUME,
    body: ({ n }) => ({
      qos_specs: {
        name: `fuzz-qos-${n}`,
        consumer: pick(n, ['front-end', 'back-end', 'both']),
        total_iops_sec: '9',
      },
    }),
  }),
  E('GET /volume/v3/:projectId/qos-specs/:qosId'),
  E('PUT /volume/v3/:projectId/qos-specs/:qosId', {
    version: VOLUME,
    body: ({ n }) => ({ qos_specs: pick(n, [{ read_iops_sec: `${n % 7}` }, { consumer: 'both' }]) }),
  }),
  E('PUT /volume/v3/:projectId/qos-specs/:qosId/delete_keys', {
    version: VOLUME,
    body: ({ n }) => ({ keys: [pick(n, ['read_iops_sec', 'total_iops_sec', 'fuzz-missing'])] }),
  }),
  E('DELETE /volume/v3/:projectId/qos-specs/:qosId'),
  E('GET /volume/v3/:projectId/qos-specs/:qosId/associations'),
  E('GET /volume/v3/:projectId/qos-specs/:qosId/associate'),
  E('GET /volume/v3/:projectId/qos-specs/:qosId/disassociate'),
  E('GET /volume/v3/:projectId/qos-specs/:qosId/disassociate_all'),
  ...(['os-volume-transfer', 'volume-transfers'] as const).flatMap((resource) => [
    E(`GET /volume/v3/:projectId/${resource}`),
    E(`GET /volume/v3/:projectId/${resource}/detail`),
    E(`POST /volume/v3/:projectId/${resource}`, {
      version: VOLUME,
      body: (c) => ({ transfer: { volume_id: pick(c.n, volumesOf(c)), name: `fuzz-transfer-${c.n}` } }),
    }),
    E(`GET /volume/v3/:projectId/${resource}/:transferId`),
    E(`DELETE /volume/v3/:projectId/${resource}/:transferId`),
    E(`POST /volume/v3/:projectId/${resource}/:transferId/accept`, {
      version: VOLUME,
      body: ({ n }) => ({ accept: { auth_key: pick(n, ['0123456789abcdef', 'fuzz-key']) } }),
    }),
  ]),
  // Keystone services, endpoints and regions for admins.
  E('POST /identity/v3/services', {
    body: ({ n }) => ({
      service: { type: `fuzz-type-${n}`, ...pick(n, [{}, { name: 'fuzz-svc', enabled: false }]) },
    }),
  }),
  E('PATCH /identity/v3/services/:serviceId', {
    body: ({ n }) => ({ service: pick(n, [{ description: `d${n}` }, { enabled: n % 2 === 0 }]) }),
  }),
  E('DELETE /identity/v3/services/:serviceId'),
  E('POST /identity/v3/endpoints', {
    body: ({ fx, n }) => ({
      endpoint: {
        service_id: pick(n, fx.ids.catalogService),
        interface: pick(n, ['public', 'internal', 'admin']),
        url: `http://fuzz.example/${n}`,
        ...pick(n >> 2, [{}, { region_id: 'RegionOne' }]),
      },
    }),
  }),
  E('PATCH /identity/v3/endpoints/:endpointId', {
    body: ({ n }) => ({ endpoint: pick(n, [{ url: `http://fuzz.example/${n}` }, { enabled: false }]) }),
  }),
  E('DELETE /identity/v3/endpoints/:endpointId'),
  E('POST /identity/v3/regions', { body: ({ n }) => ({ region: { id: `fuzz-region-${n}` } }) }),
  E('PUT /identity/v3/regions/:regionId', { body: ({ n }) => ({ region: { description: `d${n}` } }) }),
  E('PATCH /identity/v3/regions/:regionId', { body: ({ n }) => ({ region: { description: `d${n}` } }) }),
  E('DELETE /identity/v3/regions/:regionId'),
  // --- end cloud-qos-transfer ---
  // --- cloud-groups: generic volume groups ---
  E('GET /volume/v3/:projectId/group_types'),
  E('GET /volume/v3/:projectId/group_types/:typeId'),
  E('POST /volume/v3/:projectId/group_types', {
    version: VOLUME,
    body: ({ n }) => ({
      group_type: {
        name: `fuzz-gt-${n}`,
        ...pick(n, [{}, { is_public: false }, { description: 'fz', group_specs: { fz: 'v' } }]),
      },
    }),
  }),
  E('PUT /volume/v3/:projectId/group_types/:typeId', {
    version: VOLUME,
    body: ({ n }) => ({
      group_type: pick(n, [{ description: `fz-${n}` }, { name: `fuzz-gt-renamed-${n}` }]),
    }),
  }),
  E('DELETE /volume/v3/:projectId/group_types/:typeId'),
  E('GET /volume/v3/:projectId/group_types/:typeId/group_specs'),
  E('POST /volume/v3/:projectId/group_types/:typeId/group_specs', {
    version: VOLUME,
    body: ({ n }) => ({ group_specs: { [pick(n, ['fuzz_key', 'fz'])]: `v${n}` } }),
  }),
  E('GET /volume/v3/:projectId/group_types/:typeId/group_specs/:key'),
  E('PUT /volume/v3/:projectId/group_types/:typeId/group_specs/:key', {
    version: VOLUME,
    body: ({ n }) => ({ fuzz_key: `v${n}` }),
  }),
  E('DELETE /volume/v3/:projectId/group_types/:typeId/group_specs/:key'),
  E('GET /volume/v3/:projectId/groups'),
  E('GET /volume/v3/:projectId/groups/detail'),
  E('POST /volume/v3/:projectId/groups', {
    version: VOLUME,
    body: ({ fx, n }) => ({
      group: {
        group_type: pick(n, fx.ids.groupType),
        volume_types: [pick(n >> 2, fx.ids.volumeType)],
        ...pick(n >> 4, [{}, { name: `fz-${n}` }, { availability_zone: 'nova' }]),
      },
    }),
  }),
  E('POST /volume/v3/:projectId/groups/action', {
    version: VOLUME,
    body: ({ fx, n }) => ({
      'create-from-src': pick(n, [
        { source_group_id: pick(n >> 2, fx.ids.volumeGroup) },
        { group_snapshot_id: pick(n >> 2, fx.ids.groupSnapshot) },
      ]),
    }),
  }),
  E('GET /volume/v3/:projectId/groups/:groupId'),
  E('PUT /volume/v3/:projectId/groups/:groupId', {
    version: VOLUME,
    body: ({ fx, n }) => ({
      group: pick(n, [
        { name: `fz-${n}` },
        { description: 'fz' },
        { add_volumes: pick(n >> 2, fx.ids.volume) },
        { remove_volumes: pick(n >> 2, fx.ids.volume) },
      ]),
    }),
  }),
  E('POST /volume/v3/:projectId/groups/:groupId/action', {
    version: VOLUME,
    body: ({ n }) =>
      pick(n, [
        { delete: { 'delete-volumes': pick(n >> 2, [true, false]) } },
        { reset_status: { status: pick(n >> 2, ['available', 'error']) } },
      ]),
  }),
  E('GET /volume/v3/:projectId/group_snapshots'),
  E('GET /volume/v3/:projectId/group_snapshots/detail'),
  E('POST /volume/v3/:projectId/group_snapshots', {
    version: VOLUME,
    body: ({ fx, n }) => ({
      group_snapshot: { group_id: pick(n, fx.ids.volumeGroup), ...pick(n >> 2, [{}, { name: `fz-${n}` }]) },
    }),
  }),
  E('GET /volume/v3/:projectId/group_snapshots/:groupSnapshotId'),
  E('DELETE /volume/v3/:projectId/group_snapshots/:groupSnapshotId'),
  E('POST /volume/v3/:projectId/group_snapshots/:groupSnapshotId/action', {
    version: VOLUME,
    body: ({ n }) => ({ reset_status: { status: pick(n, ['available', 'error']) } }),
  }),
  // --- end cloud-groups ---
];

/** The kind of id a path parameter holds, from the segment before it. */
export function idKindOf(path: string, param: string): IdKind {
  const segments = path.split('/');
  const at = segments.indexOf(`:${param}`);
  const before = segments[at - 1] ?? '';
  const service = segments[1];
  if (service === 'volume' && before === 'v3') return 'ownProject';
  // --- V1: block storage everyday API ---
  if (service === 'volume' && before === 'snapshots') return 'snapshot';
  if (service === 'volume' && before === 'metadata') return 'volumeMetadataKey';
  if (service === 'volume' && before === 'os-services') return 'volumeServiceAction';
  // --- cloud14v ---
  if (service === 'volume' && (before === 'os-hosts' || before === 'capabilities')) return 'volumeHost';
  if (service === 'volume' && before === 'extensions') return 'volumeExtension';
  if (service === 'volume' && before === 'backups') return 'backup';
  const kinds: Record<string, IdKind> = {
    domains: 'domain',
    projects: 'project',
    users: 'user',
    roles: 'role',
    servers: 'server',
    flavors: 'flavor',
    'os-extra_specs': 'flavorSpecKey',
    'os-hypervisors': param === 'pattern' ? 'hypervisorPattern' : 'hypervisor',
    'os-services': 'service',
    'os-volume_attachments': 'volume',
    volumes: 'volume',
    attachments: 'attachment',
    types: 'volumeType',
    extra_specs: 'typeSpecKey',
    images: 'image',
    networks: 'network',
    subnets: 'subnet',
    ports: 'port',
    'security-groups': 'securityGroup',
    'security-group-rules': 'securityGroupRule',
    extensions: 'extension',
    ips: 'networkLabel',
    'os-interface': 'port',
    // C1: server metadata keys are plain strings, as a type's extra spec keys are.
    metadata: 'typeSpecKey',
    'os-instance-actions': 'typeSpecKey',
    // --- C2: tenancy ---
    'os-keypairs': 'keypair',
    'os-quota-sets': 'project',
    'os-quota-class-sets': 'quotaClass',
    // Neutron's quotas of a project.
    quotas: 'project',
    // --- cloud14v: identity catalog ---
    services: 'catalogService',
    endpoints: 'catalogEndpoint',
    regions: 'region',
    // --- cloud15: server groups ---
    'os-server-groups': 'serverGroup',
    'os-simple-tenant-usage': 'project',
    tags: 'typeSpecKey',
    // --- cloudv2: block storage and flavor gaps ---
    messages: 'volumeMessage',
    // --- cloud-proxy-hosts ---
    'os-volumes': 'volume',
    'os-snapshots': 'snapshot',
    'os-hosts': 'computeHost',
    'os-instance_usage_audit_log': 'auditTime',
    'os-aggregates': 'aggregate',
    // cloud-qos-transfer: QoS specs and volume transfers
    'qos-specs': 'qosSpecs',
    'os-volume-transfer': 'volumeTransfer',
    'volume-transfers': 'volumeTransfer',
    // --- cloud-groups: generic volume groups ---
    group_types: 'groupType',
    group_specs: 'groupSpecKey',
    groups: 'volumeGroup',
    group_snapshots: 'groupSnapshot',
  };
  // --- cloudv2: volume type encryption --- a field of the specs, and the type's id again.
  if (service === 'volume' && before === 'encryption') {
    return param === 'key' ? 'encryptionKey' : 'volumeType';
  }
  const kind = kinds[before];
  if (!kind) throw new Error(`no id kind for :${param} in ${path}`);
  return kind;
}

/** The methods routed for one path (for picking the wrong ones). */
export function methodsFor(path: string): Set<string> {
  const methods = new Set<string>();
  for (const e of cloudEndpoints) {
    if (e.path !== path) continue;
    if (e.method === 'ALL') return new Set(['ALL']);
    methods.add(e.method);
    if (e.method === 'GET') methods.add('HEAD');
  }
  return methods;
}
