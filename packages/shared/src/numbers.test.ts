import { describe, expect, it } from 'vitest';
import { launchRequestSchema } from './launch.js';
import { createVolumeRequestSchema } from './volumes.js';

/** Sizes and counts in the contract are JSON integers in range: nothing is converted on the way in. */
describe('sizes and counts', () => {
  const loose = ['0x10', [1], true, '1e3', '10', '', null, Number.NaN, 1.5, 0];

  it('a volume size', () => {
    for (const sizeGb of loose) {
      expect({ sizeGb, ok: createVolumeRequestSchema.safeParse({ name: 'v', sizeGb }).success }).toEqual({
        sizeGb,
        ok: false,
      });
    }
    expect(createVolumeRequestSchema.safeParse({ name: 'v', sizeGb: 16_385 }).success).toBe(false);
    expect(createVolumeRequestSchema.parse({ name: 'v', sizeGb: 16_384 }).sizeGb).toBe(16_384);
  });

  it('a launch count', () => {
    const launch = (count: unknown) => ({
      name: 'web',
      count,
      flavorId: '1',
      boot: { source: 'image', imageId: 'i' },
    });
    for (const count of loose) {
      expect({ count, ok: launchRequestSchema.safeParse(launch(count)).success }).toEqual({
        count,
        ok: false,
      });
    }
    expect(launchRequestSchema.safeParse(launch(201)).success).toBe(false);
    expect(launchRequestSchema.parse(launch(200)).count).toBe(200);
  });

  it('says what is wrong in words a person can act on', () => {
    const r = createVolumeRequestSchema.safeParse({ name: 'v', sizeGb: Number.NaN });
    expect(r.success ? null : r.error.issues[0]?.message).toBe('Size must be a whole number of GB');
    const c = launchRequestSchema.safeParse({
      name: 'w',
      count: 'x',
      flavorId: '1',
      boot: { source: 'image', imageId: 'i' },
    });
    expect(c.success ? null : c.error.issues[0]?.message).toBe('Enter a whole number of servers');
  });
});
