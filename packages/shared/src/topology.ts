import { z } from 'zod';
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
    }),
  ),
  risks: z.array(
    z.object({
      kind: z.enum(['multiple_writers', 'stuck_attachment']),
      volumeId: z.string(),
      serverIds: z.array(z.string()),
      message: z.string(),
    }),
  ),
  generatedAt: z.string(),
});
export type Topology = z.infer<typeof topologySchema>;
