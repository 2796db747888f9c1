import { describe, expect, it } from 'vitest';
import { apiErrorSchema } from './errors.js';

describe('apiErrorSchema', () => {
  it('accepts an error with a code, a message and details', () => {
    const parsed = apiErrorSchema.parse({
      error: { code: 'volume_in_use', message: 'Volume is in use', details: { id: 'x' } },
    });
    expect(parsed.error.code).toBe('volume_in_use');
  });
  it('carries the request id people quote', () => {
    const parsed = apiErrorSchema.parse({
      error: { code: 'cloud_unreachable', message: 'No answer', requestId: 'req-1' },
    });
    expect(parsed.error.requestId).toBe('req-1');
  });
  it('refuses an error without a code', () => {
    expect(apiErrorSchema.safeParse({ error: { code: '', message: 'x' } }).success).toBe(false);
  });
});
