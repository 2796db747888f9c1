import { z } from 'zod';
import { attachModeSchema } from './volumes.js';

export const launchRequestSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, 'Give the servers a name')
      .max(60, 'Use at most 60 characters (each server adds -1, -2, … to it)')
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'Letters, digits, dot, dash and underscore only'),
    /** A JSON number, as every count and size in the contract: strings and booleans are refused. */
    count: z
      .number({ error: 'Enter a whole number of servers' })
      .int('Enter a whole number of servers')
      .min(1, 'Launch between 1 and 200 servers at once')
      .max(200, 'Launch between 1 and 200 servers at once'),
    flavorId: z.string().min(1, 'Choose a flavor').max(255),
    boot: z.discriminatedUnion('source', [
      z.object({ source: z.literal('image'), imageId: z.string().min(1, 'Choose an image').max(64) }),
      z.object({
        source: z.literal('volume'),
        volumeId: z.string().min(1, 'Choose a volume').max(64),
        mode: attachModeSchema.default('rw'),
      }),
    ]),
    dataVolumes: z
      .array(z.object({ volumeId: z.string().min(1).max(64), mode: attachModeSchema.default('rw') }))
      .max(8, 'At most 8 data volumes')
      .default([]),
    availabilityZone: z.string().max(255, 'Use at most 255 characters').optional(),
    /**
     * Network ids, each server gets a port on every one; `none` keeps them off any network (the
     * compute API takes it from 2.37). Absent: the cloud's choice (`auto` from 2.37: the project's
     * one network). The wizard always says which.
     */
    networks: z
      .union([
        z.literal('none'),
        z
          .array(z.string().trim().min(1, 'Choose a network').max(64))
          .min(1, 'Choose at least one network, or launch without a network')
          .max(8, 'At most 8 networks'),
      ])
      .optional(),
    /** Security group names or ids; absent: the cloud's (the project's `default`). */
    securityGroups: z
      .array(z.string().trim().min(1, 'Choose a security group').max(255))
      .max(10, 'At most 10 security groups')
      .optional(),
    /** A key pair of this user's, injected into every server. */
    keyName: z.string().trim().min(1).max(255, 'Use at most 255 characters').optional(),
    /**
     * Required when a shared volume would have more than one read-write holder (this launch's
     * servers and any it has already), as for an attach.
     */
    acknowledgeMultipleWriters: z.boolean().default(false),
  })
  .refine((r) => new Set(r.dataVolumes.map((d) => d.volumeId)).size === r.dataVolumes.length, {
    message: 'A volume can be added only once',
    path: ['dataVolumes'],
  })
  .refine(
    (r) =>
      r.boot.source !== 'volume' ||
      !r.dataVolumes.some((d) => d.volumeId === (r.boot as { volumeId: string }).volumeId),
    {
      message: 'The boot volume cannot also be a data volume',
      path: ['dataVolumes'],
    },
  );
export type LaunchRequest = z.infer<typeof launchRequestSchema>;

export const launchServerProgressSchema = z.object({
  index: z.number().int(),
  name: z.string(),
  serverId: z.string().nullable(),
  /** pending → creating → building → attaching → active; or failed */
  state: z.enum(['pending', 'creating', 'building', 'attaching', 'active', 'failed']),
  status: z.string().nullable(),
  host: z.string().nullable(),
  attachments: z.array(
    z.object({
      volumeId: z.string(),
      mode: attachModeSchema,
      state: z.string(),
      device: z.string().nullable(),
    }),
  ),
  error: z.string().nullable(),
  /** A failed server deleted by "delete the failed servers": `deleting` until the cloud has let it go. */
  removal: z.enum(['deleting', 'deleted']).nullable().optional(),
});
export type LaunchServerProgress = z.infer<typeof launchServerProgressSchema>;

/** What one action on a launch did to one server. */
export const launchActionResultSchema = z.object({
  index: z.number().int(),
  name: z.string(),
  serverId: z.string().nullable(),
  /** In words: "Deleted", "Re-created", "Was active after all", or the cloud's refusal. */
  outcome: z.string(),
  ok: z.boolean(),
});

