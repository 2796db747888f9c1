import { randomUUID } from 'node:crypto';
import type { Schema } from '../../src/platform/db/schema.js';
import type { TestCloud } from './cloud.js';

/**
 * Rows for topology tests, written straight into the tables (servers, volumes, mappings and
 * Cinder attachments) so the tests do not depend on the servers and attach APIs.
 */
export interface ServerFixture {
  project_id: string;
  host?: string | null;
  name?: string;
  vm_state?: string;
  task_state?: string | null;
  availability_zone?: string | null;
  deleted?: 0 | 1;
}

export interface VolumeFixture {
  project_id: string;
  name?: string | null;
  multiattach?: boolean;
  status?: string;
  size?: number;
}

export interface AttachFixture {
  /** The mapping's mode (2.105); null leaves it to Cinder's. */
  mode?: 'rw' | 'ro' | null;
  /** Cinder's attach_mode column ('null' until known, as Cinder stores it). */
  cinder_mode?: string;
  /** Cinder's attach_status; null means the mapping has no Cinder attachment at all. */
  status?: string | null;
  device?: string | null;
  boot_index?: number | null;
  delete_on_termination?: 0 | 1;
  /** When the Cinder attachment last changed state (ISO). */
  updated_at?: string;
}

export const isoAgo = (seconds: number): string => new Date(Date.now() - seconds * 1000).toISOString();

export function topologyFixtures(tc: TestCloud) {
  const db = tc.cloud.deps.store.db;
  const devices = new Map<string, number>();

  async function volumeTypeId(multiattach: boolean): Promise<string> {
    const row = await db
      .selectFrom('volume_types')
      .select('id')
      .where('name', '=', multiattach ? 'multiattach' : '__DEFAULT__')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  return {
    async server(f: ServerFixture): Promise<Schema['servers']> {
      const now = new Date().toISOString();
      const id = randomUUID();
      const name = f.name ?? `srv-${id.slice(0, 8)}`;
      const row: Schema['servers'] = {
        id,
        project_id: f.project_id,
        user_id: 'fixture-user',
        name,
        hostname: name,
        description: null,
        vm_state: f.vm_state ?? 'active',
        task_state: f.task_state ?? null,
        power_state: 1,
        host: f.host === undefined ? 'compute-1' : f.host,
        node: f.host === undefined ? 'compute-1' : f.host,
        availability_zone: f.availability_zone === undefined ? 'nova' : f.availability_zone,
        requested_availability_zone: null,
        flavor_id: '1',
        flavor: '{}',
        old_flavor: null,
        image_id: null,
        reservation_id: 'r-fixture0',
        launch_index: 0,
        key_name: null,
        metadata: '{}',
        tags: '[]',
        security_groups: '[]',
        config_drive: '',
        locked: 0,
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
        deleted: f.deleted ?? 0,
      };
      await db.insertInto('servers').values(row).execute();
      return row;
    },

    async volume(f: VolumeFixture): Promise<Schema['volumes']> {
      const now = new Date().toISOString();
      const multiattach = f.multiattach ?? true;
      const row: Schema['volumes'] = {
        id: randomUUID(),
        project_id: f.project_id,
        user_id: 'fixture-user',
        name: f.name === undefined ? 'shared' : f.name,
        description: null,
        size: f.size ?? 1,
        status: f.status ?? 'in-use',
        attach_status: 'attached',
        volume_type_id: await volumeTypeId(multiattach),
        availability_zone: 'nova',
        bootable: 0,
        multiattach: multiattach ? 1 : 0,
        host: 'controller@lvm#lvm',
        metadata: '{}',
        readonly_flag: null,
        migration_status: null,
        snapshot_id: null,
        source_volid: null,
        encrypted: 0,
        created_at: now,
        updated_at: now,
        launched_at: now,
      };
      await db.insertInto('volumes').values(row).execute();
      return row;
    },

    /** A volume mapping on the server and, unless status is null, its Cinder attachment. */
    async attach(
      server: Schema['servers'],
      volume: Schema['volumes'],
      f: AttachFixture = {},
    ): Promise<{ bdmUuid: string; attachmentId: string | null }> {
      const now = new Date().toISOString();
      const status = f.status === undefined ? 'attached' : f.status;
      const attachmentId = status === null ? null : randomUUID();
      const n = (devices.get(server.id) ?? 0) + 1;
      devices.set(server.id, n);
      const device = f.device === undefined ? `/dev/vd${String.fromCharCode(97 + n)}` : f.device;
      const mode = f.mode === undefined ? 'rw' : f.mode;
      if (attachmentId !== null && status !== null) {
        await db
          .insertInto('volume_attachments')
          .values({
            id: attachmentId,
            volume_id: volume.id,
            instance_uuid: server.id,
            attached_host: server.host,
            mountpoint: device,
            attach_status: status,
            attach_mode: f.cinder_mode ?? mode ?? 'null',
            connector: null,
            connection_info: null,
            attached_at: status === 'attached' ? now : null,
            detached_at: null,
            created_at: f.updated_at ?? now,
            updated_at: f.updated_at ?? now,
          })
          .execute();
      }
      const bdmUuid = randomUUID();
      await db
        .insertInto('block_device_mappings')
        .values({
          uuid: bdmUuid,
          server_id: server.id,
          source_type: 'volume',
          destination_type: 'volume',
          volume_id: volume.id,
          image_id: null,
          attachment_id: attachmentId,
          boot_index: f.boot_index ?? null,
          device_name: device,
          device_type: 'disk',
          disk_bus: 'virtio',
          guest_format: null,
          volume_size: null,
          volume_type: null,
          delete_on_termination: f.delete_on_termination ?? 0,
          tag: null,
          attach_mode: mode,
          connection_info: null,
          created_at: f.updated_at ?? now,
          updated_at: f.updated_at ?? now,
        })
        .execute();
      return { bdmUuid, attachmentId };
    },
  };
}
