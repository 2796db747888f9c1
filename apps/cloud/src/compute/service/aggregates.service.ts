import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import type { Store } from '../../platform/db/store.js';
import { badRequest, conflict, notFound } from '../../platform/http/errors.js';
import { newUuid } from '../../platform/ids.js';
import { nowIso } from '../../platform/time.js';
import { pyRepr } from '../../platform/validation/py-repr.js';
import type { AggregateCreate, AggregateUpdate } from '../schemas/aggregates.schemas.js';
import { type AggregateRow, aggregatesStore } from '../store/aggregates.store.js';
import { hostsStore } from '../store/hosts.store.js';

/**
 * Nova's host aggregates (`nova/compute/api.py` AggregateAPI). An aggregate's
 * `availability_zone` metadata is its hosts' zone: joining or leaving one, or changing its zone,
 * sets the zone of the host's nova-compute service, which the scheduler, os-hosts and the zone
 * lists read. A host in a zone that is not the default (`az2` of the seed) is taken as already
 * in that zone, as if an aggregate had put it there.
 */

/** Nova's `default_availability_zone`. */
const DEFAULT_ZONE = 'nova';

/** A read handle or a transaction. */
type Tx = Kysely<Schema>;

export interface Aggregate {
  id: number;
  uuid: string;
  name: string;
  availabilityZone: string | null;
  hosts: string[];
  metadata: Record<string, string>;
  createdAt: string;
  updatedAt: string | null;
}

const metadataOf = (row: Pick<AggregateRow, 'metadata'>): Record<string, string> =>
  Object.assign(Object.create(null), JSON.parse(row.metadata) as Record<string, string>);

const zoneOf = (row: Pick<AggregateRow, 'metadata'>): string | null =>
  metadataOf(row)['availability_zone'] ?? null;

const aggregateNotFound = (id: number | string) => notFound(`Aggregate ${id} could not be found.`);

async function describe(db: Tx, rows: AggregateRow[]): Promise<Aggregate[]> {
  const hosts = await aggregatesStore.hostsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    uuid: r.uuid,
    name: r.name,
    availabilityZone: zoneOf(r),
    hosts: hosts.filter((h) => h.aggregate_id === r.id).map((h) => h.host),
    metadata: metadataOf(r),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }));
}

async function describeOne(db: Tx, row: AggregateRow): Promise<Aggregate> {
  const [one] = await describe(db, [row]);
  return one as Aggregate;
}

async function getRow(db: Tx, id: number): Promise<AggregateRow> {
  const row = await aggregatesStore.byId(db, id);
  if (!row) throw aggregateNotFound(id);
  return row;
}

/** The zone a host has now, from its first aggregate with one, else the zone it came with. */
async function settleHostZone(tx: Tx, host: string, homeIfAlone?: string): Promise<void> {
  const memberships = await aggregatesStore.membershipsOf(tx, host);
  const zoned = memberships.find((m) => zoneOf(m) !== null);
  const home = memberships[0]?.home_zone ?? homeIfAlone;
  const zone = zoned ? zoneOf(zoned) : home;
  if (zone) await aggregatesStore.setComputeZone(tx, host, zone);
}

/**
 * `is_safe_to_update_az`: the hosts' other zones must be this one; changing a zone under
 * servers (an update, not an add) is refused too.
 */
async function assertZoneFits(
  tx: Tx,
  aggregateId: number,
  zone: string,
  hosts: string[],
  refuse: (reason: string) => Error,
  currentZone: string | null,
  checkServers: boolean,
): Promise<void> {
  const conflicting: string[] = [];
  for (const host of hosts) {
    const memberships = await aggregatesStore.membershipsOf(tx, host);
    for (const m of memberships) {
      const z = zoneOf(m);
      if (m.id !== aggregateId && z !== null && z !== zone) conflicting.push(z);
    }
    // A seeded host's own zone counts as an aggregate's.
    const svc = await hostsStore.serviceByHostBinary(tx, host, 'nova-compute');
    const home = memberships[0]?.home_zone ?? svc?.zone;
    if (home && home !== DEFAULT_ZONE && home !== zone) conflicting.push(home);
  }
  if (conflicting.length > 0)
    throw refuse(`One or more hosts already in availability zone(s) ${pyRepr(conflicting)}`);
  if (checkServers && currentZone !== zone && (await aggregatesStore.countServersOnHosts(tx, hosts)) > 0)
    throw refuse('One or more hosts contain instances in this zone');
}

export async function listAggregates(store: Store): Promise<Aggregate[]> {
  return describe(store.db, await aggregatesStore.list(store.db));
}

export async function showAggregate(store: Store, id: number): Promise<Aggregate> {
  return describeOne(store.db, await getRow(store.db, id));
}

export async function createAggregate(store: Store, input: AggregateCreate): Promise<Aggregate> {
  return store.transaction(async (tx) => {
    const id = await aggregatesStore.lockAndNextId(store, tx);
    if (await aggregatesStore.byName(tx, input.name))
      throw conflict(`Aggregate ${input.name} already exists.`);
    const row: AggregateRow = {
      id,
      uuid: newUuid(),
      name: input.name,
      metadata: JSON.stringify(input.availabilityZone ? { availability_zone: input.availabilityZone } : {}),
      created_at: nowIso(),
      updated_at: null,
      deleted: 0,
      deleted_at: null,
    };
    await aggregatesStore.insert(tx, row);
    return describeOne(tx, row);
  });
}

