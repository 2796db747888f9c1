import { randomUUID } from 'node:crypto';
import type { VolumesTable } from '../../src/platform/db/schema.js';
import type { TestCloud } from './cloud.js';

/**
 * Volumes inserted straight into the store, so the attachment tests do not depend on the volume
 * create flow. Types are the seeded `__DEFAULT__` and `multiattach`.
 */
export interface VolumeFixture {
  projectId: string;
  userId?: string;
  multiattach?: boolean;
  status?: string;
  readonly?: 'True' | 'False' | null;
  bootable?: boolean;
  name?: string;
}

export async function createVolume(tc: TestCloud, fixture: VolumeFixture): Promise<string> {
  const db = tc.cloud.deps.store.db;
  const typeName = fixture.multiattach ? 'multiattach' : '__DEFAULT__';
  const type = await db
    .selectFrom('volume_types')
    .select('id')
    .where('name', '=', typeName)
    .executeTakeFirstOrThrow();
  const id = randomUUID();
  const now = new Date().toISOString();
  const row: VolumesTable = {
    id,
    project_id: fixture.projectId,
    user_id: fixture.userId ?? 'fixture-user',
    name: fixture.name ?? `fixture-${id.slice(0, 8)}`,
    description: null,
    size: 1,
    status: fixture.status ?? 'available',
    attach_status: 'detached',
    volume_type_id: type.id,
    availability_zone: 'nova',
    bootable: fixture.bootable ? 1 : 0,
    multiattach: fixture.multiattach ? 1 : 0,
    host: 'cloud@lvm#lvm',
    metadata: '{}',
    readonly_flag: fixture.readonly ?? null,
    migration_status: null,
    snapshot_id: null,
    source_volid: null,
    encrypted: 0,
    created_at: now,
    updated_at: now,
    launched_at: now,
  };
  await db.insertInto('volumes').values(row).execute();
  return id;
}

/** The volume's row as stored (status, attach_status, readonly_flag...). */
export async function volumeRow(tc: TestCloud, id: string) {
  return tc.cloud.deps.store.db
    .selectFrom('volumes')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/** The volume's attachment rows, oldest first. */
export async function attachmentRows(tc: TestCloud, volumeId: string) {
  return tc.cloud.deps.store.db
    .selectFrom('volume_attachments')
    .selectAll()
    .where('volume_id', '=', volumeId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** A connector as Nova's os-brick sends it. */
export function connector(host = 'compute-1', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    initiator: `iqn.1993-08.org.debian:01:${host}`,
    ip: '192.168.1.20',
    platform: 'x86_64',
    host,
    os_type: 'linux',
    multipath: false,
    mountpoint: '/dev/vdb',
    ...extra,
  };
}
