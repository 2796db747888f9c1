import type { Store } from '../../platform/db/store.js';
import { badRequest, conflict, notFound, policyForbidden } from '../../platform/http/errors.js';
import { newUuid } from '../../platform/ids.js';
import { nowIso } from '../../platform/time.js';
import { type QosSpecsRecord, qosSpecsStore } from '../store/qos-specs.store.js';
import { typesStore } from '../store/types.store.js';
import type { Caller } from './caller.js';
import { invalidSortKey, type ListParams, paginate, processSortParams } from './paging.js';

/** objects/fields.py QoSConsumerValues, in Cinder's order; `back-end` when none is given. */
const CONSUMERS = ['back-end', 'front-end', 'both'] as const;
const DEFAULT_CONSUMER = 'back-end';

/** Cinder prints the field's repr in its message (recorded from the reference cloud). */
const INVALID_CONSUMER =
  "Invalid qos specs: Valid consumer of QoS specs are: QoSConsumerValues(default=<class 'oslo_versionedobjects.fields.UnspecifiedDefault'>,nullable=False,valid_values=('back-end', 'front-end', 'both'))";

/** A unique constraint refused the row (PostgreSQL 23505, SQLite's UNIQUE constraint error). */
function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined;
  if (!e) return false;
  if (e.code === '23505' || (typeof e.message === 'string' && e.message.includes('UNIQUE constraint failed')))
    return true;
  return e.cause !== undefined && e.cause !== err && isUniqueViolation(e.cause);
}

const qosNotFound = (id: string) => notFound(`No such QoS spec ${id}.`);
const typeNotFound = (id: string) => notFound(`Volume type ${id} could not be found.`);

/** policies/qos_specs.py: every rule is admin only. */
function authorize(caller: Caller, action: 'create' | 'get' | 'get_all' | 'update' | 'delete'): void {
  if (!caller.isAdmin) throw policyForbidden(`volume_extension:qos_specs_manage:${action}`);
}

const SORTABLE: Record<string, keyof QosSpecsRecord> = Object.assign(Object.create(null), {
  id: 'id',
  name: 'name',
  consumer: 'consumer',
  created_at: 'created_at',
});

function assertConsumer(consumer: unknown): asserts consumer is string {
  if (!CONSUMERS.includes(consumer as (typeof CONSUMERS)[number])) throw badRequest(INVALID_CONSUMER);
}

export interface QosAssociation {
  association_type: 'volume_type';
  name: string;
  id: string;
}

