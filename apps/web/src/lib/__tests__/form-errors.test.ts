import { describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '../api-client';
import { showSubmitError } from '../form-errors';

type Form = { name: string; sizeGb: number };

describe('showSubmitError', () => {
  it("puts the BFF's field messages on this form's fields and its message on the form", () => {
    const setError = vi.fn();
    const err = new ApiRequestError(400, 'invalid_request', 'Check the highlighted fields.', {
      fields: { sizeGb: 'At least 1 GB.', volumeTypeId: 'Not a type here.' },
    });
    showSubmitError<Form>(setError, err, ['name', 'sizeGb'], 'Try again.');
    expect(setError.mock.calls).toEqual([
      ['sizeGb', { message: 'At least 1 GB.' }],
      ['root', { message: 'Check the highlighted fields.' }],
    ]);
  });

  it('says the fallback for anything that is not an answer of the BFF', () => {
    const setError = vi.fn();
    showSubmitError<Form>(setError, new TypeError('Failed to fetch'), ['name'], 'Try again.');
    expect(setError.mock.calls).toEqual([['root', { message: 'Try again.' }]]);
  });
});
