import { describe, expect, it } from 'vitest';
import { ApiErrorCode, apiErrorSchema } from './errors.js';

describe('apiErrorSchema', () => {
  it('accepts an error with a code, a message and details', () => {
    const parsed = apiErrorSchema.parse({
      error: { code: 'volume_busy', message: 'Busy', details: { id: 'x' } },
    });
    expect(parsed.error.code).toBe(ApiErrorCode.volume_busy);
  });
  it('carries the request id people quote', () => {
    const parsed = apiErrorSchema.parse({
      error: { code: 'cloud_unreachable', message: 'No answer', requestId: 'req-1' },
    });
    expect(parsed.error.requestId).toBe('req-1');
  });
  it('refuses an error without a code, or with a code the contract does not list', () => {
    expect(apiErrorSchema.safeParse({ error: { code: '', message: 'x' } }).success).toBe(false);
    expect(apiErrorSchema.safeParse({ error: { code: 'volume_in_use', message: 'x' } }).success).toBe(false);
  });
  it('lists each code once, in snake_case', () => {
    const codes = Object.values(ApiErrorCode);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^[a-z][a-z0-9_]*$/);
  });
});
