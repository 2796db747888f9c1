import { z } from 'zod';
import { projectRefSchema } from './session.js';
import { attachModeSchema } from './volumes.js';

export const topologySchema = z.object({
  source: z.enum(['extension', 'composed']),
  hostNamesHidden: z.boolean(),
  hosts: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      zone: z.string().nullable(),
      serverIds: z.array(z.string()),
      /** Admins only (null when unknown or hidden): nova-compute service state and status. */
      state: z.string().nullable().optional(),
      status: z.string().nullable().optional(),
      /** Admins only: whether the host's driver can share a disk, and take read-only attach modes. */
      supportsMultiattach: z.boolean().nullable().optional(),
      supportsAttachModes: z.boolean().nullable().optional(),
    }),
  ),
  servers: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      status: z.string(),
      hostId: z.string().nullable(),
      projectId: z.string().nullable(),
    }),
  ),
  volumes: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      status: z.string(),
      shared: z.boolean(),
      projectId: z.string().nullable(),
      rw: z.number(),
      ro: z.number(),
    }),
  ),
  edges: z.array(
    z.object({
      serverId: z.string(),
      volumeId: z.string(),
      mode: attachModeSchema,
      state: z.string(),
      device: z.string().nullable(),
      since: z.string().nullable(),
      /** The Cinder attachment id (null when Nova's mapping has none). */
      attachmentId: z.string().nullable().optional(),
    }),
  ),
  risks: z.array(
    z.object({
      kind: z.enum(['multiple_writers', 'stuck_attachment']),
      volumeId: z.string(),
      serverIds: z.array(z.string()),
      message: z.string(),
      /** stuck_attachment: the attachment, its state and since when it has been in it. */
      attachmentId: z.string().nullable().optional(),
      state: z.string().nullable().optional(),
      since: z.string().nullable().optional(),
    }),
  ),
  /**
   * Names of the projects owning what is in view, for the project filter: every project for an
   * admin (from Keystone), the user's own for a member. Absent when Keystone would not list them.
   */
  projects: z.array(projectRefSchema).optional(),
  generatedAt: z.string(),
});
export type Topology = z.infer<typeof topologySchema>;

/** GET /api/topology filters; project and host are for admins (a member's host is Nova's hashed hostId). */
export const topologyQuerySchema = z.object({
  project: z.string().trim().min(1).max(64).optional(),
  host: z.string().trim().min(1).max(255).optional(),
  volume: z.string().trim().min(1).max(64).optional(),
});
export type TopologyQuery = z.infer<typeof topologyQuerySchema>;
