import { BOOLEAN_ENUM, boolFromString } from '../../platform/validation/parameter-types.js';
import { requestSchema, validateBody } from './validation.js';

/**
 * The os-volumes / os-snapshots proxy's bodies (`schemas/volumes.py` `create`, `snapshot_create`):
 * a size given as a number or digits, at least 1; names and descriptions as strings.
 */

interface VolumeCreateBody {
  volume: {
    volume_type?: string;
    metadata?: Record<string, string>;
    snapshot_id?: string;
    size: number | string;
    availability_zone?: string;
    display_name?: string;
    display_description?: string;
  };
}

const volumeCreateSchema = requestSchema<VolumeCreateBody>({
  type: 'object',
  properties: {
    volume: {
      type: 'object',
      properties: {
        volume_type: { type: 'string' },
        metadata: { type: 'object' },
        snapshot_id: { type: 'string' },
        size: { type: ['integer', 'string'], pattern: '^[0-9]+$', minimum: 1 },
        availability_zone: { type: 'string' },
        display_name: { type: 'string' },
        display_description: { type: 'string' },
      },
      required: ['size'],
      additionalProperties: false,
    },
  },
  required: ['volume'],
  additionalProperties: false,
});

export interface ProxyVolumeCreate {
  size: number;
  name: string | null;
  description: string | null;
  volumeType: string | null;
  metadata: Record<string, string> | null;
  snapshotId: string | null;
  availabilityZone: string | null;
}

export function parseProxyVolumeCreate(body: unknown): ProxyVolumeCreate {
  const { volume } = validateBody(volumeCreateSchema, body);
  return {
    size: Number(volume.size),
    name: volume.display_name ?? null,
    description: volume.display_description ?? null,
    volumeType: volume.volume_type ?? null,
    metadata: volume.metadata ?? null,
    snapshotId: volume.snapshot_id ?? null,
    availabilityZone: volume.availability_zone ?? null,
  };
}

interface SnapshotCreateBody {
  snapshot: {
    volume_id: string;
    force?: boolean | string;
    display_name?: string;
    display_description?: string;
  };
}

const snapshotCreateSchema = requestSchema<SnapshotCreateBody>({
  type: 'object',
  properties: {
    snapshot: {
      type: 'object',
      properties: {
        volume_id: { type: 'string' },
        force: { type: ['boolean', 'string'], enum: BOOLEAN_ENUM },
        display_name: { type: 'string' },
        display_description: { type: 'string' },
      },
      required: ['volume_id'],
      additionalProperties: false,
    },
  },
  required: ['snapshot'],
  additionalProperties: false,
});

export interface ProxySnapshotCreate {
  volumeId: string;
  force: boolean;
  name: string | null;
  description: string | null;
}

export function parseProxySnapshotCreate(body: unknown): ProxySnapshotCreate {
  const { snapshot } = validateBody(snapshotCreateSchema, body);
  return {
    volumeId: snapshot.volume_id,
    force: boolFromString(snapshot.force ?? false),
    name: snapshot.display_name ?? null,
    description: snapshot.display_description ?? null,
  };
}
