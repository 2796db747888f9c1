import { randomUUID } from 'node:crypto';
import { createNetworkClient } from '../../src/compute/clients/network-client.js';
import { createImageClient } from '../../src/compute/clients/image-client.js';
import { createVolumeClient } from '../../src/compute/clients/volume-client.js';
import type { ComputeDeps } from '../../src/compute/deps.js';
import { connectServerVolumes } from '../../src/compute/host/volume-connect.js';
import { reserveVolumeForServers } from '../../src/compute/service/volume-attachments.service.js';
import type { ServerRow } from '../../src/compute/store/servers.store.js';
import type { AuthContext } from '../../src/platform/http/context.js';
import { Microversion } from '../../src/platform/http/microversion.js';
import { http, type TestCloud } from './cloud.js';

/**
 * Servers written straight into the store (ACTIVE on a host unless told otherwise), so the
 * attachment tests do not depend on the servers API and its scheduler.
 */
export interface ServerFixture {
  projectId: string;
  userId?: string;
  host?: string | null;
  vmState?: string;
  taskState?: string | null;
  locked?: boolean;
  name?: string;
}

export async function createServer(tc: TestCloud, f: ServerFixture): Promise<ServerRow> {
  const id = randomUUID();
  const now = new Date().toISOString();
  const name = f.name ?? `srv-${id.slice(0, 8)}`;
  const host = f.host === undefined ? 'compute-1' : f.host;
  const row: ServerRow = {
    id,
    project_id: f.projectId,
    user_id: f.userId ?? 'fixture-user',
    name,
    hostname: name,
    description: null,
    vm_state: f.vmState ?? 'active',
    task_state: f.taskState ?? null,
    power_state: 1,
    host,
    node: host,
    availability_zone: 'nova',
    requested_availability_zone: null,
    flavor_id: '1',
    flavor: JSON.stringify({ id: '1', name: 'm1.tiny', vcpus: 1, ram: 512, disk: 1 }),
    old_flavor: null,
    image_id: null,
    reservation_id: 'r-fixture0',
    launch_index: 0,
    key_name: null,
    metadata: '{}',
    tags: '[]',
    security_groups: '[]',
    config_drive: '',
    locked: f.locked ? 1 : 0,
    locked_reason: null,
    locked_by: null,
    access_ip_v4: null,
    access_ip_v6: null,
    auto_disk_config: 0,
    password: null,
    user_data: null,
    trusted_certs: null,
    fault: null,
    created_at: now,
    updated_at: now,
    launched_at: now,
    terminated_at: null,
    deleted: 0,
  };
  await tc.cloud.deps.store.db.insertInto('servers').values(row).execute();
  return row;
}

export async function setServer(tc: TestCloud, id: string, changes: Partial<ServerRow>): Promise<void> {
  await tc.cloud.deps.store.db.updateTable('servers').set(changes).where('id', '=', id).execute();
}

/** Compute's own dependencies in a test cloud, for tests that call compute's functions directly. */
export function computeDeps(tc: TestCloud): ComputeDeps {
  const deps = tc.cloud.deps;
  return {
    ...deps,
    volumes: createVolumeClient(tc.cloud.volume.api, deps.logger),
    images: createImageClient(tc.cloud.image.api),
    network: createNetworkClient(tc.cloud.network.api),
  };
}

/** The caller the fixtures act as when they use the services directly. */
export function callerFor(projectId: string, isAdmin = false): AuthContext {
  return {
    tokenId: 'fixture',
    userId: 'fixture-user',
    userName: 'fixture',
    domainId: 'default',
    projectId,
    projectName: null,
    roles: isAdmin ? ['admin', 'member'] : ['member'],
    isAdmin,
    expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
  };
}

/**
 * Boot-from-volume as server create does it: the root volume reserved through the create path
 * of the attach service, then connected by the emulated host (so it is /dev/vda, attached).
 */
export async function bootFromVolume(
  tc: TestCloud,
  server: ServerRow,
  volumeId: string,
  opts: { deleteOnTermination?: boolean; attachMode?: 'ro' | 'rw' } = {},
): Promise<void> {
  const deps = computeDeps(tc);
  await deps.store.transaction((tx) =>
    reserveVolumeForServers(deps, tx, callerFor(server.project_id), [server], {
      volumeId,
      bootIndex: 0,
      sourceType: 'volume',
      destinationType: 'volume',
      deleteOnTermination: opts.deleteOnTermination ?? false,
      attachMode: opts.attachMode ?? null,
      version: Microversion.of('2.60'),
      duringCreate: true,
    }),
  );
  await connectServerVolumes(deps, server.id);
}

/** Nova's mappings of a server, oldest first. */
export async function bdmRows(tc: TestCloud, serverId: string) {
  return tc.cloud.deps.store.db
    .selectFrom('block_device_mappings')
    .selectAll()
    .where('server_id', '=', serverId)
    .orderBy('created_at')
    .orderBy('uuid')
    .execute();
}

/**
 * Holds back the emulated backends' scheduled work (as a slow host would), so a test can look at
 * the state a request leaves behind. `release()` runs what was held, in order, and restores.
 */
export function holdBackendWork(tc: TestCloud): { release(): Promise<void> } {
  const tasks = tc.cloud.deps.tasks;
  const held: (() => Promise<void>)[] = [];
  const original = tasks.schedule;
  tasks.schedule = (_name: string, work: () => Promise<void>) => {
    held.push(work);
  };
  return {
    async release() {
      tasks.schedule = original;
      for (const work of held.splice(0)) await work();
      await tc.settle();
    },
  };
}

/**
 * `count` servers booted from the seeded image through the servers API in one multi-create
 * request, waited for until ACTIVE. Returns their ids.
 */
export async function bootServersViaApi(
  tc: TestCloud,
  session: { token: string },
  count: number,
  opts: { availabilityZone?: string; name?: string } = {},
): Promise<string[]> {
  const images = await http(tc, 'GET', '/image/v2/images', { token: session.token });
  const imageRef = images.body?.images?.[0]?.id as string | undefined;
  if (!imageRef) throw new Error(`no image to boot from: ${images.status} ${images.text}`);
  const created = await http(tc, 'POST', '/compute/v2.1/servers', {
    token: session.token,
    version: 'compute 2.60',
    body: {
      server: {
        name: opts.name ?? 'attach-test',
        imageRef,
        flavorRef: '1',
        networks: 'none',
        min_count: count,
        max_count: count,
        return_reservation_id: true,
        ...(opts.availabilityZone ? { availability_zone: opts.availabilityZone } : {}),
      },
    },
  });
  if (created.status !== 202) throw new Error(`server create failed: ${created.status} ${created.text}`);
  await tc.settle();
  const listed = await http(
    tc,
    'GET',
    `/compute/v2.1/servers/detail?reservation_id=${created.body.reservation_id}`,
    {
      token: session.token,
      version: 'compute 2.60',
    },
  );
  const servers = (listed.body?.servers ?? []) as { id: string; status: string }[];
  if (servers.length !== count || servers.some((s) => s.status !== 'ACTIVE')) {
    throw new Error(`servers did not all become ACTIVE: ${servers.map((s) => s.status).join(',')}`);
  }
  return servers.map((s) => s.id);
}