/**
 * Something done to a launch after it started: the user's two actions on its failed servers,
 * and the dashboard picking it up after a restart (or marking it interrupted when it could not).
 */
export const launchActionSchema = z.object({
  kind: z.enum(['delete-failed', 'retry-failed', 'resumed', 'interrupted']),
  at: z.string(),
  results: z.array(launchActionResultSchema),
});
export type LaunchAction = z.infer<typeof launchActionSchema>;

export const launchStatusSchema = z.enum(['running', 'succeeded', 'partial', 'failed', 'interrupted']);
export type LaunchStatus = z.infer<typeof launchStatusSchema>;

export const launchSchema = z.object({
  id: z.string(),
  strategy: z.enum(['multi-create', 'serial']),
  /**
   * running until every server is active or failed; interrupted when the dashboard stopped
   * while it ran and no dashboard process could continue it.
   */
  status: launchStatusSchema,
  request: launchRequestSchema,
  reservationId: z.string().nullable(),
  servers: z.array(launchServerProgressSchema),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  summary: z.string(),
  /** Newest last. */
  actions: z.array(launchActionSchema).optional(),
});
export type Launch = z.infer<typeof launchSchema>;

/** A quota the launch would use, as the plan weighs it. */
export const launchQuotaCheckSchema = z.object({
  resource: z.enum(['instances', 'cores', 'ram', 'volumes', 'gigabytes']),
  label: z.string(),
  /** What this launch takes. */
  need: z.number(),
  /** What the project has left (null: unlimited). */
  left: z.number().nullable(),
});
export type LaunchQuotaCheck = z.infer<typeof launchQuotaCheckSchema>;

/**
 * Whether the cloud will place every server, asked before launch:
 * - `dry-run`: the bundled cloud's scheduler dry-run extension (POST /os-scheduler-dry-run, 2.105);
 * - `placement` / `hypervisors`: an admin's plan on a real cloud, from placement's or Nova's figures;
 * - `unchecked`: a member on a real cloud, who may not read host figures (Nova's scheduler decides).
 */
export const launchCapacitySchema = z.object({
  source: z.enum(['dry-run', 'placement', 'hypervisors', 'unchecked']),
  requested: z.number().int(),
  /** How many of them fit now (null when unchecked). */
  fits: z.number().int().nullable(),
  /** Per availability zone (the chosen one alone when a zone was chosen). */
  zones: z.array(z.object({ zone: z.string(), fits: z.number().int() })),
  /** In words: what was checked, or why it could not be. */
  note: z.string(),
});
export type LaunchCapacity = z.infer<typeof launchCapacitySchema>;

/** What a launch will do, shown on the wizard's review step before anything is created. */
export const launchPlanSchema = z.object({
  strategy: z.enum(['multi-create', 'serial']),
  strategyReason: z.string(),
  requests: z.array(z.string()),
  /** What stops the launch; `ok` is false while there is one. */
  problems: z.array(z.object({ field: z.string(), message: z.string() })),
  /** What the user should know but does not stop it (a zone the volume is not in, capacity unchecked). */
  warnings: z.array(z.object({ field: z.string(), message: z.string() })).default([]),
  /** The quotas this launch uses, with what is left. */
  quotas: z.array(launchQuotaCheckSchema).default([]),
  capacity: launchCapacitySchema.nullable().default(null),
  /**
   * The largest count that quotas and capacity allow, when it is below the request (the plan
   * offers to launch that many); null when the request fits or nothing could be counted.
   */
  maxCount: z.number().int().nullable().default(null),
  ok: z.boolean(),
});
export type LaunchPlan = z.infer<typeof launchPlanSchema>;

/** GET /api/launches: the project's recent launches, newest first. */
export const launchListSchema = z.object({ launches: z.array(launchSchema) });
export type LaunchList = z.infer<typeof launchListSchema>;
