import type { Microversion } from '../../platform/http/microversion.js';
import { BOOLEAN_ENUM_NO_LETTERS, boolFromString } from '../../platform/validation/parameter-types.js';
import {
  enumParam,
  lastParam,
  nonNegativeIntParam,
  type Query,
  rejectUnknownParams,
  singleValueParam,
} from './validation.js';

/**
 * os-hypervisors' queries (`schemas/hypervisors.py`): paging from 2.33; from 2.53 a closed set
 * of single-valued parameters, with the hostname pattern and with_servers filters.
 */

export interface HypervisorListQuery {
  limit: number | undefined;
  marker: string | undefined;
  pattern: string | undefined;
  withServers: boolean;
}

const LIST_PARAMS_253 = ['limit', 'marker', 'hypervisor_hostname_pattern', 'with_servers'];

const withServersOf = (query: Query) => {
  const ws = enumParam(query, 'with_servers', BOOLEAN_ENUM_NO_LETTERS, true);
  return ws !== undefined && boolFromString(ws);
};

/** `GET /os-hypervisors` and `/detail`. */
export function parseHypervisorListQuery(query: Query, version: Microversion): HypervisorListQuery {
  if (version.atLeast('2.53')) {
    rejectUnknownParams(query, LIST_PARAMS_253);
    return {
      limit: nonNegativeIntParam(query, 'limit', true),
      marker: singleValueParam(query, 'marker'),
      pattern: singleValueParam(query, 'hypervisor_hostname_pattern'),
      withServers: withServersOf(query),
    };
  }
  if (version.atLeast('2.33')) {
    return {
      limit: nonNegativeIntParam(query, 'limit'),
      marker: lastParam(query, 'marker'),
      pattern: undefined,
      withServers: false,
    };
  }
  return { limit: undefined, marker: undefined, pattern: undefined, withServers: false };
}

/** `GET /os-hypervisors/{id}`: with_servers from 2.53; whether to list the hosted servers. */
export function parseHypervisorShowQuery(query: Query, version: Microversion): { withServers: boolean } {
  if (version.below('2.53')) return { withServers: false };
  rejectUnknownParams(query, ['with_servers']);
  return { withServers: withServersOf(query) };
}
