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

export interface Schema {
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
