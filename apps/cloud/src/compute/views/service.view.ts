import type { Microversion } from '../../platform/http/microversion.js';
import { cinderTime } from '../../platform/time.js';
import { isUp, lastHeartbeat } from '../host/compute-hosts.js';
import type { LegacyUpdateResult } from '../service/os-services.service.js';
import type { ServiceRow } from '../store/hosts.store.js';

/**
 * One os-services entry (captures 106, 107, 187): integer ids below 2.53, uuids from 2.53;
 * `forced_down` from 2.11. `updated_at` is the last report, in Nova's naive DB format.
 */
export function serviceView(s: ServiceRow, version: Microversion, now = Date.now()) {
  return {
    binary: s.binary,
    host: s.host,
    id: version.atLeast('2.53') ? s.uuid : s.id,
    zone: s.zone,
    status: s.status === 'disabled' ? 'disabled' : 'enabled',
    state: isUp(s) ? 'up' : 'down',
    updated_at: cinderTime(lastHeartbeat(s, now)),
    disabled_reason: s.disabled_reason,
    ...(version.atLeast('2.11') ? { forced_down: s.forced_down === 1 } : {}),
  };
}

export function servicesView(rows: ServiceRow[], version: Microversion) {
  const now = Date.now();
  return { services: rows.map((s) => serviceView(s, version, now)) };
}

/** The pre-2.53 action answers only echo what was asked. */
export function legacyServiceUpdateView(r: LegacyUpdateResult) {
  return { service: r };
}
