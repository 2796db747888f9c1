import { type AttachMode, attachModeSchema } from '@sv/shared';
import type { CloudClient } from './cloud-client.js';
import { OpenStackFault } from './fault.js';
import { VOLUME } from './microversions.js';
import { type CollectionPage, type CountedPage, listAllPages, queryString } from './paging.js';

/** Cinder calls the BFF makes, turned into plain objects. Only this file knows Cinder's JSON. */

export interface CinderVolumeAttachment {
  attachmentId: string | null;
  serverId: string;
  device: string | null;
  /** Admins only (Cinder blanks it for members). */
  hostName: string | null;
  attachedAt: string | null;
}

export interface CinderVolume {
  id: string;
  name: string;
  description: string | null;
  sizeGb: number;
  status: string;
  typeName: string | null;
  multiattach: boolean;
  bootable: boolean;
  /** Cinder's readonly flag (admin metadata shown in `metadata.readonly`). */
  readonly: boolean;
  availabilityZone: string;
  projectId: string | null;
  createdAt: string;
  updatedAt: string | null;
  /** Cinder lists only `attached` attachments here; see listVolumeAttachments for every state. */
  attachments: CinderVolumeAttachment[];
}

export interface VolumeType {
  id: string;
  name: string;
  description: string | null;
  /** extra spec `multiattach="<is> True"`. */
  multiattach: boolean;
}

/** One Cinder attachment record (GET /attachments/detail, 3.27+). */
export interface CinderAttachment {
  id: string;
  volumeId: string;
  serverId: string | null;
  /** attach_status: reserved, attaching, attached, detaching, error_* */
  status: string;
  /**
   * 3.54's attach_mode. Null while Cinder has none (it stores the string 'null' until the host
   * connects, unless the volume is read-only): the hold is then read-write unless Nova says otherwise.
   */
  mode: AttachMode | null;
  attachedAt: string | null;
  detachedAt: string | null;
}

export interface CreateVolumeInput {
  name: string;
  description?: string;
  sizeGb: number;
  type?: string;
  imageId?: string;
  availabilityZone?: string;
}

// --- Cinder's JSON (only the keys we read) ----------------------------------------------------

interface RawVolume {
  id: string;
  name: string | null;
  description: string | null;
  size: number;
  status: string;
  volume_type: string | null;
  multiattach?: boolean;
  bootable?: string;
  metadata?: Record<string, string>;
  availability_zone: string;
  created_at: string;
  updated_at?: string | null;
  'os-vol-tenant-attr:tenant_id'?: string;
  attachments?: {
    attachment_id?: string;
    server_id: string;
    device?: string | null;
    host_name?: string | null;
    attached_at?: string | null;
  }[];
}

interface RawAttachment {
  id: string;
  status: string;
  instance: string | null;
  volume_id: string;
  attach_mode?: string;
  attached_at?: string;
  detached_at?: string;
}

/** Cinder prints naive UTC times (`2026-11-21T12:22:04.000000`); the web gets ISO with a zone. */
export function cinderIso(t: string | null | undefined): string | null {
  if (!t) return null;
  return /[zZ]|[+-]\d\d:?\d\d$/.test(t) ? t : `${t}Z`;
}

const readVersion = (cloud: CloudClient) => cloud.volumeVersion(VOLUME.base);

function toVolume(v: RawVolume): CinderVolume {
  return {
    id: v.id,
    name: v.name ?? '',
    description: v.description ?? null,
    sizeGb: v.size,
    status: v.status,
    typeName: v.volume_type ?? null,
    multiattach: v.multiattach === true,
    bootable: v.bootable === 'true',
    readonly: v.metadata?.readonly?.toLowerCase() === 'true',
    availabilityZone: v.availability_zone,
    projectId: v['os-vol-tenant-attr:tenant_id'] ?? null,
    createdAt: cinderIso(v.created_at) ?? v.created_at,
    updatedAt: cinderIso(v.updated_at),
    attachments: (v.attachments ?? []).map((a) => ({
      attachmentId: a.attachment_id ?? null,
      serverId: a.server_id,
      device: a.device ?? null,
      hostName: a.host_name ?? null,
      attachedAt: cinderIso(a.attached_at),
    })),
  };
}

