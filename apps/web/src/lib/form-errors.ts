import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { ApiRequestError } from './api-client';

/**
 * Puts a failed submit's error on the form: the BFF's per-field messages on the fields this form
 * has, and its message as the form's own error; anything else (the network, a bug) as `fallback`.
 */
export function showSubmitError<T extends FieldValues>(
  setError: UseFormSetError<T>,
  err: unknown,
  fields: readonly FieldPath<T>[],
  fallback: string,
): void {
  if (!(err instanceof ApiRequestError)) {
    setError('root', { message: fallback });
    return;
  }
  for (const [field, message] of Object.entries(err.fields)) {
    const known = fields.find((f) => f === field);
    if (known) setError(known, { message });
  }
  setError('root', { message: err.message });
}
