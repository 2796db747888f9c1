import type { ComputeDeps } from '../deps.js';
import type { AuthContext } from '../../platform/http/context.js';
import { conflict, policyForbidden } from '../../platform/http/errors.js';
import type { Microversion } from '../../platform/http/microversion.js';
import { POWER } from '../server-states.js';
import { getServer } from './servers.service.js';

/**
 * GET /servers/{id}/diagnostics (`server_diagnostics.py`): admin only, for a running server on a
 * host. The reference cloud's FakeDriver answers fixed figures (captures 721-722), and an emulated
 * guest has no counters of its own, so the same figures are served: before 2.48 the driver's flat
 * key list, from 2.48 the standard `Diagnostics` object.
 */

export const SERVER_DIAGNOSTICS_RULE = 'os_compute_api:os-server-diagnostics';

/** `power_state.STATE_MAP`, for the conflict's wording. */
const POWER_STATE_NAMES: Record<number, string> = {
  0: 'pending',
  1: 'running',
  3: 'paused',
  4: 'shutdown',
  6: 'crashed',
  7: 'suspended',
};

export async function serverDiagnostics(
  deps: ComputeDeps,
  auth: AuthContext,
  version: Microversion,
  id: string,
): Promise<Record<string, unknown>> {
  const s = await getServer(deps, auth, id);
  if (!auth.isAdmin) throw policyForbidden(SERVER_DIAGNOSTICS_RULE);
  if (!s.host) throw conflict(`Instance ${id} is not ready`);
  if (s.power_state !== POWER.running) {
    const state = POWER_STATE_NAMES[s.power_state] ?? String(s.power_state);
    throw conflict(`Cannot 'get_diagnostics' instance ${id} while it is in power state ${state}`);
  }
  return version.atLeast('2.48') ? STANDARD_DIAGNOSTICS : LEGACY_DIAGNOSTICS;
}

/** FakeDriver.get_diagnostics (capture 721). */
const LEGACY_DIAGNOSTICS = {
  cpu0_time: 17300000000,
  memory: 524288,
  vda_errors: -1,
  vda_read: 262144,
  vda_read_req: 112,
  vda_write: 5778432,
  vda_write_req: 488,
  vnet1_rx: 2070139,
  vnet1_rx_drop: 0,
  vnet1_rx_errors: 0,
  vnet1_rx_packets: 26701,
  vnet1_tx: 140208,
  vnet1_tx_drop: 0,
  vnet1_tx_errors: 0,
  vnet1_tx_packets: 662,
};

/** FakeDriver.get_instance_diagnostics (capture 722). */
const STANDARD_DIAGNOSTICS = {
  state: 'running',
  driver: 'libvirt',
  hypervisor: 'kvm',
  hypervisor_os: 'ubuntu',
  uptime: 46664,
  config_drive: true,
  num_cpus: 1,
  num_nics: 1,
  num_disks: 1,
  disk_details: [
    { read_bytes: 262144, read_requests: 112, write_bytes: 5778432, write_requests: 488, errors_count: 1 },
  ],
  cpu_details: [{ id: 0, time: 17300000000, utilisation: 15 }],
  nic_details: [
    {
      mac_address: '01:23:45:67:89:ab',
      rx_octets: 2070139,
      rx_errors: 100,
      rx_drop: 200,
      rx_packets: 26701,
      rx_rate: 300,
      tx_octets: 140208,
      tx_errors: 400,
      tx_drop: 500,
      tx_packets: 662,
      tx_rate: 600,
    },
  ],
  memory_details: { maximum: 524288, used: 0 },
};
