import type { Microversion } from '../../platform/http/microversion.js';
import { novaHostId } from '../host-id.js';
import type { ActionDetail } from '../service/instance-actions.service.js';
import type { InstanceActionEventRow, InstanceActionRow } from '../store/instance-actions.store.js';
import { usageTime } from './server.view.js';

/** Nova's instance action views (`instance_actions.py` `_format_action`, `_format_event`). */

export function instanceActionView(a: InstanceActionRow, serverId: string, v: Microversion) {
  return {
    action: a.action,
    instance_uuid: serverId,
    request_id: a.request_id,
    user_id: a.user_id,
    project_id: a.project_id,
    start_time: usageTime(a.start_time),
    message: a.message,
    ...(v.atLeast('2.58') ? { updated_at: usageTime(a.updated_at) } : {}),
  };
}

function eventView(e: InstanceActionEventRow, projectId: string, d: ActionDetail) {
  return {
    event: e.event,
    start_time: usageTime(e.start_time),
    finish_time: usageTime(e.finish_time),
    result: e.result,
    ...(d.showTraceback ? { traceback: e.traceback } : {}),
    ...(d.showHost ? { host: e.host } : {}),
    ...(d.showHostId ? { hostId: novaHostId(projectId, e.host) } : {}),
    ...(d.showDetails ? { details: e.details } : {}),
  };
}

export function instanceActionDetailView(d: ActionDetail, v: Microversion) {
  const view: Record<string, unknown> = instanceActionView(d.action, d.server.id, v);
  if (d.events) {
    const projectId = d.action.project_id ?? d.server.project_id;
    view.events = d.events.map((e) => eventView(e, projectId, d));
  }
  return view;
}

/** `_get_collection_links` keyed by request_id: a next link when the page is full. */
export function instanceActionsLinks(
  computeBase: string,
  serverId: string,
  query: Record<string, unknown>,
  limit: number | null,
  page: readonly InstanceActionRow[],
) {
  const last = page.at(-1);
  if (limit === null || !last || page.length !== limit) return [];
  const params = new Map<string, string>();
  for (const [k, val] of Object.entries(query)) params.set(k, String(Array.isArray(val) ? val.at(-1) : val));
  params.set('marker', last.request_id);
  const quote = (s: string) => encodeURIComponent(s).replaceAll('%20', '+');
  const qs = [...params.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, val]) => `${quote(k)}=${quote(val)}`)
    .join('&');
  return [{ rel: 'next', href: `${computeBase}/v2.1/servers/${serverId}/os-instance-actions?${qs}` }];
}
