import { z } from 'zod';

export const loginRequestSchema = z.object({
  username: z
    .string({ error: 'Enter your user name' })
    .trim()
    .min(1, 'Enter your user name')
    .max(255, 'Use at most 255 characters'),
  password: z
    .string({ error: 'Enter your password' })
    .min(1, 'Enter your password')
    .max(4096, 'Use at most 4,096 characters'),
  /** Project name; empty means the user's first project. */
  project: z.string().trim().max(255, 'Use at most 255 characters').optional(),
  domain: z.string().trim().min(1).max(255).default('Default'),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const switchProjectRequestSchema = z.object({ projectId: z.string().min(1).max(64) });
export type SwitchProjectRequest = z.infer<typeof switchProjectRequestSchema>;

export const projectRefSchema = z.object({ id: z.string(), name: z.string() });
export type ProjectRef = z.infer<typeof projectRefSchema>;

/** What the dashboard can offer on this cloud, and why not when it cannot. */
export const capabilitiesSchema = z.object({
  compute: z.object({ minVersion: z.string(), maxVersion: z.string() }),
  volume: z.object({ minVersion: z.string(), maxVersion: z.string() }),
  /** The enhancement microversion 2.105: multi-create on one shared volume, attach modes. */
  multiattachEnhancements: z.boolean(),
  /** Compute ≥ 2.60: multiattach volumes can be attached at all. */
  multiattach: z.boolean(),
  readOnlyAttach: z.object({ available: z.boolean(), reason: z.string().nullable() }),
  launchStrategy: z.enum(['multi-create', 'serial']),
  launchStrategyReason: z.string(),
  /** The cloud's topology extension, else the BFF composes the graph from standard APIs. */
  topologyExtension: z.boolean(),
});
export type Capabilities = z.infer<typeof capabilitiesSchema>;

export const sessionSchema = z.object({
  user: z.object({ id: z.string(), name: z.string() }),
  project: projectRefSchema,
  projects: z.array(projectRefSchema),
  roles: z.array(z.string()),
  isAdmin: z.boolean(),
  /** Send back as X-CSRF-Token on every mutation. */
  csrfToken: z.string(),
  expiresAt: z.string(),
  capabilities: capabilitiesSchema,
});
export type Session = z.infer<typeof sessionSchema>;
