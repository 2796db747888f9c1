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
 * Python's json.loads gives up past its recursion limit (1000), so a real service never gets to
 * validate a body nested deeper; here the validators and the repr in their messages recurse too.
 */
export const MAX_JSON_DEPTH = 1000;

/** Whether JSON text nests arrays and objects deeper than `max` (strings skipped), without parsing it. */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

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
    const text = raw.toString('utf8');
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw badRequest(policy.malformedMessage);
    try {
      req.ctx.body = JSON.parse(text);
    } catch {
      throw badRequest(policy.malformedMessage);
    }
    next();
  };
  return [readRaw(policy.limitBytes), parse];
}
