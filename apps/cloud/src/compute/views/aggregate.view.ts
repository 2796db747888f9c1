import type { Microversion } from '../../platform/http/microversion.js';
import { cinderTime } from '../../platform/time.js';
import type { Aggregate } from '../service/aggregates.service.js';

/**
 * `_marshall_aggregate` (captures 987-992): the uuid from 2.41; times with microseconds and no
 * zone; `deleted` false for a live aggregate. The create response leaves out hosts and metadata.
 */
export function aggregateView(a: Aggregate, version: Microversion, opts: { created?: boolean } = {}) {
  return {
    id: a.id,
    ...(version.atLeast('2.41') ? { uuid: a.uuid } : {}),
    name: a.name,
    ...(opts.created ? {} : { hosts: a.hosts, metadata: a.metadata }),
    created_at: cinderTime(a.createdAt),
    updated_at: cinderTime(a.updatedAt),
    deleted_at: null,
    deleted: false,
    availability_zone: a.availabilityZone,
  };
}
