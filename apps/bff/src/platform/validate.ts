import { isUtf8 } from 'node:buffer';
import express, { type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import { ApiError, badRequest } from './errors.js';

/** Parses input with a shared schema; a mistake becomes a 400 naming each field. */
export function parseInput<S extends z.ZodType>(schema: S, data: unknown): z.infer<S> {
  if (data === undefined) {
    throw badRequest('invalid_request', 'This request needs a JSON body.');
  }
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

const notJson = () =>
  badRequest('invalid_request', 'Send the request body as JSON (Content-Type: application/json).');

/** A body is coming: a length above zero, or a chunked one. */
const hasBody = (headers: { 'transfer-encoding'?: string; 'content-length'?: string }) =>
  headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;

/**
 * JSON bodies only, in UTF-8 only (RFC 8259 §8.1): body-parser would otherwise put U+FFFD in place
 * of bytes that are not UTF-8 and carry on, and leave a body of another type unread as if absent.
 */
export function jsonBodies(limit: string): RequestHandler[] {
  const parse = express.json({
    limit,
    verify: (_req, _res, body, encoding) => {
      if (encoding !== 'utf-8') {
        throw new ApiError(415, 'unsupported_body', 'Send the request body as JSON in UTF-8.');
      }
      if (!isUtf8(body)) {
        throw new ApiError(400, 'malformed_json', 'The request body is not valid UTF-8.');
      }
    },
  });
  const onlyJson: RequestHandler = (req, _res, next) => {
    if (hasBody(req.headers) && !req.is('application/json')) throw notJson();
    next();
  };
  return [parse, onlyJson];
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
