import type { Migration } from 'kysely';
import * as identity from './0001_identity.js';
import * as volume from './0002_volume.js';
import * as compute from './0010_compute.js';
import * as bdmDetachRequested from './0011_bdm_detach_requested.js';
// --- N: network ---
import * as network from './0050_network.js';
import * as serverPorts from './0051_server_ports.js';
// --- C1: the server's own API ---
import * as serverOwnApi from './0020_server_own_api.js';
import * as instanceActions from './0021_instance_actions.js';
// --- end C1 ---

/** Applied in key order on every start. Add new ones at the end; never edit an applied one. */
export const migrations: Record<string, Migration> = {
  '0001_identity': identity,
  '0002_volume': volume,
  '0010_compute': compute,
  '0011_bdm_detach_requested': bdmDetachRequested,
  // --- N: network ---
  '0050_network': network,
  '0051_server_ports': serverPorts,
  // --- C1: the server's own API ---
  '0020_server_own_api': serverOwnApi,
  '0021_instance_actions': instanceActions,
  // --- end C1 ---
};
