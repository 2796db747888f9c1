import type { Request } from 'express';
import { baseUrl } from '../../platform/http/base-url.js';
import type { Query } from '../service/projects.service.js';

/** The first value of each query parameter (Keystone reads `request.args.get`). */
export function queryOf(req: Request): Query {
  const out: Query = {};
  for (const [k, v] of Object.entries(req.query)) {
    const first = Array.isArray(v) ? v[0] : v;
    if (typeof first === 'string') out[k] = first;
  }
  return out;
}

/** A path parameter as a string (Express 5 types them loosely). */
export const param = (req: Request, name: string): string => String(req.params[name] ?? '');

/** The URL as requested, for a collection's `links.self`. */
export const selfUrl = (req: Request): string => `${baseUrl(req)}${req.originalUrl}`;

/** Keystone's boolean query flags (`include_names`): present and not `0`. */
export const flag = (q: Query, name: string): boolean => q[name] !== undefined && q[name] !== '0';
