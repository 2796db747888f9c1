import type { ComputeDeps } from '../deps.js';
import type { AuthContext } from '../../platform/http/context.js';
import { badRequest, policyForbidden } from '../../platform/http/errors.js';
import type { Microversion } from '../../platform/http/microversion.js';
import {
  lastParam,
  MAX_LIMIT,
  nonNegativeIntParam,
  type Query,
  rejectUnknownParams,
  singleValueParam,
} from '../schemas/validation.js';
import { type MigrationFilters, type MigrationRow, migrationsStore } from '../store/migrations.store.js';

/**
 * GET /os-migrations (`migrations.py`, cloud-rescue): admins only (capture 905); the v2.0 filters
 * (host, instance_uuid, source_compute, status, migration_type), 2.59 pages (limit, marker by
 * uuid, changes-since, then no unknown parameters), 2.66 changes-before, 2.80 user_id and project_id.
 */

export const MIGRATIONS_INDEX_RULE = 'os_compute_api:os-migrations:index';

export interface MigrationPage {
  migrations: MigrationRow[];
  /** 2.59+: the effective limit, for the next link. */
  limit: number | null;
}

const dateTime = (name: string, value: string): string => {
  const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(ms)) {
    throw badRequest(
      `Invalid input for query parameters ${name}. Value: ${value}. '${value}' is not a 'date-time'`,
    );
  }
  return new Date(ms).toISOString();
};

export async function listMigrations(
  deps: ComputeDeps,
  auth: AuthContext,
  v: Microversion,
  query: Query,
): Promise<MigrationPage> {
  if (!auth.isAdmin) throw policyForbidden(MIGRATIONS_INDEX_RULE);
  const filters: MigrationFilters = {};
  const names = ['hidden', 'host', 'instance_uuid', 'source_compute', 'status', 'migration_type'];
  let limit: number | null = null;
  let marker: string | undefined;
  if (v.atLeast('2.59')) {
    rejectUnknownParams(query, [
      ...names,
      'limit',
      'marker',
      'changes-since',
      ...(v.atLeast('2.66') ? ['changes-before'] : []),
      ...(v.atLeast('2.80') ? ['user_id', 'project_id'] : []),
    ]);
    limit = Math.min(nonNegativeIntParam(query, 'limit', true) ?? MAX_LIMIT, MAX_LIMIT);
    marker = singleValueParam(query, 'marker');
    const since = singleValueParam(query, 'changes-since');
    const before = v.atLeast('2.66') ? singleValueParam(query, 'changes-before') : undefined;
    if (since !== undefined) filters.changesSince = dateTime('changes-since', since);
    if (before !== undefined) filters.changesBefore = dateTime('changes-before', before);
    if (filters.changesSince && filters.changesBefore && filters.changesBefore < filters.changesSince) {
      throw badRequest('The value of changes-since must be less than or equal to changes-before.');
    }
    if (v.atLeast('2.80')) {
      const userId = lastParam(query, 'user_id');
      const projectId = lastParam(query, 'project_id');
      if (userId !== undefined) filters.userId = userId;
      if (projectId !== undefined) filters.projectId = projectId;
    }
  }
  const text = (name: string) => lastParam(query, name);
  const host = text('host');
  const serverId = text('instance_uuid');
  const sourceCompute = text('source_compute');
  const status = text('status');
  const migrationType = text('migration_type');
  if (host !== undefined) filters.host = host;
  if (serverId !== undefined) filters.serverId = serverId;
  if (sourceCompute !== undefined) filters.sourceCompute = sourceCompute;
  if (status !== undefined) filters.status = status;
  if (migrationType !== undefined) filters.migrationType = migrationType;

  let rows = await migrationsStore.list(deps.store.db, filters);
  if (marker !== undefined) {
    const at = rows.findIndex((m) => m.uuid === marker);
    if (at < 0) throw badRequest(`Marker ${marker} could not be found.`);
    rows = rows.slice(at + 1);
  }
  if (limit !== null) rows = rows.slice(0, limit);
  return { migrations: rows, limit };
}
