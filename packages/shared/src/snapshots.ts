import { z } from 'zod';

/** Cinder snapshots of a volume, as the volume page and the Snapshots page show them. */

export const snapshotSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** Cinder's status: creating, available, deleting, error, error_deleting, … */
  status: z.string(),
  /** The size of the volume when it was taken: a volume made from it is at least this large. */
  sizeGb: z.number().int(),
  volumeId: z.string(),
  /** The volume's name when the user can still see it (null once it is gone). */
  volumeName: z.string().nullable(),
  projectId: z.string().nullable(),
  createdAt: z.string(),
});
export type Snapshot = z.infer<typeof snapshotSchema>;

export const snapshotListSchema = z.object({ snapshots: z.array(snapshotSchema) });
export type SnapshotList = z.infer<typeof snapshotListSchema>;

const nameSchema = z
  .string()
  .trim()
  .min(1, 'Give the snapshot a name')
  .max(255, 'Use at most 255 characters');

/**
 * Snapshot a volume. Cinder (before 3.66) refuses a volume that is in use unless `force` is set: a
 * snapshot of a disk a server is writing to holds what had reached the disk, like a power cut, so
 * the user says so knowingly.
 */
export const createSnapshotRequestSchema = z.object({
  name: nameSchema,
  description: z.string().max(255, 'Use at most 255 characters').optional(),
  force: z.boolean({ error: 'Say whether to snapshot an in-use volume: true or false' }).default(false),
});
export type CreateSnapshotRequest = z.infer<typeof createSnapshotRequestSchema>;
export type CreateSnapshotRequestInput = z.input<typeof createSnapshotRequestSchema>;

/** A new volume holding the snapshot's data; its size defaults to the snapshot's and may not be smaller. */
export const createVolumeFromSnapshotRequestSchema = z.object({
  name: z.string().trim().min(1, 'Give the volume a name').max(255, 'Use at most 255 characters'),
  sizeGb: z
    .number({ error: 'Size must be a whole number of GB' })
    .int('Size must be a whole number of GB')
    .min(1, 'Size must be between 1 and 16,384 GB')
    .max(16_384, 'Size must be between 1 and 16,384 GB')
    .optional(),
  /** A volume type; the cloud decides whether it may differ from the snapshot's. */
  type: z.string().min(1).max(255).optional(),
});
export type CreateVolumeFromSnapshotRequest = z.infer<typeof createVolumeFromSnapshotRequestSchema>;

/** The answer to "create a volume from a snapshot": the new volume, `creating` until the cloud is done. */
export const createdVolumeSchema = z.object({ volumeId: z.string() });
export type CreatedVolume = z.infer<typeof createdVolumeSchema>;
