import type { Microversion } from '../../platform/http/microversion.js';
import { cinderTime } from '../../platform/time.js';
import { BACKEND } from '../service/backend.js';
import type { AttachmentRow } from '../store/attachments.store.js';
import type { VolumeRow } from '../store/volumes.store.js';

export interface VolumeViewContext {
  /** `http://host:port` as the client reached us. */
  baseUrl: string;
  /** The caller's project: Cinder builds links from the request context, not the volume. */
  projectId: string;
  version: Microversion;
  isAdmin: boolean;
}

/** What a detail view needs besides the row: its type's name and its attachment rows. */
export interface VolumeViewData {
  typeNames: Map<string, string>;
  attachments: Map<string, AttachmentRow[]>;
  /** volume_image_metadata of the volumes that have any (show and detail only). */
  imageMetadata?: Map<string, Record<string, string>>;
  /** The group of each volume that has one (cloud-groups). */
  groupIds?: Map<string, string>;
}

export function volumeLinks(ctx: VolumeViewContext, id: string) {
  return [
    { rel: 'self', href: `${ctx.baseUrl}/volume/v3/${ctx.projectId}/volumes/${id}` },
    { rel: 'bookmark', href: `${ctx.baseUrl}/volume/${ctx.projectId}/volumes/${id}` },
  ];
}

export function volumeSummary(ctx: VolumeViewContext, v: VolumeRow) {
  return { id: v.id, name: v.name, links: volumeLinks(ctx, v.id) };
}

/** User metadata, with the admin metadata Cinder makes visible (`readonly`) overriding it. */
function metadataOf(v: VolumeRow, withAdminMetadata: boolean): Record<string, string> {
  const user = JSON.parse(v.metadata || '{}') as Record<string, string>;
  return withAdminMetadata && v.readonly_flag !== null ? { ...user, readonly: v.readonly_flag } : user;
}

/**
 * The `attachments` array: only `attached` attachments; host_name only for admins
 * (views/volumes.py `_get_attachments`, captures 32-37, 173).
 */
function attachmentsOf(ctx: VolumeViewContext, rows: AttachmentRow[]) {
  return rows
    .filter((a) => a.attach_status === 'attached')
    .map((a) => ({
      id: a.volume_id,
      attachment_id: a.id,
      volume_id: a.volume_id,
      server_id: a.instance_uuid,
      host_name: ctx.isAdmin ? a.attached_host : null,
      device: a.mountpoint,
      attached_at: cinderTime(a.attached_at),
    }));
}

/**
 * The detail view (views/volumes.py `detail`), gated exactly as Cinder gates it:
 * 3.13 group_id; admin 3.21 provider_id; 3.48 shared_targets + service_uuid; admin 3.61
 * cluster_name; 3.63 volume_type_id; 3.65 consumes_quota; admins always see migration_status.
 * `extensions` adds what the tenant/host/migration extensions add to show and list (not to create
 * or update): os-vol-tenant-attr:tenant_id, and for admins the migration and host attributes.
 * `adminMetadata` shows the readonly flag in metadata (everything but the create response).
 */
export function volumeDetail(
  ctx: VolumeViewContext,
  v: VolumeRow,
  data: VolumeViewData,
  opts: { extensions: boolean; adminMetadata: boolean },
) {
  const mv = ctx.version;
  const scheduled = v.host !== null;
  const typeName = data.typeNames.get(v.volume_type_id) ?? null;
  const out: Record<string, unknown> = {
    id: v.id,
    status: v.status,
    size: v.size,
    availability_zone: v.availability_zone,
    created_at: cinderTime(v.created_at),
    updated_at: cinderTime(v.updated_at),
    name: v.name,
    description: v.description,
    volume_type: typeName ?? (mv.atLeast('3.63') ? null : v.volume_type_id),
    snapshot_id: v.snapshot_id,
    source_volid: v.source_volid,
    metadata: metadataOf(v, opts.adminMetadata),
    links: volumeLinks(ctx, v.id),
    user_id: v.user_id,
    bootable: v.bootable === 1 ? 'true' : 'false',
    encrypted: v.encrypted === 1,
    replication_status: null,
    consistencygroup_id: null,
    multiattach: v.multiattach === 1,
    attachments: attachmentsOf(ctx, data.attachments.get(v.id) ?? []),
  };
  if (ctx.isAdmin) out['migration_status'] = v.migration_status;
  if (mv.atLeast('3.13')) out['group_id'] = data.groupIds?.get(v.id) ?? null;
  if (ctx.isAdmin && mv.atLeast('3.21')) out['provider_id'] = null;
  if (mv.atLeast('3.48')) {
    // The DB default (true) until the LVM backend, which reports shared_targets False, takes it.
    out['shared_targets'] = !scheduled;
    out['service_uuid'] = scheduled ? BACKEND.serviceUuid : null;
  }
  if (ctx.isAdmin && mv.atLeast('3.61')) out['cluster_name'] = null;
  if (mv.atLeast('3.63')) out['volume_type_id'] = v.volume_type_id;
  if (mv.atLeast('3.65')) out['consumes_quota'] = true;
  if (opts.extensions) {
    out['os-vol-tenant-attr:tenant_id'] = v.project_id;
    const image = data.imageMetadata?.get(v.id);
    if (image && Object.keys(image).length > 0) out['volume_image_metadata'] = { ...image };
    if (ctx.isAdmin) {
      out['os-vol-mig-status-attr:migstat'] = v.migration_status;
      out['os-vol-mig-status-attr:name_id'] = null;
      out['os-vol-host-attr:host'] = v.host;
    }
  }
  return out;
}

export function volumeListView(
  ctx: VolumeViewContext,
  rows: VolumeRow[],
  data: VolumeViewData | null,
  extra: { links: { rel: 'next'; href: string }[]; count?: number },
) {
  const volumes = data
    ? rows.map((v) => volumeDetail(ctx, v, data, { extensions: true, adminMetadata: true }))
    : rows.map((v) => volumeSummary(ctx, v));
  return {
    volumes,
    ...(extra.links.length > 0 ? { volumes_links: extra.links } : {}),
    ...(extra.count !== undefined ? { count: extra.count } : {}),
  };
}
