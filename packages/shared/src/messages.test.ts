import { describe, expect, it } from 'vitest';
import { createVolumeRequestSchema } from './volumes.js';
import { launchRequestSchema } from './launch.js';
import { loginRequestSchema } from './session.js';

// Messages reach people (inline under a field, or in the BFF's typed error): they are written for
// them, never the validator's own wording ("Too big: expected string to have <=255 characters").
const validatorWords = /too (big|small)|expected|invalid input|received|<=|>=/i;

const long = (n: number) => 'a'.repeat(n);

const cases: Array<
  [
    string,
    { safeParse: (v: unknown) => { success: boolean; error?: { issues: { message: string }[] } } },
    unknown,
  ]
> = [
  ['volume name too long', createVolumeRequestSchema, { name: long(256), sizeGb: 1 }],
  [
    'volume description too long',
    createVolumeRequestSchema,
    { name: 'v', description: long(256), sizeGb: 1 },
  ],
  ['volume size 0', createVolumeRequestSchema, { name: 'v', sizeGb: 0 }],
  ['volume size too big', createVolumeRequestSchema, { name: 'v', sizeGb: 16_385 }],
  ['volume size not a number', createVolumeRequestSchema, { name: 'v', sizeGb: Number.NaN }],
  [
    'launch name too long',
    launchRequestSchema,
    { name: long(61), count: 1, flavorId: 'f', boot: { source: 'image', imageId: 'i' } },
  ],
  [
    'launch count 0',
    launchRequestSchema,
    { name: 'web', count: 0, flavorId: 'f', boot: { source: 'image', imageId: 'i' } },
  ],
  [
    'launch count 201',
    launchRequestSchema,
    { name: 'web', count: 201, flavorId: 'f', boot: { source: 'image', imageId: 'i' } },
  ],
  ['user name too long', loginRequestSchema, { username: long(256), password: 'p' }],
  ['empty password', loginRequestSchema, { username: 'demo', password: '' }],
  ['no password at all', loginRequestSchema, { username: 'demo' }],
  ['no user name at all', loginRequestSchema, { password: 'p' }],
];

describe('validation messages are written for people', () => {
  it.each(cases)('%s', (_what, schema, input) => {
    const result = schema.safeParse(input);
    expect(result.success).toBe(false);
    for (const issue of result.error?.issues ?? []) expect(issue.message).not.toMatch(validatorWords);
  });

  it('gives the volume size range with the thousands written out', () => {
    const result = createVolumeRequestSchema.safeParse({ name: 'v', sizeGb: 20_000 });
    expect(result.error?.issues[0]?.message).toBe('Size must be between 1 and 16,384 GB');
  });
});