const refuseUpdate = (id: number) => (reason: string) =>
  badRequest(`Cannot update aggregate ${id}. Reason: ${reason}.`);

export async function updateAggregate(store: Store, id: number, input: AggregateUpdate): Promise<Aggregate> {
  return store.transaction(async (tx) => {
    await aggregatesStore.lock(store, tx);
    const row = await getRow(tx, id);
    const agg = await describeOne(tx, row);
    if (input.name !== undefined && input.name !== row.name && (await aggregatesStore.byName(tx, input.name)))
      throw conflict(`Aggregate ${input.name} already exists.`);
    const metadata = metadataOf(row);
    if (input.availabilityZone !== undefined) {
      if (input.availabilityZone === null) delete metadata['availability_zone'];
      else {
        await assertZoneFits(
          tx,
          id,
          input.availabilityZone,
          agg.hosts,
          refuseUpdate(id),
          agg.availabilityZone,
          true,
        );
        metadata['availability_zone'] = input.availabilityZone;
      }
    }
    const changes = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      metadata: JSON.stringify(metadata),
      updated_at: nowIso(),
    };
    await aggregatesStore.update(tx, id, changes);
    for (const host of agg.hosts) await settleHostZone(tx, host);
    return describeOne(tx, { ...row, ...changes });
  });
}

export async function deleteAggregate(store: Store, id: number): Promise<void> {
  await store.transaction(async (tx) => {
    await aggregatesStore.lock(store, tx);
    const agg = await describeOne(tx, await getRow(tx, id));
    if (agg.hosts.length > 0)
      throw badRequest(`Cannot remove host from aggregate ${id}. Reason: Host aggregate is not empty.`);
    const now = nowIso();
    await aggregatesStore.update(tx, id, { deleted: 1, deleted_at: now, updated_at: now });
  });
}

export async function addAggregateHost(store: Store, id: number, host: string): Promise<Aggregate> {
  return store.transaction(async (tx) => {
    await aggregatesStore.lock(store, tx);
    const svc = await hostsStore.serviceByHostBinary(tx, host, 'nova-compute');
    if (!svc) throw notFound(`Compute host ${host} could not be found.`);
    const row = await getRow(tx, id);
    const agg = await describeOne(tx, row);
    const zone = agg.availabilityZone;
    if (zone !== null) {
      await assertZoneFits(
        tx,
        id,
        zone,
        [host],
        (reason) => conflict(`Cannot add host to aggregate ${id}. Reason: ${reason}.`),
        zone,
        false,
      );
    }
    if (agg.hosts.includes(host)) throw conflict(`Aggregate ${id} already has host ${host}.`);
    const memberships = await aggregatesStore.membershipsOf(tx, host);
    await aggregatesStore.addHost(tx, {
      aggregate_id: id,
      host,
      home_zone: memberships[0]?.home_zone ?? svc.zone,
      created_at: nowIso(),
    });
    await settleHostZone(tx, host);
    return describeOne(tx, row);
  });
}

export async function removeAggregateHost(store: Store, id: number, host: string): Promise<Aggregate> {
  return store.transaction(async (tx) => {
    await aggregatesStore.lock(store, tx);
    const row = await getRow(tx, id);
    const memberships = await aggregatesStore.membershipsOf(tx, host);
    const membership = memberships.find((m) => m.id === id);
    if (!membership) throw notFound(`Cannot remove host ${host} in aggregate ${id}`);
    await aggregatesStore.removeHost(tx, id, host);
    await settleHostZone(tx, host, membership.home_zone);
    return describeOne(tx, row);
  });
}

/**
 * `set_metadata`: keys set, null values removed. Nova answers with the time of the change but
 * does not store it on the aggregate (captures 990, 991).
 */
export async function setAggregateMetadata(
  store: Store,
  id: number,
  changes: Record<string, string | null>,
): Promise<Aggregate> {
  return store.transaction(async (tx) => {
    await aggregatesStore.lock(store, tx);
    const row = await getRow(tx, id);
    const agg = await describeOne(tx, row);
    const metadata = metadataOf(row);
    const zone = changes['availability_zone'];
    if (zone === '') {
      throw badRequest(
        `Cannot update metadata of aggregate ${id}. Reason: Aggregate ${row.name} does not support empty named availability zone.`,
      );
    }
    if (typeof zone === 'string') {
      await assertZoneFits(
        tx,
        id,
        zone,
        agg.hosts,
        (reason) => badRequest(`Cannot update metadata of aggregate ${id}. Reason: ${reason}.`),
        agg.availabilityZone,
        true,
      );
    }
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) delete metadata[k];
      else metadata[k] = v;
    }
    await aggregatesStore.update(tx, id, { metadata: JSON.stringify(metadata) });
    for (const host of agg.hosts) await settleHostZone(tx, host);
    return {
      ...(await describeOne(tx, { ...row, metadata: JSON.stringify(metadata) })),
      updatedAt: nowIso(),
    };
  });
}
