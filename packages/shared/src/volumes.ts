import { z } from 'zod';

export const attachModeSchema = z.enum(['rw', 'ro']);
export type AttachMode = z.infer<typeof attachModeSchema>;

/** One server's hold on a volume, as the dashboard shows it. */
export const attachmentSchema = z.object({
  /** The Cinder attachment id (null for a mapping not yet reserved). */
  attachmentId: z.string().nullable(),
  serverId: z.string(),
  serverName: z.string().nullable(),
  volumeId: z.string(),
  volumeName: z.string().nullable(),
  device: z.string().nullable(),
  mode: attachModeSchema,
  /** Cinder's attach_status: reserved, attaching, attached, detaching, error_* */
  state: z.string(),
  /** Admins see the compute host; members see null. */
  host: z.string().nullable(),
  since: z.string().nullable(),
  /**
   * Whether the compute service (Nova) lists this attachment on the server. Cinder accepts an
   * attachment naming any server, so false marks a record that is nobody's volume (shown only on
   * its volume's page, as such); null when the user cannot see the server to ask.
   */
  knownToCompute: z.boolean().nullable(),
});
export type Attachment = z.infer<typeof attachmentSchema>;

export const volumeSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  sizeGb: z.number().int(),
  status: z.string(),
  type: z.string().nullable(),
  shared: z.boolean(),
  bootable: z.boolean(),
  readonly: z.boolean(),
  availabilityZone: z.string(),
  projectId: z.string().nullable(),
  createdAt: z.string(),
  attachments: z.array(attachmentSchema),
});
export type Volume = z.infer<typeof volumeSchema>;

export const volumeListSchema = z.object({ volumes: z.array(volumeSchema) });
export type VolumeList = z.infer<typeof volumeListSchema>;

export const createVolumeRequestSchema = z.object({
  name: z.string().trim().min(1, 'Give the volume a name').max(255, 'Use at most 255 characters'),
  description: z.string().max(255, 'Use at most 255 characters').optional(),
  /** A JSON number: `"10"`, `"0x10"`, `true` or `[10]` are refused, not converted. */
  sizeGb: z
    .number({ error: 'Size must be a whole number of GB' })
    .int('Size must be a whole number of GB')
    .min(1, 'Size must be between 1 and 16,384 GB')
    .max(16_384, 'Size must be between 1 and 16,384 GB'),
  type: z.string().min(1).max(255).optional(),
  bootable: z.boolean().default(false),
  /** Boot image for a bootable volume. */
  imageId: z.string().max(64).optional(),
});
export type CreateVolumeRequest = z.infer<typeof createVolumeRequestSchema>;

export const volumeTypeSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  shared: z.boolean(),
});
export type VolumeType = z.infer<typeof volumeTypeSchema>;
export const volumeTypeListSchema = z.object({ types: z.array(volumeTypeSchema) });

/** `?all=1` on lists: an admin asks for every project's resources (members are refused). */
export const listScopeQuerySchema = z.object({
  all: z
    .enum(['0', '1', 'true', 'false'], { message: 'all must be 1 or 0' })
    .optional()
    .transform((v) => v === '1' || v === 'true'),
});
export type ListScopeQuery = z.infer<typeof listScopeQuerySchema>;

/** The answer to a request the cloud carries out in the background (delete, detach). */
export const acceptedSchema = z.object({ accepted: z.literal(true) });
export type Accepted = z.infer<typeof acceptedSchema>;
