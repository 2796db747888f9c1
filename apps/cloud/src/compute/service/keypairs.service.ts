import type { ComputeDeps } from '../deps.js';
import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import type { AuthContext } from '../../platform/http/context.js';
import { badRequest, conflict, forbidden, notFound, policyForbidden } from '../../platform/http/errors.js';
import { nowIso } from '../../platform/time.js';
import type { KeypairCreate, KeypairListQuery } from '../schemas/keypairs.schemas.js';
import { type KeypairRow, keypairsStore } from '../store/keypairs.store.js';
import {
  generateSshKey,
  generateX509Cert,
  InvalidKeyData,
  sshFingerprint,
  x509Fingerprint,
} from './keypair-crypto.js';

/**
 * Key pairs (`keypairs.py` and `compute/api.py` `KeypairAPI`): each belongs to a user, not a
 * project. Policy `os_compute_api:os-keypairs:<action>` is `role:admin or user_id:%(user_id)s`:
 * anyone manages their own key pairs (a reader too), only an admin someone else's (2.10 `user_id`).
 */

export const KEYPAIR_RULES = {
  index: 'os_compute_api:os-keypairs:index',
  create: 'os_compute_api:os-keypairs:create',
  show: 'os_compute_api:os-keypairs:show',
  delete: 'os_compute_api:os-keypairs:delete',
} as const;

type Db = Kysely<Schema>;

/** Nova's default `[quota] key_pairs`, counted per user. */
export const DEFAULT_KEY_PAIRS_QUOTA = 100;

/** The user whose key pairs a call works on, after the policy check. */
function ownerFor(auth: AuthContext, userId: string | undefined, rule: string): string {
  const owner = userId ?? auth.userId;
  if (owner !== auth.userId && !auth.isAdmin) throw policyForbidden(rule);
  return owner;
}

const keypairNotFound = (name: string, userId: string) =>
  notFound(`Keypair ${name} not found for user ${userId}`);

const isUniqueViolation = (e: unknown) =>
  e instanceof Error &&
  ((e as { code?: unknown }).code === '23505' || e.message.includes('UNIQUE constraint failed'));

export interface CreatedKeypair {
  row: KeypairRow;
  /** Only for a key the cloud generated: shown once, never stored. */
  privateKey: string | null;
}

export async function createKeypair(
  deps: ComputeDeps,
  auth: AuthContext,
  cmd: KeypairCreate,
  keyPairsQuota: (db: Db, userId: string) => Promise<number> = async () => DEFAULT_KEY_PAIRS_QUOTA,
): Promise<CreatedKeypair> {
  const owner = ownerFor(auth, cmd.userId, KEYPAIR_RULES.create);
  // A generated key is made before the transaction (it takes a while and cannot fail).
  const made =
    cmd.publicKey !== undefined ? null : cmd.type === 'x509' ? generateX509Cert(owner) : generateSshKey();
  try {
    const row = await deps.store.transaction(async (tx) => {
      // `_validate_new_key_pair` (the quota), the fingerprint, then the name's uniqueness.
      const count = await keypairsStore.countForUser(tx, owner);
      const limit = await keyPairsQuota(tx, owner);
      if (limit >= 0 && count + 1 > limit) throw forbidden('Quota exceeded, too many key pairs.');
      const publicKey = made ? made.publicKey : (cmd.publicKey ?? '');
      const fingerprint = made ? made.fingerprint : fingerprintOf(publicKey, cmd.type);
      if (await keypairsStore.byName(tx, owner, cmd.name)) throw keyPairExists(cmd.name);
      const r: KeypairRow = {
        id: await keypairsStore.nextId(tx),
        user_id: owner,
        name: cmd.name,
        type: cmd.type,
        public_key: publicKey,
        fingerprint,
        created_at: nowIso(),
      };
      await keypairsStore.insert(tx, r);
      return r;
    });
    return { row, privateKey: made ? made.privateKey : null };
  } catch (e) {
    // Another process created the same name between our check and our insert.
    if (isUniqueViolation(e) && (await keypairsStore.byName(deps.store.db, owner, cmd.name))) {
      throw keyPairExists(cmd.name);
    }
    throw e;
  }
}

function fingerprintOf(publicKey: string, type: 'ssh' | 'x509'): string {
  try {
    return type === 'x509' ? x509Fingerprint(publicKey) : sshFingerprint(publicKey);
  } catch (e) {
    if (!(e instanceof InvalidKeyData)) throw e;
    throw badRequest('Keypair data is invalid: failed to generate fingerprint');
  }
}

const keyPairExists = (name: string) => conflict(`Key pair '${name}' already exists.`);

export async function getKeypair(
  deps: ComputeDeps,
  auth: AuthContext,
  name: string,
  userId: string | undefined,
): Promise<KeypairRow> {
  const owner = ownerFor(auth, userId, KEYPAIR_RULES.show);
  const row = await keypairsStore.byName(deps.store.db, owner, name);
  if (!row) throw keypairNotFound(name, owner);
  return row;
}

export async function deleteKeypair(
  deps: ComputeDeps,
  auth: AuthContext,
  name: string,
  userId: string | undefined,
): Promise<void> {
  const owner = ownerFor(auth, userId, KEYPAIR_RULES.delete);
  const n = await deps.store.transaction((tx) => keypairsStore.delete(tx, owner, name));
  if (n === 0) throw keypairNotFound(name, owner);
}

/** Python's default string order (code points), the same on both engines. */
const byName = (a: KeypairRow, b: KeypairRow) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id);

export async function listKeypairs(
  deps: ComputeDeps,
  auth: AuthContext,
  query: KeypairListQuery,
): Promise<KeypairRow[]> {
  const owner = ownerFor(auth, query.userId, KEYPAIR_RULES.index);
  const rows = (await keypairsStore.listForUser(deps.store.db, owner)).sort(byName);
  let start = 0;
  if (query.marker !== undefined) {
    const at = rows.findIndex((r) => r.name === query.marker);
    if (at < 0) throw badRequest(`Marker ${query.marker} could not be found.`);
    start = at + 1;
  }
  return rows.slice(start, query.limit === undefined ? undefined : start + query.limit);
}

/** The key a server is created with (`_get_requested_key_pair`): the caller's own, by name. */
export async function keypairForServer(db: Db, auth: AuthContext, name: string): Promise<KeypairRow> {
  const row = await keypairsStore.byName(db, auth.userId, name);
  if (!row) throw badRequest('Invalid key_name provided.');
  return row;
}
