import type { Microversion } from '../../platform/http/microversion.js';
import { ENHANCEMENTS_VERSION } from '../microversions.js';
import type { BdmRow } from '../store/bdms.store.js';

/**
 * os-volume_attachments JSON (`_translate_attachment_detail_view`): keys in Nova's order, each
 * only from the microversion that added it; `attach_mode` only at the enhancement version.
 */
export function volumeAttachmentView(bdm: BdmRow, version: Microversion): Record<string, unknown> {
  const newStyle = version.atLeast('2.89');
  const out: Record<string, unknown> = {};
  if (!newStyle) out['id'] = bdm.volume_id;
  out['volumeId'] = bdm.volume_id;
  out['serverId'] = bdm.server_id;
  // No device name yet (shelved-offloaded attach): the key is left out (capture 175).
  if (bdm.device_name) out['device'] = bdm.device_name;
  if (version.atLeast('2.70')) out['tag'] = bdm.tag;
  if (version.atLeast('2.79')) out['delete_on_termination'] = bdm.delete_on_termination === 1;
  if (newStyle) {
    out['attachment_id'] = bdm.attachment_id;
    out['bdm_uuid'] = bdm.uuid;
  }
  if (version.atLeast(ENHANCEMENTS_VERSION)) out['attach_mode'] = bdm.attach_mode ?? 'rw';
  return out;
}

/** GET list: mappings without a volume are not attachments; from 2.89 old-style ones are skipped. */
export function volumeAttachmentsView(bdms: readonly BdmRow[], version: Microversion) {
  const shown = bdms.filter(
    (b) => b.volume_id !== null && (version.below('2.89') || b.attachment_id !== null),
  );
  return { volumeAttachments: shown.map((b) => volumeAttachmentView(b, version)) };
}

/** The POST answer below 2.101: what was asked plus the reserved device (null when offloaded). */
export function attachResponseView(bdm: BdmRow, version: Microversion) {
  const out: Record<string, unknown> = {
    id: bdm.volume_id,
    serverId: bdm.server_id,
    volumeId: bdm.volume_id,
    device: bdm.device_name,
  };
  if (version.atLeast('2.70')) out['tag'] = bdm.tag;
  if (version.atLeast('2.79')) out['delete_on_termination'] = bdm.delete_on_termination === 1;
  return { volumeAttachment: out };
}
