import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import type { Store } from '../../platform/db/store.js';
import { badRequest, conflict, notFound } from '../../platform/http/errors.js';
import type { Microversion } from '../../platform/http/microversion.js';
import { isUuidLike } from '../../platform/ids.js';
import { nowIso } from '../../platform/time.js';
import { boolFromString } from '../../platform/validation/parameter-types.js';
import type {
  ServiceListQuery,
  ServiceUpdateLegacy,
  ServiceUpdateV253,
} from '../schemas/os-services.schemas.js';
import { hostsStore, type ServiceRow } from '../store/hosts.store.js';

type Db = Kysely<Schema>;

// ---------------------------------------------------------------------------------------------
// os-services (nova/api/openstack/compute/services.py)
// ---------------------------------------------------------------------------------------------

export async function listServices(db: Db, query: ServiceListQuery): Promise<ServiceRow[]> {
  const { host, binary } = query;
  return hostsStore.listServices(db, { ...(host ? { host } : {}), ...(binary ? { binary } : {}) });
}

const notComputeError = (binary: string) =>
  badRequest(`Updating a ${binary} service is not supported. Only nova-compute services can be updated.`);

/**
 * `PUT /os-services/{service_id}` from 2.53: enable/disable (with an optional reason) and force
 * down a nova-compute service. A disabled or forced-down host leaves the scheduler's candidates.
 */
export async function updateServiceV253(
  store: Store,
  id: string,
  body: ServiceUpdateV253,
): Promise<ServiceRow> {
  return store.transaction(async (tx) => {
    const svc = await hostsStore.serviceByUuid(tx, id);
    if (!svc) throw notFound(`Service ${id} could not be found.`);
    if (svc.binary !== 'nova-compute') throw notComputeError(svc.binary);
    const changes: Partial<ServiceRow> = {};
    if (body.status !== undefined) {
      if (body.status === 'enabled') {
        if (body.disabled_reason)
          throw badRequest("Specifying 'disabled_reason' with status 'enabled' is invalid.");
        changes.status = 'enabled';
        changes.disabled_reason = null;
      } else {
        changes.status = 'disabled';
        changes.disabled_reason = body.disabled_reason ?? null;
      }
    }
    if (body.forced_down !== undefined) changes.forced_down = boolFromString(body.forced_down) ? 1 : 0;
    if (Object.keys(changes).length === 0) {
      throw badRequest("No updates were requested. Fields 'status' or 'forced_down' should be specified.");
    }
    changes.updated_at = nowIso();
    await hostsStore.updateService(tx, svc.id, changes);
    return { ...svc, ...changes };
  });
}

export interface LegacyUpdateResult {
  host: string;
  binary: string;
  status?: 'enabled' | 'disabled';
  disabled_reason?: string;
  forced_down?: boolean;
}

/** Below 2.53: `PUT /os-services/{enable|disable|disable-log-reason|force-down}` with host+binary. */
export async function updateServiceLegacy(
  store: Store,
  action: string,
  body: ServiceUpdateLegacy,
  version: Microversion,
): Promise<LegacyUpdateResult> {
  const actions = [
    'enable',
    'disable',
    'disable-log-reason',
    ...(version.atLeast('2.11') ? ['force-down'] : []),
  ];
  if (!actions.includes(action)) throw notFound('Unknown action');
  const { host, binary } = body;
  const changes: Partial<ServiceRow> = {};
  const result: LegacyUpdateResult = { host, binary };
  if (action === 'enable') {
    changes.status = 'enabled';
    changes.disabled_reason = null;
    result.status = 'enabled';
  } else if (action === 'disable' || action === 'disable-log-reason') {
    let reason: string | null = null;
    if (action === 'disable-log-reason') {
      if (body.disabled_reason === undefined) throw badRequest('Missing disabled reason field');
      reason = body.disabled_reason;
    }
    changes.status = 'disabled';
    changes.disabled_reason = reason;
    result.status = 'disabled';
    if (reason) result.disabled_reason = reason;
  } else {
    if (body.forced_down === undefined) throw badRequest('Missing forced_down field');
    const down = boolFromString(body.forced_down);
    changes.forced_down = down ? 1 : 0;
    result.forced_down = down;
  }
  if (binary !== 'nova-compute') throw notComputeError(binary);
  await store.transaction(async (tx) => {
    const svc = await hostsStore.serviceByHostBinary(tx, host, binary);
    if (!svc) throw notFound(`Host '${host}' is not mapped to any cell`);
    await hostsStore.updateService(tx, svc.id, { ...changes, updated_at: nowIso() });
  });
  return result;
}

/** `DELETE /os-services/{id}`: refused while the host still runs servers. */
export async function deleteService(store: Store, id: string, version: Microversion): Promise<void> {
  const byUuid = version.atLeast('2.53');
  if (byUuid && !isUuidLike(id)) throw badRequest(`Invalid uuid ${id}`);
  if (!byUuid && !/^\s*[+-]?\d+\s*$/.test(id))
    throw badRequest('Invalid input received: id must be an integer');
  await store.transaction(async (tx) => {
    const svc = byUuid
      ? await hostsStore.serviceByUuid(tx, id)
      : await hostsStore.serviceById(tx, Number.parseInt(id, 10));
    if (!svc) throw notFound(`Service ${id} not found.`);
    if (svc.binary === 'nova-compute' && (await hostsStore.countServersOnHost(tx, svc.host)) > 0) {
      throw conflict(
        'Unable to delete compute service that is hosting instances. Migrate or delete the instances first.',
      );
    }
    await hostsStore.deleteService(tx, svc.id);
  });
}