/** Cinder's qos_specs_manage.py and volume/qos_specs.py: named QoS key sets for volume types. */
export function createQosSpecsService(store: Store) {
  const db = store.db;

  async function mustGet(id: string, tx = db): Promise<QosSpecsRecord> {
    const spec = await qosSpecsStore.byId(tx, id);
    if (!spec) throw qosNotFound(id);
    return spec;
  }

  /** The `vol_type_id` query parameter the (dis)associate calls need. */
  function requireTypeId(typeId: string | undefined): string {
    if (!typeId) throw badRequest('Volume Type id must not be None.');
    return typeId;
  }

  return {
    async list(caller: Caller, params: ListParams): Promise<QosSpecsRecord[]> {
      authorize(caller, 'get_all');
      const sort = processSortParams(params.sortKeys, params.sortDirs);
      for (const k of sort.keys) if (!(k in SORTABLE)) throw invalidSortKey();
      const marker = params.marker === null ? null : await mustGet(params.marker);
      const sortValue = (s: QosSpecsRecord, k: string) => {
        const v = s[SORTABLE[k] as keyof QosSpecsRecord];
        return typeof v === 'string' ? v : null;
      };
      return paginate(await qosSpecsStore.all(db), sort, sortValue, marker, params.offset, params.limit);
    },

    async show(caller: Caller, id: string): Promise<QosSpecsRecord> {
      authorize(caller, 'get');
      return mustGet(id);
    },

    /** `specs` holds the body's other keys: `consumer` among them picks the consumer. */
    async create(caller: Caller, name: string, specs: Record<string, unknown>): Promise<QosSpecsRecord> {
      authorize(caller, 'create');
      const { consumer = DEFAULT_CONSUMER, ...keys } = specs;
      for (const [k, v] of Object.entries(keys)) {
        if (typeof v !== 'string') {
          throw badRequest(`Invalid input received: Value for key "${k}" is not a string or unicode`);
        }
      }
      assertConsumer(consumer);
      const trimmed = name.trim();
      const exists = () => conflict(`QoS Specs ${trimmed} already exists.`);
      try {
        return await store.transaction(async (tx) => {
          if (await qosSpecsStore.byName(tx, trimmed)) throw exists();
          const id = newUuid();
          await qosSpecsStore.insert(tx, {
            id,
            name: trimmed,
            consumer,
            specs: JSON.stringify(keys),
            created_at: nowIso(),
          });
          return mustGet(id, tx);
        });
      } catch (err) {
        // A simultaneous create of the same name got there first (the name is unique).
        if (isUniqueViolation(err)) throw exists();
        throw err;
      }
    },

    /** PUT /qos-specs/{id}: adds or replaces keys; `consumer` changes the consumer. */
    async setKeys(caller: Caller, id: string, specs: Record<string, string | null>): Promise<void> {
      authorize(caller, 'update');
      const { consumer, ...keys } = specs;
      if (consumer !== undefined) assertConsumer(consumer);
      await store.transaction(async (tx) => {
        const spec = await mustGet(id, tx);
        await qosSpecsStore.update(tx, id, {
          ...(consumer !== undefined ? { consumer } : {}),
          specs: { ...spec.specs, ...(keys as Record<string, string>) },
        });
      });
    },

    /** PUT /qos-specs/{id}/delete_keys: all or nothing, the first missing key names the 404. */
    async deleteKeys(caller: Caller, id: string, keys: readonly string[]): Promise<void> {
      authorize(caller, 'delete');
      await store.transaction(async (tx) => {
        const spec = await mustGet(id, tx);
        const remaining = { ...spec.specs };
        for (const key of keys) {
          if (!(key in remaining)) throw notFound(`QoS spec ${id} has no spec with key ${key}.`);
          delete remaining[key];
        }
        await qosSpecsStore.update(tx, id, { specs: remaining });
      });
    },

    /** DELETE: refused while a type uses the set, unless forced (which disassociates them all). */
    async delete(caller: Caller, id: string, force: boolean): Promise<void> {
      authorize(caller, 'delete');
      await store.transaction(async (tx) => {
        await mustGet(id, tx);
        const inUse = (await qosSpecsStore.associatedTypes(tx, id)).length > 0;
        if (inUse && !force) throw badRequest('Qos specs still in use.');
        await qosSpecsStore.disassociateAll(tx, id);
        await qosSpecsStore.delete(tx, id);
      });
    },

    async associations(caller: Caller, id: string): Promise<QosAssociation[]> {
      authorize(caller, 'get_all');
      await mustGet(id);
      return (await qosSpecsStore.associatedTypes(db, id)).map((t) => ({
        association_type: 'volume_type',
        name: t.name,
        id: t.id,
      }));
    },

    /** A type has at most one set: associating it again with the same set changes nothing. */
    async associate(caller: Caller, id: string, rawTypeId: string | undefined): Promise<void> {
      authorize(caller, 'update');
      const typeId = requireTypeId(rawTypeId);
      await store.transaction(async (tx) => {
        await mustGet(id, tx);
        if (!(await typesStore.byId(tx, typeId))) throw typeNotFound(typeId);
        const current = await qosSpecsStore.specsIdOfType(tx, typeId);
        if (current === id) return;
        if (current !== null) {
          throw badRequest(
            `Invalid volume type: Type ${typeId} is already associated with another qos specs: ${current}`,
          );
        }
        // ON CONFLICT DO NOTHING: a simultaneous associate may have won; its choice is then checked.
        await qosSpecsStore.associate(tx, typeId, id);
        const now = await qosSpecsStore.specsIdOfType(tx, typeId);
        if (now !== id) {
          throw badRequest(
            `Invalid volume type: Type ${typeId} is already associated with another qos specs: ${now}`,
          );
        }
      });
    },

    /** Clears the type's association when it is with this set; otherwise a quiet no-op. */
    async disassociate(caller: Caller, id: string, rawTypeId: string | undefined): Promise<void> {
      authorize(caller, 'update');
      const typeId = requireTypeId(rawTypeId);
      await store.transaction(async (tx) => {
        await mustGet(id, tx);
        if (!(await typesStore.byId(tx, typeId))) throw typeNotFound(typeId);
        await qosSpecsStore.disassociate(tx, typeId, id);
      });
    },

    async disassociateAll(caller: Caller, id: string): Promise<void> {
      authorize(caller, 'update');
      await store.transaction(async (tx) => {
        await mustGet(id, tx);
        await qosSpecsStore.disassociateAll(tx, id);
      });
    },
  };
}

export type QosSpecsService = ReturnType<typeof createQosSpecsService>;
