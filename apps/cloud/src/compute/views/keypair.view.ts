import type { Microversion } from '../../platform/http/microversion.js';
import type { KeypairRow } from '../store/keypairs.store.js';

/**
 * Key pairs as `keypairs.py` `_filter_keypair` shows them: name, public key and fingerprint
 * everywhere, `type` from 2.2, the owner on create and show, and the database fields on show.
 */

const typeFrom = (k: KeypairRow, version: Microversion) => (version.atLeast('2.2') ? { type: k.type } : {});

/** The API database keeps whole seconds: `2026-11-21T12:22:05.000000`. */
const apiDbTime = (iso: string) => `${iso.slice(0, 19)}.000000`;

export function keypairCreateView(k: KeypairRow, privateKey: string | null, version: Microversion) {
  return {
    keypair: {
      name: k.name,
      public_key: k.public_key,
      fingerprint: k.fingerprint,
      user_id: k.user_id,
      ...typeFrom(k, version),
      ...(privateKey !== null ? { private_key: privateKey } : {}),
    },
  };
}

export function keypairShowView(k: KeypairRow, version: Microversion) {
  return {
    keypair: {
      name: k.name,
      public_key: k.public_key,
      fingerprint: k.fingerprint,
      created_at: apiDbTime(k.created_at),
      deleted: false,
      deleted_at: null,
      id: k.id,
      user_id: k.user_id,
      updated_at: null,
      ...typeFrom(k, version),
    },
  };
}

export function keypairListItemView(k: KeypairRow, version: Microversion) {
  return {
    keypair: { name: k.name, public_key: k.public_key, fingerprint: k.fingerprint, ...typeFrom(k, version) },
  };
}
