import { z } from 'zod';

/** Server-Sent Events on /api/events: which resources changed, so the web app refetches them. */
export const changeEventSchema = z.object({
  kind: z.enum(['volumes', 'servers', 'attachments', 'launch']),
  ids: z.array(z.string()),
  at: z.string(),
});
export type ChangeEvent = z.infer<typeof changeEventSchema>;
