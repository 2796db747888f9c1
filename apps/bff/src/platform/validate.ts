import type { Response } from 'express';
import type { z } from 'zod';
import { ApiError, badRequest } from './errors.js';

/** Parses input with a shared schema; a mistake becomes a 400 naming each field. */
export function parseInput<S extends z.ZodType>(schema: S, data: unknown): z.infer<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join('.') || '_';
    fields[key] ??= issue.message;
  }
  const first = result.error.issues[0];
  throw badRequest('invalid_request', first ? first.message : 'The request is not valid.', { fields });
}

/** Sends a response after checking it against its schema: the contract holds both ways. */
export function sendValid<S extends z.ZodType>(
  res: Response,
  schema: S,
  data: z.infer<S>,
  status = 200,
): void {
  const result = schema.safeParse(data);
  if (!result.success) {
    throw new ApiError(500, 'contract_violation', 'The dashboard backend produced an invalid response.', {
      issues: result.error.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.message}`),
    });
  }
  res.status(status).json(result.data);
}
