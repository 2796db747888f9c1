/**
 * The SQL schema as Kysely sees it. One schema for SQLite and PostgreSQL, so only portable
 * types: text ids and ISO-8601 text times, integer 0/1 booleans, JSON kept as text.
 */
export type Bool = 0 | 1;

export interface DomainsTable {
  id: string;
  name: string;
  description: string;
  enabled: Bool;
}

export interface ProjectsTable {
  id: string;
  name: string;
  domain_id: string;
  description: string;
  enabled: Bool;
  parent_id: string | null;
  created_at: string;
}

export interface UsersTable {
  id: string;
  name: string;
  domain_id: string;
  /** scrypt: `scrypt$<salt hex>$<hash hex>` */
  password_hash: string;
  enabled: Bool;
  email: string | null;
  description: string | null;
  default_project_id: string | null;
  created_at: string;
}

export interface RolesTable {
  id: string;
  name: string;
  description: string | null;
}

export interface RoleAssignmentsTable {
  user_id: string;
  project_id: string;
  role_id: string;
}

export interface TokensTable {
  /** sha256 of the token string: a leaked database does not leak live tokens. */
  id: string;
  user_id: string;
  project_id: string | null;
  /** JSON array, e.g. ["password"] */
  methods: string;
  audit_id: string;
  issued_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export interface VolumeTypesTable {
  id: string;
  name: string;
  description: string | null;
  is_public: Bool;
  created_at: string;
}

export interface VolumeTypeExtraSpecsTable {
  volume_type_id: string;
  key: string;
  value: string;
}

export interface VolumesTable {
  id: string;
  project_id: string;
  user_id: string;
  name: string | null;
  description: string | null;
  size: number;
  status: string;
  /** Cinder's attach_status: detached, attaching, attached, ... */
  attach_status: string;
  volume_type_id: string;
  availability_zone: string;
  bootable: Bool;
  multiattach: Bool;
  /** The backend, `host@backend#pool`, once scheduled. */
  host: string | null;
  /** User metadata, JSON object. */
  metadata: string;
  /** Admin metadata `readonly`, 'True' | 'False', once os-update_readonly_flag has run. */
  readonly_flag: string | null;
  migration_status: string | null;
  snapshot_id: string | null;
  source_volid: string | null;
  encrypted: Bool;
  created_at: string;
  updated_at: string | null;
  launched_at: string | null;
}

export interface VolumeAttachmentsTable {
  id: string;
  volume_id: string;
  instance_uuid: string | null;
  /** The compute host that connected it (Cinder's attached_host, shown as host_name). */
  attached_host: string | null;
  mountpoint: string | null;
  /** reserved, attaching, attached, detaching, error_attaching, error_detaching */
  attach_status: string;
  /** 'rw' | 'ro' | 'null' (Cinder stores the string "null" until a mode is known) */
  attach_mode: string;
  connector: string | null;
  connection_info: string | null;
  attached_at: string | null;
  detached_at: string | null;
  created_at: string;
  updated_at: string | null;
}

export interface Schema extends ComputeSchema, NetworkSchema {
  domains: DomainsTable;
  projects: ProjectsTable;
  users: UsersTable;
  roles: RolesTable;
  role_assignments: RoleAssignmentsTable;
  tokens: TokensTable;
  volume_types: VolumeTypesTable;
  volume_type_extra_specs: VolumeTypeExtraSpecsTable;
  volumes: VolumesTable;
  volume_attachments: VolumeAttachmentsTable;
}

export interface ComputeServicesTable {
  /** Integer ids are what os-services shows below 2.53. */
  id: number;
  uuid: string;
  binary: string;
  host: string;
  zone: string;
  status: string;
  disabled_reason: string | null;
  forced_down: Bool;
  /** Nova's service version; hosts below ATTACH_MODE_MIN_SERVICE_VERSION cannot do attach modes. */
  version: number;
  updated_at: string;
}

export interface ComputeNodesTable {
  id: number;
  uuid: string;
  service_id: number;
  host: string;
  hypervisor_hostname: string;
  hypervisor_type: string;
  hypervisor_version: number;
  host_ip: string;
  vcpus: number;
  memory_mb: number;
  local_gb: number;
  /** The virt driver's supports_multiattach capability (trait COMPUTE_VOLUME_MULTI_ATTACH). */
  supports_multiattach: Bool;
}

export interface FlavorsTable {
  id: string;
  internal_id: number;
  name: string;
  vcpus: number;
  ram: number;
  disk: number;
  ephemeral: number;
  swap: number;
  rxtx_factor: number;
  is_public: Bool;
  disabled: Bool;
  description: string | null;
  /** JSON object */
  extra_specs: string;
  created_at: string;
}

export interface ImagesTable {
  id: string;
  name: string;
  status: string;
  visibility: string;
  owner: string | null;
  size: number;
  disk_format: string;
  container_format: string;
  min_disk: number;
  min_ram: number;
  checksum: string | null;
  /** JSON object of extra image properties */
  properties: string;
  created_at: string;
  updated_at: string;
}

export interface ServersTable {
  id: string;
  project_id: string;
  user_id: string;
  name: string;
  hostname: string;
  description: string | null;
  /** Nova's vm_state (active, building, stopped, shelved_offloaded, resized, error, deleted ...) */
  vm_state: string;
  task_state: string | null;
  power_state: number;
  host: string | null;
  node: string | null;
  availability_zone: string | null;
  requested_availability_zone: string | null;
  flavor_id: string;
  /** JSON snapshot of the flavor at boot (the embedded flavor of 2.47+). */
  flavor: string;
  old_flavor: string | null;
  image_id: string | null;
  reservation_id: string;
  launch_index: number;
  key_name: string | null;
  metadata: string;
  tags: string;
  security_groups: string;
  config_drive: string;
  locked: Bool;
  locked_reason: string | null;
  /** JSON {code, message, details, created} when the server is in ERROR. */
  fault: string | null;
  created_at: string;
  updated_at: string;
  launched_at: string | null;
  terminated_at: string | null;
  deleted: Bool;
  // C1 (migration 0020).
  access_ip_v4: string | null;
  access_ip_v6: string | null;
  /** 1: `OS-DCF:diskConfig` AUTO. */
  auto_disk_config: Bool;
  /** `owner` or `admin` while locked. */
  locked_by: string | null;
  /** The guest's encrypted password (os-server-password), null when none. */
  password: string | null;
  // cloud-rebuild (migration 0100).
  /** Base64 user data given at create or rebuild (2.57+). */
  user_data: string | null;
  /** JSON array of trusted image certificate ids (2.63+), null when none. */
  trusted_certs: string | null;
}

export interface BlockDeviceMappingsTable {
  /** Nova's bdm_uuid, shown from 2.89. */
  uuid: string;
  server_id: string;
  source_type: string;
  destination_type: string;
  volume_id: string | null;
  image_id: string | null;
  /** The Cinder attachment this mapping holds. */
  attachment_id: string | null;
  boot_index: number | null;
  device_name: string | null;
  device_type: string | null;
  disk_bus: string | null;
  guest_format: string | null;
  volume_size: number | null;
  volume_type: string | null;
  delete_on_termination: Bool;
  tag: string | null;
  /** 'ro' | 'rw' for volume mappings (2.105), null for local ones. */
  attach_mode: string | null;
  connection_info: string | null;
  created_at: string;
  updated_at: string | null;
  /** When Nova accepted a detach the host has not finished (null otherwise); a restart finishes it. */
  detach_requested_at?: string | null;
}

// --- C1: instance actions (migration 0021) ---
export interface InstanceActionsTable {
  id: string;
  server_id: string;
  seq: number;
  action: string;
  request_id: string;
  user_id: string | null;
  project_id: string | null;
  start_time: string;
  finish_time: string | null;
  /** 'Error' once an event failed. */
  message: string | null;
  created_at: string;
  updated_at: string;
}

export interface InstanceActionEventsTable {
  id: string;
  action_id: string;
  server_id: string;
  event: string;
  start_time: string;
  finish_time: string | null;
  /** 'Success' or 'Error'; null while running. */
  result: string | null;
  traceback: string | null;
  host: string | null;
  details: string | null;
}
// --- end C1 ---
// --- C2: tenancy ---
export interface KeypairsTable {
  /** Nova's integer id, shown by `GET /os-keypairs/{name}`. */
  id: number;
  user_id: string;
  name: string;
  /** `ssh` or `x509`. */
  type: string;
  public_key: string;
  fingerprint: string;
  created_at: string;
}

export interface QuotasTable {
  project_id: string;
  /** '' for the project's own limit; Nova also keeps per-user limits. */
  user_id: string;
  resource: string;
  hard_limit: number;
}

export interface QuotaClassesTable {
  class_name: string;
  resource: string;
  hard_limit: number;
}

export interface ComputeSchema {
  compute_services: ComputeServicesTable;
  compute_nodes: ComputeNodesTable;
  flavors: FlavorsTable;
  images: ImagesTable;
  servers: ServersTable;
  block_device_mappings: BlockDeviceMappingsTable;
  // --- C1 ---
  instance_actions: InstanceActionsTable;
  instance_action_events: InstanceActionEventsTable;
  // --- end C1 ---
}

// --- N: network ---
export interface NetworksTable {
  id: string;
  project_id: string;
  name: string;
  description: string;
  admin_state_up: Bool;
  shared: Bool;
  /** `router:external`. */
  external: Bool;
  mtu: number;
  port_security_enabled: Bool;
  revision_number: number;
  created_at: string;
  updated_at: string;
}

export interface SubnetsTable {
  id: string;
  network_id: string;
  project_id: string;
  name: string;
  description: string;
  ip_version: number;
  cidr: string;
  gateway_ip: string | null;
  enable_dhcp: Bool;
  /** JSON [{start, end}]. */
  allocation_pools: string;
  /** JSON array of addresses. */
  dns_nameservers: string;
  /** JSON [{destination, nexthop}]. */
  host_routes: string;
  revision_number: number;
  created_at: string;
  updated_at: string;
}

export interface SecurityGroupsTable {
  id: string;
  project_id: string;
  name: string;
  description: string;
  stateful: Bool;
  /** The project's id on its `default` group (one per project), null on the others. */
  default_of: string | null;
  revision_number: number;
  created_at: string;
  updated_at: string;
}

export interface SecurityGroupRulesTable {
  id: string;
  security_group_id: string;
  project_id: string;
  direction: string;
  ethertype: string;
  protocol: string | null;
  port_range_min: number | null;
  port_range_max: number | null;
  remote_ip_prefix: string | null;
  remote_group_id: string | null;
  description: string;
  revision_number: number;
  created_at: string;
  updated_at: string;
}

export interface PortsTable {
  id: string;
  network_id: string;
  project_id: string;
  name: string;
  description: string;
  mac_address: string;
  admin_state_up: Bool;
  status: string;
  device_id: string;
  device_owner: string;
  /** JSON array of security group ids. */
  security_groups: string;
  port_security_enabled: Bool;
  binding_host_id: string;
  revision_number: number;
  created_at: string;
  updated_at: string;
}

export interface IpAllocationsTable {
  subnet_id: string;
  ip_address: string;
  port_id: string;
  network_id: string;
}

/** Compute's record of a server's ports (Nova's network info cache). */
export interface ServerPortsTable {
  server_id: string;
  port_id: string;
  position: number;
  preserve_on_delete: Bool;
  tag: string | null;
}

export interface NetworkSchema {
  server_ports: ServerPortsTable;
  networks: NetworksTable;
  subnets: SubnetsTable;
  security_groups: SecurityGroupsTable;
  security_group_rules: SecurityGroupRulesTable;
  ports: PortsTable;
  ip_allocations: IpAllocationsTable;
}

// --- V1: block storage everyday API (snapshots, image metadata) ---
export interface VolumeSnapshotsTable {
  id: string;
  project_id: string;
  user_id: string;
  volume_id: string;
  name: string | null;
  description: string | null;
  /** creating, available, deleting, error, error_deleting, ... (Cinder's SnapshotStatus) */
  status: string;
  /** '0%' .. '100%' */
  progress: string;
  volume_size: number;
  volume_type_id: string;
  /** User metadata, JSON object. */
  metadata: string;
  created_at: string;
  updated_at: string | null;
}

/** Cinder's volume_glance_metadata: one key of a volume's (or a snapshot's) image metadata. */
export interface VolumeGlanceMetadataTable {
  resource_id: string;
  resource_kind: 'volume' | 'snapshot';
  key: string;
  value: string;
}

/** Cinder's services (cinder-scheduler, cinder-volume): enabled or not, frozen or not. */
export interface VolumeServicesTable {
  binary: string;
  host: string;
  availability_zone: string;
  disabled: Bool;
  disabled_reason: string | null;
  frozen: Bool;
  created_at: string;
  updated_at: string | null;
}

export interface Schema {
  volume_snapshots: VolumeSnapshotsTable;
  volume_glance_metadata: VolumeGlanceMetadataTable;
  volume_services: VolumeServicesTable;
  // --- C2: tenancy ---
  keypairs: KeypairsTable;
  compute_quotas: QuotasTable;
  compute_quota_classes: QuotaClassesTable;
  volume_quotas: QuotasTable;
  volume_quota_classes: QuotaClassesTable;
  // --- cloud14v: volume type access ---
  volume_type_projects: VolumeTypeProjectsTable;
  // --- cloud15: server groups (issue 14) ---
  server_groups: ServerGroupsTable;
  server_group_members: ServerGroupMembersTable;
  // --- end cloud15 ---
  // --- cloudv2: block storage and flavor gaps ---
  volume_messages: VolumeMessagesTable;
  volume_type_encryption: VolumeTypeEncryptionTable;
  // --- cloud-rescue: flavor access ---
  flavor_projects: FlavorProjectsTable;
  migrations: MigrationsTable;
  // --- cloud-proxy-hosts: host aggregates ---
  aggregates: AggregatesTable;
  aggregate_hosts: AggregateHostsTable;
  aggregate_ids: AggregateIdsTable;
  // --- end cloud-proxy-hosts ---
  // --- cloud-groups: generic volume groups ---
  group_types: GroupTypesTable;
  group_type_specs: GroupTypeSpecsTable;
  volume_groups: VolumeGroupsTable;
  volume_group_types: VolumeGroupTypesTable;
  volume_group_members: VolumeGroupMembersTable;
  group_snapshots: GroupSnapshotsTable;
  group_snapshot_members: GroupSnapshotMembersTable;
}

// --- cloud14v: volume type access ---
/** Cinder's volume_type_projects: a private type shared with a project. */
export interface VolumeTypeProjectsTable {
  volume_type_id: string;
  project_id: string;
}

// --- cloud15: server groups (issue 14) ---
export interface ServerGroupsTable {
  id: string;
  project_id: string;
  user_id: string;
  name: string;
  /** affinity, anti-affinity, soft-affinity or soft-anti-affinity. */
  policy: string;
  /** JSON object: `{}` or `{"max_server_per_host": N}` (2.64, anti-affinity only). */
  rules: string;
  created_at: string;
}

export interface ServerGroupMembersTable {
  group_id: string;
  server_id: string;
}
// --- end cloud15 ---

// --- cloudv2: block storage and flavor gaps ---
/** Cinder's messages table: one user message about a failed request (message/api.py). */
export interface VolumeMessagesTable {
  id: string;
  project_id: string;
  request_id: string;
  /** VOLUME, SNAPSHOT, ... (message_field.Resource). */
  resource_type: string;
  resource_uuid: string | null;
  /** `<resource>_<action id>_<detail id>`, e.g. VOLUME_VOLUME_001_003. */
  event_id: string;
  /** ERROR (the only level Cinder writes). */
  message_level: string;
  /** `<action>:<detail>` as Cinder translates them. */
  user_message: string;
  created_at: string;
  /** created_at + message_ttl (30 days): the message's guaranteed_until. */
  expires_at: string;
}

/** Cinder's encryption table: a volume type's encryption specs (admins only). */
export interface VolumeTypeEncryptionTable {
  volume_type_id: string;
  encryption_id: string;
  provider: string;
  /** front-end or back-end. */
  control_location: string;
  cipher: string | null;
  key_size: number | null;
  created_at: string;
  updated_at: string | null;
}

// --- cloud-rescue: flavor access ---
/** Nova's flavor_projects: the projects a private flavor is shared with. */
export interface FlavorProjectsTable {
  flavor_id: string;
  project_id: string;
}

/** Nova's migrations: resizes and cold migrations (os-migrations). */
export interface MigrationsTable {
  id: number;
  uuid: string;
  server_id: string;
  /** migration or resize. */
  migration_type: string;
  status: string;
  source_compute: string | null;
  source_node: string | null;
  dest_compute: string | null;
  dest_node: string | null;
  dest_host: string | null;
  old_instance_type_id: number | null;
  new_instance_type_id: number | null;
  user_id: string | null;
  project_id: string | null;
  created_at: string;
  updated_at: string | null;
}
// --- cloud-proxy-hosts: host aggregates ---
/** Nova's aggregates; `metadata` is a JSON object of strings, `availability_zone` among them. */
export interface AggregatesTable {
  id: number;
  uuid: string;
  name: string;
  metadata: string;
  created_at: string;
  updated_at: string | null;
  deleted: Bool;
  deleted_at: string | null;
}

export interface AggregateHostsTable {
  aggregate_id: number;
  host: string;
  /** The host's zone before an aggregate's zone applied: where it returns when it leaves. */
  home_zone: string;
  created_at: string;
}

/** One row: the last aggregate id handed out, and the lock of every aggregate change. */
export interface AggregateIdsTable {
  id: number;
  last_id: number;
}
// --- end cloud-proxy-hosts ---
// cloud-qos-transfer: QoS specs and volume transfers
export interface Schema {
  volume_qos_specs: VolumeQosSpecsTable;
  volume_type_qos: VolumeTypeQosTable;
  volume_transfers: VolumeTransfersTable;
  catalog_regions: CatalogRegionsTable;
  catalog_services: CatalogServicesTable;
  catalog_endpoints: CatalogEndpointsTable;
}

/** Cinder's quality_of_service_specs: a named set of QoS keys for a consumer. */
export interface VolumeQosSpecsTable {
  id: string;
  name: string;
  /** front-end, back-end or both. */
  consumer: string;
  /** JSON object of string keys and values. */
  specs: string;
  created_at: string;
}

/** A volume type's qos_specs_id (at most one spec set per type). */
export interface VolumeTypeQosTable {
  volume_type_id: string;
  qos_specs_id: string;
}

/** Cinder's transfers: a volume waiting to be accepted by another project. */
export interface VolumeTransfersTable {
  id: string;
  volume_id: string;
  /** The source project, the volume's owner when the transfer was made. */
  project_id: string;
  name: string | null;
  salt: string;
  /** sha1(salt + auth_key), hex: the key itself is shown once, at creation. */
  crypt_hash: string;
  no_snapshots: Bool;
  created_at: string;
}

/** Keystone's regions (RegionOne, seeded, and what admins add). */
export interface CatalogRegionsTable {
  id: string;
  description: string;
  parent_region_id: string | null;
}

/** Keystone's services added by admins (the cloud's own are derived from its URL). */
export interface CatalogServicesTable {
  id: string;
  type: string;
  name: string | null;
  description: string | null;
  enabled: Bool;
}

/** Keystone's endpoints added by admins. */
export interface CatalogEndpointsTable {
  id: string;
  service_id: string;
  interface: string;
  region_id: string | null;
  url: string;
  enabled: Bool;
}
// --- end cloud-qos-transfer ---
// --- cloud-groups: generic volume groups ---
/** Cinder's group_types (3.11). */
export interface GroupTypesTable {
  id: string;
  name: string;
  description: string | null;
  is_public: Bool;
  created_at: string;
}

/** Cinder's group_type_specs: one key of a group type's specs. */
export interface GroupTypeSpecsTable {
  group_type_id: string;
  key: string;
  value: string;
}

/** Cinder's groups (3.13): a project's generic volume group. */
export interface VolumeGroupsTable {
  id: string;
  project_id: string;
  user_id: string;
  name: string | null;
  description: string | null;
  /** creating, available, updating, deleting, error, ... (GroupStatus). */
  status: string;
  availability_zone: string;
  group_type_id: string;
  /** The group snapshot or the group it was created from (3.14 create-from-src). */
  group_snapshot_id: string | null;
  source_group_id: string | null;
  created_at: string;
  updated_at: string | null;
}

/** Cinder's group_volume_type_mapping: the volume types a group takes, in the order given. */
export interface VolumeGroupTypesTable {
  group_id: string;
  volume_type_id: string;
  position: number;
}

/** A volume's group (Cinder's volumes.group_id). */
export interface VolumeGroupMembersTable {
  volume_id: string;
  group_id: string;
}

/** Cinder's group_snapshots (3.14). */
export interface GroupSnapshotsTable {
  id: string;
  project_id: string;
  user_id: string;
  group_id: string;
  group_type_id: string;
  name: string | null;
  description: string | null;
  status: string;
  created_at: string;
  updated_at: string | null;
}

/** A snapshot's group snapshot (Cinder's snapshots.group_snapshot_id). */
export interface GroupSnapshotMembersTable {
  snapshot_id: string;
  group_snapshot_id: string;
}
