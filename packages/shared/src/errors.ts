import { z } from 'zod';

/**
 * Every error the BFF returns to the web app. `code` is a stable snake_case string the UI
 * can branch on; `message` is for people (an OpenStack fault keeps the cloud's wording);
 * `requestId` is the request's id (also its X-Request-Id header), which the BFF's log and the
 * cloud's log lines for that request carry: the UI shows it for people to quote.
 */
export const apiErrorSchema = z.object({
  error: z.object({
    code: z.string().min(1),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
    requestId: z.string().optional(),
  }),
});

export type ApiError = z.infer<typeof apiErrorSchema>;