function toAttachment(a: RawAttachment): CinderAttachment {
  return {
    id: a.id,
    volumeId: a.volume_id,
    serverId: a.instance,
    status: a.status,
    mode: attachModeSchema.safeParse(a.attach_mode).data ?? null,
    attachedAt: cinderIso(a.attached_at),
    detachedAt: cinderIso(a.detached_at),
  };
}

// --- Volumes ------------------------------------------------------------------------------------

/** Volumes with details; `allProjects` needs an admin token (Cinder's all_tenants). */
export async function listVolumes(
  cloud: CloudClient,
  opts: { allProjects?: boolean; projectId?: string } = {},
): Promise<CinderVolume[]> {
  const volumes = await listAllPages<RawVolume>('volumes', async (paging) => {
    const filters = {
      all_tenants: opts.allProjects || opts.projectId ? '1' : undefined,
      project_id: opts.projectId,
    };
    const res = await cloud.cinder<CollectionPage<RawVolume>>(
      'GET',
      `/volumes/detail${queryString({ ...filters, ...paging })}`,
      { microversion: readVersion(cloud) },
    );
    return res.body;
  });
  return volumes.map(toVolume);
}

/** One volume; Cinder's 404 (with its message) when it does not exist or is another project's. */
export async function getVolume(cloud: CloudClient, volumeId: string): Promise<CinderVolume> {
  const res = await cloud.cinder<{ volume?: RawVolume }>('GET', `/volumes/${encodeURIComponent(volumeId)}`, {
    microversion: readVersion(cloud),
  });
  // `detail` and `summary` name Cinder's collections, which answer without a `volume`.
  if (!res.body.volume) {
    throw new OpenStackFault(
      'block-storage',
      404,
      `Volume ${volumeId} could not be found.`,
      'itemNotFound',
      null,
    );
  }
  return toVolume(res.body.volume);
}

/** Like getVolume, but null on 404. */
export async function findVolume(cloud: CloudClient, volumeId: string): Promise<CinderVolume | null> {
  const res = await cloud.cinder<{ volume?: RawVolume }>('GET', `/volumes/${encodeURIComponent(volumeId)}`, {
    microversion: readVersion(cloud),
    allow: [404],
  });
  return res.status === 404 || !res.body.volume ? null : toVolume(res.body.volume);
}

/** Creates a volume (Cinder answers at once with status `creating`). */
export async function createVolume(cloud: CloudClient, input: CreateVolumeInput): Promise<CinderVolume> {
  const volume: Record<string, unknown> = { name: input.name, size: input.sizeGb };
  if (input.description !== undefined) volume.description = input.description;
  if (input.type !== undefined) volume.volume_type = input.type;
  if (input.imageId !== undefined) volume.imageRef = input.imageId;
  if (input.availabilityZone !== undefined) volume.availability_zone = input.availabilityZone;
  const res = await cloud.cinder<{ volume: RawVolume }>('POST', '/volumes', {
    body: { volume },
    microversion: readVersion(cloud),
  });
  return toVolume(res.body.volume);
}

/** os-set_bootable: marks a volume as one a server may boot from. */
export async function setVolumeBootable(
  cloud: CloudClient,
  volumeId: string,
  bootable: boolean,
): Promise<void> {
  await cloud.cinder('POST', `/volumes/${encodeURIComponent(volumeId)}/action`, {
    body: { 'os-set_bootable': { bootable } },
    microversion: readVersion(cloud),
  });
}

export async function deleteVolume(cloud: CloudClient, volumeId: string): Promise<void> {
  await cloud.cinder('DELETE', `/volumes/${encodeURIComponent(volumeId)}`, {
    microversion: readVersion(cloud),
  });
}

// --- Volume types -------------------------------------------------------------------------------

const isTrue = (spec: string | undefined) => !!spec && /^(<is>\s*)?true$/i.test(spec.trim());

