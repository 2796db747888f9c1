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

export interface Schema extends ComputeSchema {
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
  // --- C2: tenancy ---
  keypairs: KeypairsTable;
  compute_quotas: QuotasTable;
  compute_quota_classes: QuotaClassesTable;
  volume_quotas: QuotasTable;
  volume_quota_classes: QuotaClassesTable;
}
