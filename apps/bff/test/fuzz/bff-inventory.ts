import type { TestStack } from '../helpers/stack.js';
import { http, login, type Session } from '../../../cloud/test/helpers/cloud.js';
import { bootServersViaApi } from '../../../cloud/test/helpers/compute-fixtures.js';
import { newSshKeyPair } from '../../src/openstack/nova-keypairs.js';

/**
 * Every /api route of the BFF with a valid request for it. `bff.fuzz.test.ts` fails while the app
 * serves an /api route this list lacks (or the other way round): add a new route here.
 */

export type Role = 'admin' | 'member';
export type IdKind = 'volume' | 'server' | 'launch' | 'keyPair';

export interface BffFixtures {
  /** Ids any request may aim at, per role (the other role's are mixed in by the fuzz). */
  ids: Record<Role, Record<IdKind, string[]>>;
  /** Ids a DELETE may remove. */
  expendable: Record<Role, Partial<Record<IdKind, string[]>>>;
  projectIds: Record<Role, string>;
  imageId: string;
}

export interface BodyContext {
  fx: BffFixtures;
  role: Role;
  n: number;
}

export interface BffEndpoint {
  key: string;
  method: string;
  path: string;
  /** Needs a signed-in session (false: health, the document, sign-in). */
  session: boolean;
  body?: (c: BodyContext) => unknown;
  query?: (c: BodyContext) => string;
}

const pick = <T>(n: number, xs: readonly T[]): T => xs[Math.abs(n) % xs.length]!;
const own = (c: BodyContext, kind: IdKind) => c.fx.ids[c.role][kind];

const launchRequest = (c: BodyContext) => ({
  name: `fz-launch-${c.n}`,
  count: 1 + (c.n % 2),
  flavorId: pick(c.n, ['1', '42']),
  boot: pick(c.n >> 1, [
    { source: 'image', imageId: c.fx.imageId },
    { source: 'image', imageId: c.fx.imageId },
  ]),
  dataVolumes: pick(c.n >> 2, [[], [{ volumeId: own(c, 'volume')[0], mode: 'ro' }]]),
  ...pick(c.n >> 3, [{}, { availabilityZone: 'nova' }]),
});

const E = (
  key: string,
  rest: Omit<BffEndpoint, 'key' | 'method' | 'path' | 'session'> & { session?: boolean } = {},
) => {
  const [method, path] = key.split(' ') as [string, string];
  return { key, method, path, session: true, ...rest };
};

export const bffEndpoints: BffEndpoint[] = [
  E('GET /api/health', { session: false }),
  E('GET /api/openapi.json', { session: false }),
  E('POST /api/session', {
    session: false,
    body: ({ n }) => ({
      username: 'demo',
      password: 'demo',
      ...pick(n, [{}, { project: 'demo' }, { domain: 'Default' }]),
    }),
  }),
  E('GET /api/session'),
  E('DELETE /api/session'),
  E('PUT /api/session/project', { body: (c) => ({ projectId: c.fx.projectIds[c.role] }) }),
  E('GET /api/capabilities'),
  E('GET /api/volumes', { query: ({ n }) => pick(n, ['', 'all=0', 'all=1', 'all=true']) }),
  E('POST /api/volumes', {
    body: ({ n, fx }) =>
      pick(n, [
        { name: `fz-volume-${n}`, sizeGb: 1 },
        { name: `fz-volume-${n}`, sizeGb: 2, type: 'multiattach', description: 'd' },
        { name: `fz-volume-${n}`, sizeGb: 1, bootable: true, imageId: fx.imageId },
      ]),
  }),
  E('GET /api/volumes/:id'),
  E('DELETE /api/volumes/:id'),
  E('GET /api/volume-types'),
  E('GET /api/servers', { query: ({ n }) => pick(n, ['', 'all=1', 'all=false']) }),
  E('GET /api/servers/:id'),
  E('DELETE /api/servers/:id'),
  E('POST /api/servers/:id/attachments', {
    body: (c) => ({
      volumeId: pick(c.n, own(c, 'volume')),
      mode: pick(c.n >> 2, ['rw', 'ro']),
      acknowledgeMultipleWriters: c.n % 2 === 0,
    }),
  }),
  E('DELETE /api/servers/:id/attachments/:volumeId'),
  E('GET /api/flavors'),
  E('GET /api/images'),
  E('GET /api/availability-zones'),
  E('GET /api/hosts'),
  E('GET /api/preflight/attach', {
    query: (c) =>
      pick(c.n, [
        `volumeId=${pick(c.n >> 1, own(c, 'volume'))}`,
        `serverId=${pick(c.n >> 1, own(c, 'server'))}`,
      ]),
  }),
  E('POST /api/launches/plan', { body: launchRequest }),
  E('POST /api/launches', { body: launchRequest }),
  E('GET /api/launches'),
  E('GET /api/launches/:id'),
  E('GET /api/topology', {
    query: (c) =>
      pick(c.n, [
        '',
        `project=${c.fx.projectIds[c.role]}`,
        'host=compute-1',
        `volume=${own(c, 'volume')[0]}`,
      ]),
  }),
  E('GET /api/events'),
  // --- L: paged lists and project names ---
  E('GET /api/lists/servers', {
    query: ({ n }) =>
      pick(n, [
        '',
        'all=1',
        'sort=status&dir=desc',
        'q=web&limit=5',
        'page=3&limit=2',
        'attached=no',
        'zone=nova',
      ]),
  }),
  E('GET /api/lists/volumes', {
    query: ({ n }) =>
      pick(n, ['', 'all=1', 'sort=size&dir=asc', 'shared=yes', 'attached=yes&page=2', 'status=available']),
  }),
  E('GET /api/projects'),
  // --- M: actions on a launch's failed servers ---
  E('POST /api/launches/:id/delete-failed'),
  E('POST /api/launches/:id/retry-failed'),
  // --- Q: volume actions ---
  E('POST /api/volumes/:id/extend', { body: ({ n }) => ({ sizeGb: pick(n, [2, 3, 16_384]) }) }),
  E('POST /api/volumes/:id/retype', {
    body: ({ n }) =>
      pick(n, [{ type: 'multiattach' }, { type: '__DEFAULT__', migrationPolicy: 'on-demand' }]),
  }),
  E('PUT /api/volumes/:id/bootable', { body: ({ n }) => ({ bootable: n % 2 === 0 }) }),
  // --- 15: what a launch picks from ---
  E('GET /api/networks'),
  E('GET /api/security-groups'),
  E('GET /api/key-pairs'),
  E('POST /api/key-pairs', {
    body: ({ n, role }) =>
      pick(n, [{ name: `fz-key-${role}-${n}` }, { name: `fz-key-${role}-${n}`, publicKey: FUZZ_PUBLIC_KEY }]),
  }),
  E('DELETE /api/key-pairs/:name'),
  E('GET /api/quotas'),
];

