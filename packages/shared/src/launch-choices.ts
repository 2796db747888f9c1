import { z } from 'zod';

/*
 * What the launch wizard picks from beyond flavors, images and zones: networks with their subnets,
 * security groups, key pairs, and the project's quota use. The BFF reads them from Neutron and Nova;
 * on a cloud without a network service the lists are empty and `networkService` says so.
 */

export const subnetChoiceSchema = z.object({
  id: z.string(),
  name: z.string(),
  cidr: z.string(),
  ipVersion: z.number().int(),
  gatewayIp: z.string().nullable(),
});
export type SubnetChoice = z.infer<typeof subnetChoiceSchema>;

export const networkChoiceSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Neutron's status: ACTIVE, DOWN, BUILD, ERROR. */
  status: z.string(),
  /** Shared by the cloud's operator with every project. */
  shared: z.boolean(),
  /** router:external: a provider network servers usually do not plug into directly. */
  external: z.boolean(),
  /** Another project's network this user sees (shared, or an admin's view). */
  projectId: z.string().nullable(),
  subnets: z.array(subnetChoiceSchema),
});
export type NetworkChoice = z.infer<typeof networkChoiceSchema>;

/** GET /api/networks */
export const networkChoicesSchema = z.object({
  /** false: the cloud's catalog has no network service (servers can only launch without a network). */
  networkService: z.boolean(),
  /** Whether the compute API takes `networks: "none"` (2.37 and later). */
  noneAllowed: z.boolean(),
  networks: z.array(networkChoiceSchema),
});
export type NetworkChoices = z.infer<typeof networkChoicesSchema>;

export const securityGroupChoiceSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** How many rules it has (ingress and egress). */
  ruleCount: z.number().int(),
});
export type SecurityGroupChoice = z.infer<typeof securityGroupChoiceSchema>;

/** GET /api/security-groups */
export const securityGroupChoicesSchema = z.object({
  networkService: z.boolean(),
  securityGroups: z.array(securityGroupChoiceSchema),
});
export type SecurityGroupChoices = z.infer<typeof securityGroupChoicesSchema>;

export const keyPairSchema = z.object({
  name: z.string(),
  fingerprint: z.string(),
  /** Nova's `type` (2.2): ssh or x509. */
  type: z.string(),
});
export type KeyPair = z.infer<typeof keyPairSchema>;

/** GET /api/key-pairs */
export const keyPairListSchema = z.object({ keyPairs: z.array(keyPairSchema) });
export type KeyPairList = z.infer<typeof keyPairListSchema>;

/** Nova's rule for key pair names: letters, digits, space, underscore, dash, dot; 1 to 255. */
export const keyPairNameSchema = z
  .string()
  .trim()
  .min(1, 'Give the key pair a name')
  .max(255, 'Use at most 255 characters')
  .regex(/^[A-Za-z0-9 _.-]+$/, 'Letters, digits, spaces, dot, dash and underscore only');

/**
 * POST /api/key-pairs: with `publicKey`, imports it; without, the cloud makes a new pair and the
 * answer carries its private key, once (the cloud keeps only the public half).
 */
export const createKeyPairRequestSchema = z.object({
  name: keyPairNameSchema,
  publicKey: z
    .string()
    .trim()
    .min(1, 'Paste the public key, or leave the field out to create a new pair')
    .max(16_384, 'A public key is at most 16 KiB')
    .optional(),
});
export type CreateKeyPairRequest = z.infer<typeof createKeyPairRequestSchema>;

export const createdKeyPairSchema = z.object({
  keyPair: keyPairSchema,
  /** Only for a pair the cloud made: shown once, never stored by the dashboard. */
  privateKey: z.string().nullable(),
});
export type CreatedKeyPair = z.infer<typeof createdKeyPairSchema>;

export const quotaResourceSchema = z.enum(['instances', 'cores', 'ram', 'volumes', 'gigabytes']);
export type QuotaResource = z.infer<typeof quotaResourceSchema>;

export const quotaUsageSchema = z.object({
  resource: quotaResourceSchema,
  /** In words: "Instances", "vCPUs", "RAM (MiB)", "Volumes", "Volume storage (GiB)". */
  label: z.string(),
  /** compute: Nova's absolute limits; volume: Cinder's quota set with usage. */
  service: z.enum(['compute', 'volume']),
  used: z.number(),
  /** null: unlimited (the cloud's -1). */
  limit: z.number().nullable(),
});
export type QuotaUsage = z.infer<typeof quotaUsageSchema>;

/** GET /api/quotas: the current project's use and limits, for the launch wizard's first step. */
export const quotaUsageListSchema = z.object({
  quotas: z.array(quotaUsageSchema),
  /** A service whose figures this user may not read (or that failed), in words; the rest stands. */
  unavailable: z.array(z.object({ service: z.enum(['compute', 'volume']), reason: z.string() })),
});
export type QuotaUsageList = z.infer<typeof quotaUsageListSchema>;
