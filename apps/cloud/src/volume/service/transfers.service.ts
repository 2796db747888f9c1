import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Store } from '../../platform/db/store.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import { assertProjectWriter } from '../../platform/http/policy.js';
import { newUuid } from '../../platform/ids.js';
import { nowIso } from '../../platform/time.js';
import { snapshotsStore } from '../store/snapshots.store.js';
import { type TransferRow, transfersStore } from '../store/transfers.store.js';
import { volumesStore } from '../store/volumes.store.js';
import type { Caller } from './caller.js';
import { checkTransferredSnapshotsQuota, checkVolumeQuota } from './quotas.service.js';
import { volumeNotFound } from './volumes.service.js';

const transferNotFound = (id: string) => notFound(`Transfer ${id} could not be found.`);

/** transfer/api.py: 16 hex characters of key, 8 of salt, and the salted SHA-1 that is stored. */
const randomHex = (chars: number) => randomBytes(chars / 2).toString('hex');
const cryptHash = (salt: string, authKey: string) =>
  createHash('sha1').update(`${salt}${authKey}`).digest('hex');

/** A new transfer and the key shown once, at creation. */
export interface CreatedTransfer {
  transfer: TransferRow;
  authKey: string;
}

/**
 * Cinder's volume transfers (transfer/api.py): the owner offers an `available` volume, which waits
 * in `awaiting-transfer` until a project that holds the auth key accepts it (and takes its
 * snapshots unless `no_snapshots`, and its quota usage) or the owner deletes the offer.
 */
export function createTransfersService(store: Store) {
  const db = store.db;

  /** transfer_get: admins see every project's transfers, others their own project's. */
  async function visible(caller: Caller, id: string, tx = db, lock = false): Promise<TransferRow> {
    const t = lock ? await transfersStore.lockById(store, tx, id) : await transfersStore.byId(tx, id);
    if (!t || (!caller.isAdmin && t.project_id !== caller.projectId)) throw transferNotFound(id);
    return t;
  }

  return {
    async create(
      caller: Caller,
      input: { volumeId: string; name: string | null; noSnapshots: boolean },
    ): Promise<CreatedTransfer> {
      return store.transaction(async (tx) => {
        const volume = await volumesStore.lockById(store, tx, input.volumeId);
        if (!volume || (!caller.isAdmin && volume.project_id !== caller.projectId)) {
          throw volumeNotFound(input.volumeId);
        }
        assertProjectWriter(caller, 'volume:create_transfer');
        if (volume.status !== 'available') throw badRequest('Invalid volume: status must be available');
        if (!input.noSnapshots) {
          for (const s of await snapshotsStore.forVolume(tx, volume.id)) {
            if (s.status !== 'available') {
              throw badRequest(`Invalid snapshot: snapshot: ${s.id} status must be available`);
            }
          }
        }
        const authKey = randomHex(16);
        const salt = randomHex(8);
        const now = nowIso();
        const transfer: TransferRow = {
          id: newUuid(),
          volume_id: volume.id,
          project_id: volume.project_id,
          name: input.name,
          salt,
          crypt_hash: cryptHash(salt, authKey),
          no_snapshots: input.noSnapshots ? 1 : 0,
          created_at: now,
        };
        await transfersStore.insert(tx, transfer);
        await volumesStore.update(tx, volume.id, { status: 'awaiting-transfer', updated_at: now });
        return { transfer, authKey };
      });
    },

    /** transfer_get_all_by_project; admins see every project's with `all_tenants`. */
    list: (caller: Caller, allTenants: boolean): Promise<TransferRow[]> =>
      transfersStore.list(db, caller.isAdmin && allTenants ? null : caller.projectId),

    show: (caller: Caller, id: string) => visible(caller, id),

    /** The owner withdraws the offer: the volume is `available` again. */
    async delete(caller: Caller, id: string): Promise<void> {
      await store.transaction(async (tx) => {
        const t = await visible(caller, id, tx, true);
        assertProjectWriter(caller, 'volume:delete_transfer');
        await transfersStore.delete(tx, t.id);
        const volume = await volumesStore.lockById(store, tx, t.volume_id);
        if (volume?.status === 'awaiting-transfer') {
          await volumesStore.update(tx, t.volume_id, { status: 'available', updated_at: nowIso() });
        }
      });
    },

    /**
     * Any project with the key takes the volume: checked against its quota first, then the volume
     * (and its snapshots, unless the transfer says otherwise) change owner in one transaction.
     */
    async accept(caller: Caller, id: string, authKey: string): Promise<TransferRow> {
      // transfer/api.py accept authorizes before it looks the transfer up (any project may accept).
      assertProjectWriter(caller, 'volume:accept_transfer');
      return store.transaction(async (tx) => {
        const t = await transfersStore.lockById(store, tx, id);
        if (!t) throw transferNotFound(id);
        const given = Buffer.from(cryptHash(t.salt, authKey));
        const stored = Buffer.from(t.crypt_hash);
        if (given.length !== stored.length || !timingSafeEqual(given, stored)) {
          throw badRequest(`Invalid auth key: Attempt to transfer ${id} with invalid auth key.`);
        }
        const volume = await volumesStore.lockById(store, tx, t.volume_id);
        if (!volume) throw volumeNotFound(t.volume_id);
        await checkVolumeQuota(tx, caller.projectId, volume.volume_type_id, volume.size, true, volume.size);
        const moving = t.no_snapshots === 0 ? await snapshotsStore.forVolume(tx, volume.id) : [];
        await checkTransferredSnapshotsQuota(
          tx,
          caller.projectId,
          volume.volume_type_id,
          volume.size,
          moving.map((s) => s.volume_size),
        );
        const now = nowIso();
        await volumesStore.update(tx, volume.id, {
          project_id: caller.projectId,
          user_id: caller.userId,
          status: 'available',
          updated_at: now,
        });
        for (const s of moving) {
          await snapshotsStore.update(tx, s.id, {
            project_id: caller.projectId,
            user_id: caller.userId,
            updated_at: now,
          });
        }
        await transfersStore.delete(tx, t.id);
        return t;
      });
    },
  };
}

export type TransfersService = ReturnType<typeof createTransfersService>;
