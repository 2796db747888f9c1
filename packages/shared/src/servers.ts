import { z } from 'zod';
import { attachModeSchema, attachmentSchema } from './volumes.js';

export const serverSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  /** Nova's task_state while something is in progress. */
  task: z.string().nullable(),
  flavor: z.object({ id: z.string().nullable(), name: z.string().nullable() }),
  image: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
  availabilityZone: z.string().nullable(),
  /** Admins see the host name; members see null. */
  host: z.string().nullable(),
  projectId: z.string().nullable(),
  fault: z.string().nullable(),
  createdAt: z.string(),
  attachments: z.array(attachmentSchema),
  /** Nova's `addresses`, by network name: every fixed (and floating) address the server has. */
  addresses: z
    .array(
      z.object({
        network: z.string(),
        address: z.string(),
        version: z.number().int(),
        /** OS-EXT-IPS:type: fixed or floating (null when the cloud does not say). */
        type: z.string().nullable(),
      }),
    )
    .default([]),
  /** The key pair injected at create (Nova's key_name), or null. */
  keyName: z.string().nullable().default(null),
  /** Security group names Nova lists on the server. */
  securityGroups: z.array(z.string()).default([]),
});
export type Server = z.infer<typeof serverSchema>;
export const serverListSchema = z.object({ servers: z.array(serverSchema) });

export const attachVolumeRequestSchema = z.object({
  volumeId: z.string().min(1, 'Choose a volume').max(64),
  mode: attachModeSchema.default('rw'),
  /** Required when this would add a second read-write attachment to a shared volume. */
  acknowledgeMultipleWriters: z.boolean().default(false),
});
export type AttachVolumeRequest = z.infer<typeof attachVolumeRequestSchema>;

export const flavorSchema = z.object({
  id: z.string(),
  name: z.string(),
  vcpus: z.number(),
  ramMb: z.number(),
  diskGb: z.number(),
});
export const flavorListSchema = z.object({ flavors: z.array(flavorSchema) });
export const imageSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  sizeBytes: z.number().nullable(),
});
export const imageListSchema = z.object({ images: z.array(imageSchema) });
export const availabilityZoneListSchema = z.object({
  zones: z.array(z.object({ name: z.string(), available: z.boolean() })),
});
