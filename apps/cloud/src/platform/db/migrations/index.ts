import type { Migration } from 'kysely';
import * as identity from './0001_identity.js';
import * as volume from './0002_volume.js';
import * as compute from './0010_compute.js';
import * as bdmDetachRequested from './0011_bdm_detach_requested.js';
// --- C2: tenancy ---
import * as keypairs from './0030_keypairs.js';
import * as quotas from './0031_quotas.js';

/** Applied in key order on every start. Add new ones at the end; never edit an applied one. */
export const migrations: Record<string, Migration> = {
  '0001_identity': identity,
  '0002_volume': volume,
  '0010_compute': compute,
  '0011_bdm_detach_requested': bdmDetachRequested,
  // --- C2: tenancy ---
  '0030_keypairs': keypairs,
  '0031_quotas': quotas,
};
