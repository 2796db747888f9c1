import type { ComputeDeps } from '../deps.js';
import type { AuthContext } from '../../platform/http/context.js';
import { policyForbidden } from '../../platform/http/errors.js';
import type { Microversion } from '../../platform/http/microversion.js';
import { validateBody } from '../schemas/validation.js';
import { externalEventsSchema } from '../schemas/server-external-events.schemas.js';
import { serversStore } from '../store/servers.store.js';

/**
 * `server_external_events.py`: Neutron and Cinder tell Nova about a server's ports and volumes.
 * Each event is answered on its own: 200 for a server on a host, 404 for an unknown server, 422
 * for one not on a host yet; any refusal makes the whole answer 207 (captures 731-733). The
 * emulated hosts have nothing waiting on these events, so an accepted event changes nothing.
 */

export const EXTERNAL_EVENTS_RULE = 'os_compute_api:os-server-external-events:create';

export interface ExternalEventResult {
  name: string;
  server_uuid: string;
  tag?: string;
  status: string;
  code: 200 | 404 | 422;
}

export async function createExternalEvents(
  deps: ComputeDeps,
  auth: AuthContext,
  version: Microversion,
  body: unknown,
): Promise<{ status: 200 | 207; events: ExternalEventResult[] }> {
  const { events } = validateBody(externalEventsSchema(version), body);
  if (!auth.isAdmin) throw policyForbidden(EXTERNAL_EVENTS_RULE);
  const rows = await serversStore.byIds(deps.store.db, [...new Set(events.map((e) => e.server_uuid))]);
  const live = new Map(rows.filter((s) => !s.deleted).map((s) => [s.id, s]));
  const results = events.map((e): ExternalEventResult => {
    const server = live.get(e.server_uuid);
    const code = !server ? 404 : server.host ? 200 : 422;
    return {
      name: e.name,
      server_uuid: e.server_uuid,
      ...(e.tag !== undefined ? { tag: e.tag } : {}),
      status: code === 200 ? (e.status ?? 'completed') : 'failed',
      code,
    };
  });
  return { status: results.every((r) => r.code === 200) ? 200 : 207, events: results };
}
