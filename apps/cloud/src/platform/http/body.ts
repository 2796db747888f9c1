import express, { type RequestHandler } from 'express';
import { badRequest, OpenStackError } from './errors.js';

export interface BodyPolicy {
  limitBytes: number;
  /** Content types read as JSON. Nova and Cinder read text/plain as JSON too. */
  jsonTypes: string[];
  malformedMessage: string;
  /** Keystone answers a non-JSON body as malformed rather than 415. */
  unsupportedTypeStatus: 400 | 415;
}

const readRaw = (limit: number) => express.raw({ type: () => true, limit });

/**
 * Reads the request body once into req.ctx.body (undefined when empty), with the service's
 * own answers for an unsupported media type, malformed JSON and an oversized body.
 */
export function jsonBody(policy: BodyPolicy): RequestHandler[] {
  const parse: RequestHandler = (req, _res, next) => {
    const raw: unknown = req.body;
    if (!Buffer.isBuffer(raw) || raw.length === 0) {
      req.ctx.body = undefined;
      return next();
    }
    const type = (req.get('content-type') ?? 'application/json').split(';')[0]!.trim().toLowerCase();
    if (!policy.jsonTypes.includes(type)) {
      if (policy.unsupportedTypeStatus === 415) throw new OpenStackError(415, 'Unsupported Content-Type');
      throw badRequest(policy.malformedMessage);
    }
    try {
      req.ctx.body = JSON.parse(raw.toString('utf8'));
    } catch {
      throw badRequest(policy.malformedMessage);
    }
    next();
  };
  return [readRaw(policy.limitBytes), parse];
}
