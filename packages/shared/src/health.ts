import { z } from 'zod';

/**
 * GET /api/health, for a load balancer and for the dashboard's "cannot reach the cloud" banner:
 * 200 when the BFF reaches every part it needs, 503 naming the part that is down. It says whether a
 * part answers, never where it is or what the network said (that is in the BFF's log).
 */
export const healthCheckSchema = z.object({
  status: z.enum(['ok', 'unreachable']),
  /** How long the probe took, in milliseconds. */
  ms: z.number().int().nonnegative(),
});

export const healthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  checks: z.object({
    /** The cloud's Keystone (the BFF's OS_AUTH_URL) answers. */
    cloud: healthCheckSchema,
    /** The BFF's PostgreSQL (sessions, launches), when DATABASE_URL gives it one. */
    database: healthCheckSchema.optional(),
  }),
  /** When the probes ran: answers within a second or two share one probe. */
  checkedAt: z.string(),
});

export type Health = z.infer<typeof healthSchema>;
