import type { Migration } from 'kysely';
import * as identity from './0001_identity.js';
import * as volume from './0002_volume.js';
import * as compute from './0010_compute.js';
import * as bdmDetachRequested from './0011_bdm_detach_requested.js';
import * as serverOwnApi from './0020_server_own_api.js';
import * as instanceActions from './0021_instance_actions.js';
import * as keypairs from './0030_keypairs.js';
import * as quotas from './0031_quotas.js';
import * as volumeSnapshots from './0040_volume_snapshots.js';
import * as volumeServices from './0041_volume_services.js';
import * as network from './0050_network.js';
import * as serverPorts from './0051_server_ports.js';
// --- cloud14v: volume type access ---
import * as volumeTypeAccess from './0070_volume_type_access.js';
// --- cloud15: server groups (issue 14) ---
import * as serverGroups from './0060_server_groups.js';
// --- end cloud15 ---
// --- cloudv2: block storage and flavor gaps ---
import * as volumeMessages from './0090_volume_messages.js';
import * as volumeTypeEncryption from './0091_volume_type_encryption.js';
// cloud-rebuild: user data and trusted certificates on the server
import * as serverRebuild from './0100_server_rebuild.js';
// --- cloud-rescue ---
import * as flavorProjects from './0105_flavor_projects.js';
import * as migrationsTable from './0106_migrations.js';

// --- cloud-proxy-hosts: host aggregates ---
import * as aggregates from './0120_aggregates.js';
// --- end cloud-proxy-hosts ---
// cloud-qos-transfer: QoS specs and volume transfers
import * as volumeQosSpecs from './0110_volume_qos_specs.js';
import * as volumeTransfers from './0111_volume_transfers.js';
import * as identityCatalog from './0112_identity_catalog.js';
// --- cloud-groups: generic volume groups ---
import * as volumeGroups from './0115_volume_groups.js';

/** Applied in key order on every start. Add new ones at the end; never edit an applied one. */
export const migrations: Record<string, Migration> = {
  '0001_identity': identity,
  '0002_volume': volume,
  '0010_compute': compute,
  '0011_bdm_detach_requested': bdmDetachRequested,
  // The server's own API: access IPs, disk config, metadata, lock, instance actions.
  '0020_server_own_api': serverOwnApi,
  '0021_instance_actions': instanceActions,
  // Tenancy: key pairs, compute and volume quotas and quota classes.
  '0030_keypairs': keypairs,
  '0031_quotas': quotas,
  // Block storage: snapshots, image metadata, services.
  '0040_volume_snapshots': volumeSnapshots,
  '0041_volume_services': volumeServices,
  // Network: Neutron's resources and compute's record of a server's ports.
  '0050_network': network,
  '0051_server_ports': serverPorts,
  // --- cloud15: server groups (issue 14) ---
  '0060_server_groups': serverGroups,
  // --- end cloud15 ---
  // --- cloud14v: the projects a private volume type is shared with ---
  '0070_volume_type_access': volumeTypeAccess,
  // --- cloudv2: Cinder's user messages ---
  '0090_volume_messages': volumeMessages,
  // --- cloudv2: volume type encryption ---
  '0091_volume_type_encryption': volumeTypeEncryption,
  // --- cloud-rebuild: user data and trusted certificates on the server ---
  '0100_server_rebuild': serverRebuild,
  // --- cloud-rescue: the projects a private flavor is shared with ---
  '0105_flavor_projects': flavorProjects,
  // cloud-rescue: resizes and cold migrations, for os-migrations
  '0106_migrations': migrationsTable,
  // cloud-qos-transfer: QoS specs and volume transfers
  '0110_volume_qos_specs': volumeQosSpecs,
  '0111_volume_transfers': volumeTransfers,
  '0112_identity_catalog': identityCatalog,
  // --- cloud-groups: generic volume groups, group types and group snapshots ---
  '0115_volume_groups': volumeGroups,
  // --- cloud-proxy-hosts: host aggregates ---
  '0120_aggregates': aggregates,
  // --- end cloud-proxy-hosts ---
};
