import { cinderTime } from '../../platform/time.js';
import type { AttachmentRow } from '../store/attachments.store.js';

/**
 * Cinder's attachments views (`api/v3/views/attachments.py`). The keys are the same at every
 * microversion from 3.27 to 3.71 (captures 39-44, 47-48, 257-259), so no version argument.
 */
export interface AttachmentSummary {
  id: string;
  status: string;
  instance: string | null;
  volume_id: string;
}

export interface AttachmentDetail extends AttachmentSummary {
  attached_at: string;
  detached_at: string;
  attach_mode: string;
  connection_info: Record<string, unknown>;
}

export function attachmentSummary(row: AttachmentRow): AttachmentSummary {
  return { id: row.id, status: row.attach_status, instance: row.instance_uuid, volume_id: row.volume_id };
}

export function attachmentDetail(row: AttachmentRow): AttachmentDetail {
  return {
    ...attachmentSummary(row),
    // Cinder renders a missing time as "" here, unlike everywhere else (captures 60, 174).
    attached_at: cinderTime(row.attached_at) ?? '',
    detached_at: cinderTime(row.detached_at) ?? '',
    attach_mode: row.attach_mode,
    // A reserved attachment, and one completed without a connector, show {} (captures 60, 174).
    connection_info: parseObject(row.connection_info),
  };
}

export function attachmentList(
  rows: readonly AttachmentRow[],
  detail: boolean,
): { attachments: AttachmentSummary[] } {
  return { attachments: rows.map(detail ? attachmentDetail : attachmentSummary) };
}

function parseObject(text: string | null): Record<string, unknown> {
  if (!text) return {};
  const value: unknown = JSON.parse(text);
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
