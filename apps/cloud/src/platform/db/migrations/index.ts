import type { Migration } from 'kysely';
import * as identity from './0001_identity.js';
import * as volume from './0002_volume.js';
import * as compute from './0010_compute.js';
import * as bdmDetachRequested from './0011_bdm_detach_requested.js';
// --- V1: block storage everyday API ---
import * as volumeSnapshots from './0040_volume_snapshots.js';
import * as volumeServices from './0041_volume_services.js';

/** Applied in key order on every start. Add new ones at the end; never edit an applied one. */
export const migrations: Record<string, Migration> = {
  '0001_identity': identity,
  '0002_volume': volume,
  '0010_compute': compute,
  '0011_bdm_detach_requested': bdmDetachRequested,
  // --- V1: block storage everyday API ---
  '0040_volume_snapshots': volumeSnapshots,
  '0041_volume_services': volumeServices,
};
