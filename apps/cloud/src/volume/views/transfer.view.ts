import type { Microversion } from '../../platform/http/microversion.js';
import { cinderTime } from '../../platform/time.js';
import type { TransferRow } from '../store/transfers.store.js';

export interface TransferViewContext {
  /** `{base}/volume/v3/{project}` and `{base}/volume/{project}` of the caller. */
  api: string;
  bookmark: string;
  /** The 3.55 `volume-transfers` API adds fields by microversion; `os-volume-transfer` never does. */
  newApi: boolean;
  version: Microversion;
}

/** Both APIs link to the transfer under `os-volume-transfer` (captures 920, 922). */
const links = (ctx: TransferViewContext, id: string) => [
  { rel: 'self', href: `${ctx.api}/os-volume-transfer/${id}` },
  { rel: 'bookmark', href: `${ctx.bookmark}/os-volume-transfer/${id}` },
];

/** views/transfers.py `summary`: list items and the accept answer. */
export const transferSummary = (ctx: TransferViewContext, t: TransferRow) => ({
  id: t.id,
  volume_id: t.volume_id,
  name: t.name,
  links: links(ctx, t.id),
});

/**
 * `detail` (show, detail list, and create with the key): v3's view adds `no_snapshots` (3.55) and
 * the projects and `accepted` (3.57); a pending transfer is never accepted.
 */
export function transferDetail(ctx: TransferViewContext, t: TransferRow, authKey?: string) {
  return {
    id: t.id,
    created_at: cinderTime(t.created_at),
    name: t.name,
    volume_id: t.volume_id,
    ...(authKey !== undefined ? { auth_key: authKey } : {}),
    links: links(ctx, t.id),
    ...(ctx.newApi ? { no_snapshots: t.no_snapshots === 1 } : {}),
    ...(ctx.newApi && ctx.version.atLeast('3.57')
      ? { destination_project_id: null, source_project_id: t.project_id, accepted: false }
      : {}),
  };
}
