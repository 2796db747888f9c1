import { z } from 'zod';

/** What the volume page can ask of a volume besides attach and detach: extend, change type, bootable. */

const sizeMessage = 'Size must be between 1 and 16,384 GB';

/** Extend: the new size, larger than the volume's current one (the BFF says so when it is not). */
export const extendVolumeRequestSchema = z.object({
  sizeGb: z
    .number({ error: 'Size must be a whole number of GB' })
    .int('Size must be a whole number of GB')
    .min(1, sizeMessage)
    .max(16_384, sizeMessage),
});
export type ExtendVolumeRequest = z.infer<typeof extendVolumeRequestSchema>;

/**
 * Cinder's retype `migration_policy`: `never` keeps the data where it is (the cloud refuses when the
 * new type needs another back end); `on-demand` lets the cloud move the data when it has to.
 */
export const migrationPolicySchema = z.enum(['never', 'on-demand'], {
  error: 'Choose whether the data may be moved: never or on-demand',
});
export type MigrationPolicy = z.infer<typeof migrationPolicySchema>;

/** Change type: the new type's name (or id) and whether the data may move. */
export const retypeVolumeRequestSchema = z.object({
  type: z.string().trim().min(1, 'Choose a volume type').max(255, 'Use at most 255 characters'),
  migrationPolicy: migrationPolicySchema.default('never'),
});
export type RetypeVolumeRequest = z.infer<typeof retypeVolumeRequestSchema>;

export const setBootableRequestSchema = z.object({
  bootable: z.boolean({ error: 'Say whether the volume is bootable: true or false' }),
});
export type SetBootableRequest = z.infer<typeof setBootableRequestSchema>;
