import { badRequest } from '../../platform/http/errors.js';
import type { Microversion } from '../../platform/http/microversion.js';
import { BOOLEAN_ENUM, boolFromString } from '../../platform/validation/parameter-types.js';
import {
  type JsonSchema,
  lastParam,
  multiParams,
  type Query,
  rejectUnknownParams,
  requestSchema,
  validateBody,
  validateQuery,
} from './validation.js';

/**
 * os-quota-sets, os-quota-class-sets and limits requests (`schemas/quota_sets.py`,
 * `quota_classes.py`, `limits.py`): each limit an integer (or its string) from -1 to 2^31-1, the
 * resources accepted shrinking at 2.36/2.50 and 2.57; queries closed from 2.75.
 */

const commonQuota: JsonSchema = {
  type: ['integer', 'string'],
  pattern: '^-?[0-9]+$',
  minimum: -1,
  maximum: 0x7fffffff,
};

const ALL = [
  'instances',
  'cores',
  'ram',
  'floating_ips',
  'fixed_ips',
  'metadata_items',
  'key_pairs',
  'security_groups',
  'security_group_rules',
  'injected_files',
  'injected_file_content_bytes',
  'injected_file_path_bytes',
  'server_groups',
  'server_group_members',
  'networks',
];
const NOVA_NETWORK = ['fixed_ips', 'floating_ips', 'security_groups', 'security_group_rules', 'networks'];
const PERSONALITY = ['injected_files', 'injected_file_content_bytes', 'injected_file_path_bytes'];

function resourcesFor(version: Microversion, networkCut: string): string[] {
  let out = ALL;
  if (version.atLeast(networkCut)) out = out.filter((r) => !NOVA_NETWORK.includes(r));
  if (version.atLeast('2.57')) out = out.filter((r) => !PERSONALITY.includes(r));
  return out;
}

const updateSchema = (wrapper: string, resources: string[], withForce: boolean) =>
  requestSchema<Record<string, Record<string, unknown>>>({
    type: 'object',
    properties: {
      [wrapper]: {
        properties: {
          ...Object.fromEntries(resources.map((r) => [r, commonQuota])),
          ...(withForce ? { force: { type: ['boolean', 'string'], enum: BOOLEAN_ENUM } } : {}),
        },
        additionalProperties: false,
      },
    },
    required: [wrapper],
    additionalProperties: false,
  });

export interface QuotaUpdate {
  values: Record<string, number | null>;
  force: boolean;
  networksGiven: boolean;
}

/** `quota_sets.update` / `update_v236` / `update_v257`. */
export function parseQuotaSetUpdate(body: unknown, version: Microversion): QuotaUpdate {
  const valid = validateBody(updateSchema('quota_set', resourcesFor(version, '2.36'), true), body);
  const set = (valid.quota_set ?? {}) as Record<string, unknown>;
  const values: Record<string, number | null> = {};
  for (const [k, v] of Object.entries(set)) {
    if (k === 'force' || k === 'networks') continue;
    // Nova skips a falsy value that is not 0 (an empty string cannot pass the pattern).
    values[k] = v === null || v === '' ? null : Number(v);
  }
  return { values, force: 'force' in set && boolFromString(set.force), networksGiven: 'networks' in set };
}

/** `quota_classes.update` / `update_v250` / `update_v257`. */
export function parseQuotaClassUpdate(body: unknown, version: Microversion): Record<string, number> {
  const valid = validateBody(updateSchema('quota_class_set', resourcesFor(version, '2.50'), false), body);
  const set = (valid.quota_class_set ?? {}) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(set).map(([k, v]) => [k, Number(v)]));
}

/** `check_string_length(id, 'quota_class_name', 1, 255)`. */
export function parseQuotaClassName(id: string): string {
  if (id.length > 255) {
    throw badRequest(`Invalid input received: quota_class_name has ${id.length} characters, more than 255.`);
  }
  return id;
}

/** `query_schema` / `query_schema_275`: `user_id` (its first value, as `parse_qs(...)[0]`). */
export function parseQuotaQuery(query: Query, version: Microversion): string | undefined {
  if (version.atLeast('2.75')) rejectUnknownParams(query, ['user_id']);
  validateQuery({ type: 'object', properties: { user_id: multiParams({ type: 'string' }) } }, listify(query));
  const v = query.user_id;
  if (v === undefined) return undefined;
  return String(Array.isArray(v) ? v[0] : v);
}

/** `limits_query_schema` / `_275`: `tenant_id`, the last value (`req.GET.get`). */
export function parseLimitsQuery(query: Query, version: Microversion): string | undefined {
  if (version.atLeast('2.75')) rejectUnknownParams(query, ['tenant_id']);
  return lastParam(query, 'tenant_id');
}

const listify = (q: Query) =>
  Object.fromEntries(Object.entries(q).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : [String(v)]]));

/** Resources shown by quota class sets at a version (server groups from 2.50). */
export function quotaClassResourcesAt(version: Microversion, all: readonly string[]): string[] {
  if (version.below('2.50')) return all.filter((r) => r !== 'server_groups' && r !== 'server_group_members');
  const filtered = version.atLeast('2.57')
    ? ['fixed_ips', 'floating_ips', 'security_group_rules', 'security_groups', ...PERSONALITY]
    : ['fixed_ips', 'floating_ips', 'security_group_rules', 'security_groups'];
  return all.filter((r) => !filtered.includes(r));
}
