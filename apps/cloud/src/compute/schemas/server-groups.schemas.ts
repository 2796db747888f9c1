import { badRequest } from '../../platform/http/errors.js';
import type { Microversion } from '../../platform/http/microversion.js';
import { pyStr } from '../../platform/validation/py-repr.js';
import {
  type JsonSchema,
  MAX_LIMIT,
  nonNegativeIntParam,
  type Query,
  rejectUnknownParams,
  requestSchema,
  validateBody,
} from './validation.js';

/**
 * os-server-groups' requests (`schemas/server_groups.py`): before 2.64 a one-item `policies`
 * list (affinity or anti-affinity; the soft ones from 2.15), from 2.64 a `policy` string and
 * `rules` (`max_server_per_host`). The list takes `all_projects`, `limit` and `offset`, and
 * from 2.75 nothing else.
 */

export const POLICIES_V21 = ['anti-affinity', 'affinity'] as const;
export const POLICIES_V215 = [...POLICIES_V21, 'soft-anti-affinity', 'soft-affinity'] as const;
export type ServerGroupPolicy = (typeof POLICIES_V215)[number];

export const POLICY_VERSION = '2.64';

interface CreateBody {
  server_group: {
    name: string;
    policies?: ServerGroupPolicy[];
    policy?: ServerGroupPolicy;
    rules?: { max_server_per_host?: number | string };
  };
}

const name: JsonSchema = { type: 'string', minLength: 1, maxLength: 255, format: 'name' };
const positiveInteger: JsonSchema = {
  type: ['integer', 'string'],
  pattern: '^[0-9]*$',
  minimum: 1,
  minLength: 1,
};

const createSchema = (version: Microversion) => {
  const enumOf = version.atLeast('2.15') ? [...POLICIES_V215] : [...POLICIES_V21];
  const properties: Record<string, JsonSchema> = version.atLeast(POLICY_VERSION)
    ? {
        name,
        policy: { type: 'string', enum: [...POLICIES_V215] },
        rules: {
          type: 'object',
          properties: { max_server_per_host: positiveInteger },
          additionalProperties: false,
        },
      }
    : {
        name,
        // Nova's `items: [one schema]`, `maxItems: 1`: the first item is checked here, a longer
        // list after it (in jsonschema's order: the item, unique, then too long).
        policies: { type: 'array', items: { type: 'string', enum: enumOf }, uniqueItems: true, minItems: 1 },
      };
  return requestSchema<CreateBody>({
    type: 'object',
    properties: {
      server_group: {
        type: 'object',
        properties,
        required: version.atLeast(POLICY_VERSION) ? ['name', 'policy'] : ['name', 'policies'],
        additionalProperties: false,
      },
    },
    required: ['server_group'],
    additionalProperties: false,
  });
};

export interface ServerGroupCreate {
  name: string;
  policy: ServerGroupPolicy;
  rules: { max_server_per_host?: number };
  /** 2.64: rules were given (only anti-affinity takes them). */
  rulesGiven: boolean;
}

/** Only the first of `policies` is checked by the item schema; more are refused as extra items. */
function onlyFirstPolicy(body: unknown): { body: unknown; extra: unknown[] } {
  const group = (body as { server_group?: { policies?: unknown } } | null)?.server_group;
  const list = group?.policies;
  if (!Array.isArray(list) || list.length <= 1) return { body, extra: [] };
  const unique = new Set(list.map((x) => JSON.stringify(x))).size === list.length;
  // Duplicates are reported by uniqueItems on the whole list, so keep it whole then.
  if (!unique) return { body, extra: [] };
  return {
    body: { ...(body as object), server_group: { ...group, policies: [list[0]] } },
    extra: list.slice(1),
  };
}

export function parseServerGroupCreate(body: unknown, version: Microversion): ServerGroupCreate {
  const { body: firstOnly, extra } = version.atLeast(POLICY_VERSION)
    ? { body, extra: [] }
    : onlyFirstPolicy(body);
  const { server_group: g } = validateBody(createSchema(version), firstOnly);
  if (extra.length > 0) {
    const policies = (body as CreateBody).server_group.policies;
    // Nova's schema has maxItems 1 before additionalItems, and reports the first error: too long.
    throw badRequest(
      `Invalid input for field/attribute policies. Value: ${pyStr(policies)}. ${pyStr(policies)} is too long`,
    );
  }
  if (version.atLeast(POLICY_VERSION)) {
    const max = g.rules?.max_server_per_host;
    return {
      name: g.name,
      policy: g.policy!,
      rules: max === undefined ? {} : { max_server_per_host: Number(max) },
      rulesGiven: g.rules !== undefined && Object.keys(g.rules).length > 0,
    };
  }
  return { name: g.name, policy: g.policies![0]!, rules: {}, rulesGiven: false };
}

export interface ServerGroupListQuery {
  allProjects: boolean;
  limit: number | undefined;
  offset: number;
}

const LIST_PARAMS = ['all_projects', 'limit', 'offset'];

/** `server_groups_query_param` (any extra is ignored) / `_275` (extras refused). */
export function parseServerGroupListQuery(query: Query, version: Microversion): ServerGroupListQuery {
  if (version.atLeast('2.75')) rejectUnknownParams(query, LIST_PARAMS);
  const limit = nonNegativeIntParam(query, 'limit');
  return {
    // Nova looks only at the key: `?all_projects=0` still means all projects.
    allProjects: query.all_projects !== undefined,
    // `get_limit_and_offset`: no limit (or 0) is the maximum.
    limit: !limit ? MAX_LIMIT : Math.min(limit, MAX_LIMIT),
    offset: nonNegativeIntParam(query, 'offset') ?? 0,
  };
}
