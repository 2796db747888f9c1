import { z } from 'zod';

/**
 * Every `code` the BFF can put in an error body: what the web app branches on. The BFF's ApiError
 * takes only these (a new code is added here first), and its error handler refuses to send any other.
 */
export const apiErrorCodeSchema = z.enum([
  // The request itself: its URL, headers, body or fields.
  'invalid_request',
  'malformed_url',
  'malformed_request',
  'malformed_json',
  'malformed_body',
  'unsupported_body',
  'too_large',
  'request_too_large',
  'request_timeout',
  'unknown_reference',
  // Who is asking: session, sign-in, CSRF and origin checks.
  'not_authenticated',
  'session_expired',
  'wrong_credentials',
  'too_many_attempts',
  'no_project',
  'unknown_project',
  'csrf_failed',
  'cross_origin',
  'forbidden',
  'not_found',
  // The dashboard's rules about shared volumes and launches.
  'read_only_unavailable',
  'shared_attach_unavailable',
  'multiple_writers_unacknowledged',
  'launch_not_possible',
  'attach_failed',
  'attach_timeout',
  // What the cloud answered, translated.
  'cloud_rejected',
  'conflict',
  'over_limit',
  'cloud_error',
  'cloud_incomplete',
  'cloud_unavailable',
  'cloud_unreachable',
  // The BFF's own parts.
  'sessions_unavailable',
  'database_unavailable',
  'volume_busy',
  'contract_violation',
  'internal',
  // --- Q: volume actions ---
  /** The cloud refused an extend, type change or bootable change for the volume's state; its message says why. */
  'volume_action_refused',
  // --- web17: snapshots ---
  /** The cloud refused to take or delete a snapshot, or to make a volume from one, in its state; its message says why. */
  'snapshot_refused',
]);
export type ApiErrorCode = z.infer<typeof apiErrorCodeSchema>;
/** The codes by name, to compare with: `err.code === ApiErrorCode.not_found`. */
export const ApiErrorCode = apiErrorCodeSchema.enum;

/**
 * Every error the BFF returns to the web app. `code` is one of the codes above; `message` is for
 * people (an OpenStack fault keeps the cloud's wording); `requestId` is the request's id (also its
 * X-Request-Id header), which the BFF's log and the cloud's log lines for that request carry: the
 * UI shows it for people to quote.
 */
export const apiErrorSchema = z.object({
  error: z.object({
    code: apiErrorCodeSchema,
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
    requestId: z.string().optional(),
  }),
});

export type ApiError = z.infer<typeof apiErrorSchema>;