export async function listVolumeTypes(cloud: CloudClient): Promise<VolumeType[]> {
  const res = await cloud.cinder<{
    volume_types: {
      id: string;
      name: string;
      description: string | null;
      extra_specs?: Record<string, string>;
    }[];
  }>('GET', '/types', { microversion: readVersion(cloud) });
  return (res.body.volume_types ?? []).map((t) => ({
    id: t.id,
    name: t.name,
    description: t.description ?? null,
    multiattach: isTrue(t.extra_specs?.multiattach),
  }));
}

// --- Attachments --------------------------------------------------------------------------------

/** Whether the cloud has Cinder's attachments API (3.27); below it only `volume.attachments` exist. */
export const hasAttachmentsApi = (cloud: CloudClient) => cloud.volumeHas(VOLUME.attachments);

/**
 * Cinder's attachment records in every state, with their modes (GET /attachments/detail at up
 * to 3.54). Narrow by volume or server; `allProjects` needs an admin token. Empty below 3.27.
 */
export async function listVolumeAttachments(
  cloud: CloudClient,
  opts: { allProjects?: boolean; volumeId?: string; serverId?: string } = {},
): Promise<CinderAttachment[]> {
  if (!hasAttachmentsApi(cloud)) return [];
  const attachments = await listAllPages<RawAttachment>('attachments', async (paging) => {
    const filters = {
      all_tenants: opts.allProjects ? '1' : undefined,
      volume_id: opts.volumeId,
      instance_id: opts.serverId,
    };
    const res = await cloud.cinder<CollectionPage<RawAttachment>>(
      'GET',
      `/attachments/detail${queryString({ ...filters, ...paging })}`,
      { microversion: cloud.volumeVersion(VOLUME.modes) },
    );
    return res.body;
  });
  return attachments.map(toAttachment);
}

/** The name the brief's callers may look for. */
export const getVolumeAttachmentsDetail = listVolumeAttachments;

// --- L: one page of volumes ---

/** Filters and order Cinder applies to a volume list page (members' filters: resource_filters.json). */
export interface VolumePageQuery {
  status?: string;
  availabilityZone?: string;
  allProjects?: boolean;
  projectId?: string;
  sortKey: 'name' | 'status' | 'size' | 'created_at';
  sortDir: 'asc' | 'desc';
  /** Ask for the count of every match (3.45 `with_count`). */
  withCount?: boolean;
}

function volumeFilters(cloud: CloudClient, q: VolumePageQuery): Record<string, string | undefined> {
  return {
    all_tenants: q.allProjects || q.projectId ? '1' : undefined,
    project_id: q.projectId,
    status: q.status,
    availability_zone: q.availabilityZone,
    sort_key: q.sortKey,
    sort_dir: q.sortDir,
    with_count: q.withCount && cloud.volumeHas('3.45') ? 'true' : undefined,
  };
}

/** A fetcher of one detailed page of volumes, for `onePage`/`markerAfter`; `count` at 3.45. */
export function volumePager(
  cloud: CloudClient,
  q: VolumePageQuery,
): (paging: { limit: string; marker?: string }) => Promise<CountedPage<CinderVolume>> {
  return async (paging) => {
    const res = await cloud.cinder<CountedPage<RawVolume>>(
      'GET',
      `/volumes/detail${queryString({ ...volumeFilters(cloud, q), ...paging })}`,
      { microversion: readVersion(cloud) },
    );
    const volumes = ((res.body.volumes ?? []) as RawVolume[]).map(toVolume);
    return typeof res.body.count === 'number' ? { volumes, count: res.body.count } : { volumes };
  };
}

/** The same pages from Cinder's summary list (ids and names): enough to find where a later page starts. */
export function volumeIdPager(
  cloud: CloudClient,
  q: VolumePageQuery,
): (paging: { limit: string; marker?: string }) => Promise<CollectionPage<{ id: string }>> {
  return async (paging) => {
    const res = await cloud.cinder<CollectionPage<{ id: string }>>(
      'GET',
      `/volumes${queryString({ ...volumeFilters(cloud, { ...q, withCount: false }), ...paging })}`,
      { microversion: readVersion(cloud) },
    );
    return { volumes: ((res.body.volumes ?? []) as { id: string }[]).map((v) => ({ id: v.id })) };
  };
}
