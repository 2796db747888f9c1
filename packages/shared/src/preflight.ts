import { z } from 'zod';

/** Why an attach cannot happen, in words a person can act on, with a stable code. */
export const refusalSchema = z.object({
  code: z.enum([
    'server_state',
    'host_no_multiattach',
    'host_too_old_for_modes',
    'availability_zone',
    'volume_status',
    'volume_not_shared',
    'already_attached',
    'microversion',
    'not_found',
  ]),
  message: z.string(),
});
export type Refusal = z.infer<typeof refusalSchema>;

export const candidateSchema = z.object({
  /** The server (when asking about a volume) or the volume (when asking about a server). */
  id: z.string(),
  name: z.string(),
  status: z.string(),
  canAttach: z.boolean(),
  /** ro is possible too (host new enough, cloud supports modes). */
  canAttachReadOnly: z.boolean(),
  /** Why the attach cannot happen at all (empty when canAttach). */
  reasons: z.array(refusalSchema),
  /** Refusals that concern read-only alone (host too old for modes, cloud below 2.105). */
  readOnlyReasons: z.array(refusalSchema).optional(),
  /** For volumes: how many attachments and in which modes already. */
  attachments: z.object({ rw: z.number(), ro: z.number() }).optional(),
  shared: z.boolean().optional(),
});
export type Candidate = z.infer<typeof candidateSchema>;

export const preflightSchema = z.object({
  subject: z.object({ kind: z.enum(['volume', 'server']), id: z.string(), name: z.string() }),
  candidates: z.array(candidateSchema),
  /** Rules the dashboard could not check for this user (e.g. host facts members cannot see); Nova still does. */
  unchecked: z.array(refusalSchema).optional(),
});
export type Preflight = z.infer<typeof preflightSchema>;

/** GET /api/preflight/attach: ask about one volume (?volumeId) or one server (?serverId). */
export const preflightQuerySchema = z
  .object({
    volumeId: z.string().trim().min(1).max(64).optional(),
    serverId: z.string().trim().min(1).max(64).optional(),
  })
  .refine((q) => (q.volumeId === undefined) !== (q.serverId === undefined), {
    message: 'Give either volumeId or serverId',
  });
export type PreflightQuery = z.infer<typeof preflightQuerySchema>;
