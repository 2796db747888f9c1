import { cinderTime } from '../../platform/time.js';
import type { TypeEncryptionRow } from '../store/type-encryption.store.js';

/** GET /types/{id}/encryption: the whole row as Cinder's model dumps it (capture 816). */
export function encryptionView(row: TypeEncryptionRow): Record<string, unknown> {
  return {
    created_at: cinderTime(row.created_at),
    updated_at: cinderTime(row.updated_at),
    deleted_at: null,
    deleted: false,
    encryption_id: row.encryption_id,
    cipher: row.cipher,
    key_size: row.key_size,
    provider: row.provider,
    control_location: row.control_location,
    volume_type_id: row.volume_type_id,
  };
}
