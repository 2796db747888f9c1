import { badRequest } from '../../platform/http/errors.js';
import type { Microversion } from '../../platform/http/microversion.js';
import {
  enumParam,
  lastParam,
  MAX_LIMIT,
  nonNegativeIntParam,
  type Query,
  rejectUnknownParams,
} from './validation.js';

/**
 * os-simple-tenant-usage's query (`schemas/simple_tenant_usage.py`, `_get_datetime_range`):
 * `start` and `end` (ISO 8601 for the schema, then one of three strptime formats), `detailed`
 * (index only: `0`/`1`), `limit`/`marker` from 2.40, nothing else from 2.75.
 */

/** A time to the microsecond, as Nova's naive UTC datetimes. */
export type Micros = number;

export interface UsageQuery {
  /** As given: read by `usageWindow` once policy allows the call (Nova's order). */
  startText: string | undefined;
  endText: string | undefined;
  detailed: boolean;
  limit: number | undefined;
  /** The limit the client gave (for the next link). */
  requestedLimit: number | undefined;
  marker: string | undefined;
}

// `_parse_datetime`'s formats: %Y-%m-%dT%H:%M:%S, %Y-%m-%dT%H:%M:%S.%f, %Y-%m-%d %H:%M:%S.%f.
const NOVA_FORMATS = [
  /^(\d{4})-(\d{1,2})-(\d{1,2})T(\d{1,2}):(\d{1,2}):(\d{1,2})$/,
  /^(\d{4})-(\d{1,2})-(\d{1,2})T(\d{1,2}):(\d{1,2}):(\d{1,2})\.(\d{1,6})$/,
  /^(\d{4})-(\d{1,2})-(\d{1,2}) (\d{1,2}):(\d{1,2}):(\d{1,2})\.(\d{1,6})$/,
];

export const microsOfIso = (iso: string): Micros => Date.parse(iso) * 1000;

/** `_parse_datetime`: no value is now; a value must match one of Nova's formats. */
function parseDatetime(value: string | undefined, now: Micros): Micros {
  if (!value) return now;
  for (const re of NOVA_FORMATS) {
    const m = re.exec(value);
    if (!m) continue;
    const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const ms = Date.UTC(y, mo - 1, d, h, mi, s);
    const back = new Date(ms);
    // strptime refuses impossible dates (2026-02-30) and out-of-range fields.
    if (back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || s > 61) break;
    return ms * 1000 + Number((m[7] ?? '').padEnd(6, '0') || 0);
  }
  throw badRequest('Invalid datetime string: Datetime is in invalid format');
}

export function parseUsageQuery(query: Query, version: Microversion, index: boolean): UsageQuery {
  const v240 = version.atLeast('2.40');
  const known = ['start', 'end', ...(index ? ['detailed'] : []), ...(v240 ? ['limit', 'marker'] : [])];
  if (version.atLeast('2.75')) rejectUnknownParams(query, known);
  // Nova's schema says `date-time`, but its validator lets any text through to `_parse_datetime`
  // (the reference answers "Invalid datetime string" for `start=bogus` at 2.1, 2.40 and 2.75).
  const detailed = index ? enumParam(query, 'detailed', ['0', '1']) === '1' : true;
  const requestedLimit = v240 ? nonNegativeIntParam(query, 'limit') : undefined;
  return {
    startText: lastParam(query, 'start'),
    endText: lastParam(query, 'end'),
    detailed,
    limit: requestedLimit === undefined ? undefined : Math.min(requestedLimit || MAX_LIMIT, MAX_LIMIT),
    requestedLimit,
    marker: v240 ? lastParam(query, 'marker') : undefined,
  };
}

/** `_get_datetime_range`: the window asked for (a missing bound is now). */
export function usageWindow(q: UsageQuery, now: Micros): { start: Micros; end: Micros } {
  const start = parseDatetime(q.startText, now);
  const end = parseDatetime(q.endText, now);
  if (start > end) {
    throw badRequest('Invalid start time. The start time cannot occur after the end time.');
  }
  return { start, end };
}
