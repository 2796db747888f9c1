import type { Store } from '../../platform/db/store.js';
import { badRequest, notFound, policyForbidden } from '../../platform/http/errors.js';
import { newUuid } from '../../platform/ids.js';
import { nowIso } from '../../platform/time.js';
import type { EncryptionSpecs } from '../schemas/type-encryption.schemas.js';
import { type TypeEncryptionRow, typeEncryptionStore } from '../store/type-encryption.store.js';
import { typesStore } from '../store/types.store.js';
import { volumesStore } from '../store/volumes.store.js';
import type { Caller } from './caller.js';

const RULE = 'volume_extension:volume_type_encryption';
const typeNotFound = (id: string) => notFound(`Volume type ${id} could not be found.`);
const encryptionMissing = (id: string) => notFound(`Volume type encryption for type ${id} does not exist.`);

/**
 * Volume type encryption (contrib/volume_type_encryption.py): admins only, the policy checked
 * before the type is looked up. Specs cannot change while a volume uses the type.
 */
export function createTypeEncryptionService(store: Store) {
  const db = store.db;

  async function authorize(caller: Caller, action: 'create' | 'get' | 'update' | 'delete', typeId: string) {
    if (!caller.isAdmin) throw policyForbidden(`${RULE}:${action}`);
    if (!(await typesStore.byId(db, typeId))) throw typeNotFound(typeId);
  }

  async function refuseInUse(typeId: string, verb: 'create' | 'update' | 'delete') {
    if (await volumesStore.typeInUse(db, typeId)) {
      throw badRequest(`Cannot ${verb} encryption specs. Volume type in use.`);
    }
  }

  const keySize = (v: EncryptionSpecs['key_size']) => (v === undefined || v === null ? null : Number(v));

  return {
    /** The type's specs, or undefined when it has none (Cinder then answers `{}`). */
    async get(caller: Caller, typeId: string): Promise<TypeEncryptionRow | undefined> {
      await authorize(caller, 'get', typeId);
      return typeEncryptionStore.forType(db, typeId);
    },

    /** The type's specs, which must exist (the show of one field). */
    async getExisting(caller: Caller, typeId: string): Promise<TypeEncryptionRow> {
      await authorize(caller, 'get', typeId);
      const row = await typeEncryptionStore.forType(db, typeId);
      if (!row) throw encryptionMissing(typeId);
      return row;
    },

    async create(caller: Caller, typeId: string, specs: EncryptionSpecs): Promise<TypeEncryptionRow> {
      await authorize(caller, 'create', typeId);
      await refuseInUse(typeId, 'create');
      if (await typeEncryptionStore.forType(db, typeId)) {
        throw badRequest(`Volume type encryption for type ${typeId} already exists.`);
      }
      const row: TypeEncryptionRow = {
        volume_type_id: typeId,
        encryption_id: newUuid(),
        provider: specs.provider ?? '',
        control_location: specs.control_location ?? 'front-end',
        cipher: specs.cipher ?? null,
        key_size: keySize(specs.key_size),
        created_at: nowIso(),
        updated_at: null,
      };
      await typeEncryptionStore.insert(db, row);
      return row;
    },

    async update(caller: Caller, typeId: string, specs: EncryptionSpecs): Promise<void> {
      await authorize(caller, 'update', typeId);
      await refuseInUse(typeId, 'update');
      if (!(await typeEncryptionStore.forType(db, typeId))) throw encryptionMissing(typeId);
      await typeEncryptionStore.update(db, typeId, {
        ...(specs.provider !== undefined ? { provider: specs.provider } : {}),
        ...(specs.control_location !== undefined ? { control_location: specs.control_location } : {}),
        ...(specs.cipher !== undefined ? { cipher: specs.cipher } : {}),
        ...(specs.key_size !== undefined ? { key_size: keySize(specs.key_size) } : {}),
        updated_at: nowIso(),
      });
    },

    async remove(caller: Caller, typeId: string): Promise<void> {
      await authorize(caller, 'delete', typeId);
      if (!(await typeEncryptionStore.forType(db, typeId))) throw encryptionMissing(typeId);
      await refuseInUse(typeId, 'delete');
      await typeEncryptionStore.delete(db, typeId);
    },
  };
}

export type TypeEncryptionService = ReturnType<typeof createTypeEncryptionService>;
