import { z } from 'zod';
import { apiErrorCodeSchema } from './errors.js';

/** Detaching several attachments at once (a volume from some of its servers, a server's volumes). */

export const BULK_DETACH_MAX = 50;

export const bulkDetachRequestSchema = z.object({
  items: z
    .array(
      z.object({
        serverId: z.string().min(1).max(64),
        volumeId: z.string().min(1).max(64),
      }),
    )
    .min(1, 'Choose at least one attachment to detach')
    .max(BULK_DETACH_MAX, `Detach at most ${BULK_DETACH_MAX} attachments at once`),
});
export type BulkDetachRequest = z.infer<typeof bulkDetachRequestSchema>;

/**
 * One attachment's outcome: `detached` (gone), `detaching` (accepted, not finished within the wait)
 * or `refused`, with the cloud's words and the typed code.
 */
export const detachOutcomeSchema = z.object({
  serverId: z.string(),
  volumeId: z.string(),
  outcome: z.enum(['detached', 'detaching', 'refused']),
  code: apiErrorCodeSchema.nullable(),
  message: z.string().nullable(),
});
export type DetachOutcome = z.infer<typeof detachOutcomeSchema>;

export const bulkDetachResultSchema = z.object({ outcomes: z.array(detachOutcomeSchema) });
export type BulkDetachResult = z.infer<typeof bulkDetachResultSchema>;
