import { badRequest } from '../../platform/http/errors.js';
import type { Query } from './validation.js';

/**
 * The query of our `os-emulator-topology` extension (docs/cloud-extensions.md), read as Nova reads
 * its filters: a repeated parameter counts by its last value; a bad one is Nova's "Invalid input
 * for query parameters <name>." 400.
 */

/** What the topology is asked for. */
export interface TopologyQuery {
  /** `all_tenants` as given (null when absent). Admins see every project unless it is false. */
  allTenants: boolean | null;
  projectId: string | null;
  host: string | null;
  serverId: string | null;
  volumeId: string | null;
  stuckAfterSeconds: number;
}

/** How long an attachment may sit in a transitional state before it counts as stuck. */
export const DEFAULT_STUCK_AFTER_SECONDS = 300;

/** oslo.utils bool_from_string's accepted spellings; an empty value means "given", as in Nova. */
const TRUE_WORDS = ['', '1', 't', 'true', 'on', 'y', 'yes'];
const FALSE_WORDS = ['0', 'f', 'false', 'off', 'n', 'no'];

const invalid = (name: string, why: string) =>
  badRequest(`Invalid input for query parameters ${name}. ${why}`);

/** The last value of a parameter, which must be a string (an object from `a[b]=c` is not). */
function lastString(query: Query, name: string): string | undefined {
  const raw = query[name];
  const v = Array.isArray(raw) ? raw.at(-1) : raw;
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw invalid(name, 'must be a string');
  return v;
}

function text(query: Query, name: string): string | null {
  const v = lastString(query, name);
  if (v === undefined) return null;
  if (v.length < 1 || v.length > 255) throw invalid(name, 'must be 1 to 255 characters');
  return v;
}

function allTenants(query: Query): boolean | null {
  const v = lastString(query, 'all_tenants');
  if (v === undefined) return null;
  const word = v.trim().toLowerCase();
  if (TRUE_WORDS.includes(word)) return true;
  if (FALSE_WORDS.includes(word)) return false;
  const shown = [...TRUE_WORDS.slice(1), ...FALSE_WORDS].sort().join("', '");
  throw invalid('all_tenants', `acceptable values are: '${shown}'`);
}

function stuckAfter(query: Query): number {
  const v = lastString(query, 'stuck_after');
  if (v === undefined) return DEFAULT_STUCK_AFTER_SECONDS;
  if (!/^\d{1,9}$/.test(v)) throw invalid('stuck_after', 'must be a whole number of seconds');
  return Number(v);
}

export function parseTopologyQuery(query: Query): TopologyQuery {
  return {
    allTenants: allTenants(query),
    projectId: text(query, 'project_id'),
    host: text(query, 'host'),
    serverId: text(query, 'server_id'),
    volumeId: text(query, 'volume_id'),
    stuckAfterSeconds: stuckAfter(query),
  };
}