/** An ssh public key to import (any valid one will do; the private half is not needed). */
const FUZZ_PUBLIC_KEY = newSshKeyPair('fuzz').publicKey;

/** The kind of id a path parameter holds. */
export function idKindOf(path: string, param: string): IdKind {
  if (param === 'volumeId' || path.startsWith('/api/volumes/')) return 'volume';
  if (path.startsWith('/api/servers/')) return 'server';
  if (path.startsWith('/api/launches/')) return 'launch';
  if (path.startsWith('/api/key-pairs/')) return 'keyPair';
  throw new Error(`no id kind for :${param} in ${path}`);
}

/** The methods routed for one path. */
export function methodsFor(path: string): Set<string> {
  const methods = new Set<string>();
  for (const e of bffEndpoints) {
    if (e.path !== path) continue;
    methods.add(e.method);
    if (e.method === 'GET') methods.add('HEAD');
  }
  return methods;
}

/**
 * Volumes and servers for each role, made straight through the cloud's API as another client
 * would, one shared volume attached to a server, and a finished launch.
 */
export async function makeBffFixtures(stack: TestStack): Promise<BffFixtures> {
  const tc = stack.cloud;
  const sessions: Record<Role, Session> = {
    admin: await login(tc, 'admin'),
    member: await login(tc, 'demo'),
  };
  const imageId = (await http(tc, 'GET', '/image/v2/images', { token: sessions.admin.token })).body.images[0]
    .id as string;
  const volume = async (role: Role, name: string, shared: boolean) => {
    const s = sessions[role];
    const res = await http(tc, 'POST', `${s.volumeBase}/volumes`, {
      token: s.token,
      version: 'volume 3.60',
      body: { volume: { name, size: 1, ...(shared ? { volume_type: 'multiattach' } : {}) } },
    });
    if (res.status !== 202) throw new Error(`volume: ${res.status} ${res.text}`);
    return res.body.volume.id as string;
  };
  const ids = {} as BffFixtures['ids'];
  const expendable = {} as BffFixtures['expendable'];
  for (const role of ['admin', 'member'] as const) {
    const volumes = [await volume(role, 'fuzz-shared', true), await volume(role, 'fuzz-plain', false)];
    const spareVolumes = [
      await volume(role, 'fuzz-spare-1', false),
      await volume(role, 'fuzz-spare-2', true),
    ];
    const servers = await bootServersViaApi(tc, sessions[role], 2, { name: `fuzz-${role}` });
    const spareServers = await bootServersViaApi(tc, sessions[role], 2, { name: `fuzz-spare-${role}` });
    await tc.settle();
    const attach = await http(tc, 'POST', `/compute/v2.1/servers/${servers[0]}/os-volume_attachments`, {
      token: sessions[role].token,
      version: 'compute 2.60',
      body: { volumeAttachment: { volumeId: volumes[0] } },
    });
    if (attach.status !== 200) throw new Error(`attach: ${attach.status} ${attach.text}`);
    await tc.settle();
    const keyPair = async (name: string) => {
      const res = await http(tc, 'POST', '/compute/v2.1/os-keypairs', {
        token: sessions[role].token,
        version: 'compute 2.91',
        body: { keypair: { name } },
      });
      if (res.status !== 201) throw new Error(`key pair: ${res.status} ${res.text}`);
      return name;
    };
    const keyPairs = [await keyPair(`fuzz-key-${role}`)];
    const spareKeyPairs = [
      await keyPair(`fuzz-spare-key-${role}-1`),
      await keyPair(`fuzz-spare-key-${role}-2`),
    ];
    ids[role] = { volume: volumes, server: servers, launch: [], keyPair: keyPairs };
    expendable[role] = { volume: spareVolumes, server: spareServers, keyPair: spareKeyPairs };
  }
  return {
    ids,
    expendable,
    projectIds: { admin: sessions.admin.projectId, member: sessions.member.projectId },
    imageId,
  };
}
