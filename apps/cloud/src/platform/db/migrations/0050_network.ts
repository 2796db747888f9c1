import type { Kysely } from 'kysely';

/**
 * The minimal Neutron's tables: networks, subnets, ports (with their fixed IPs, one row per
 * address so that an address is unique in its subnet across processes), security groups and rules.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('networks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('admin_state_up', 'integer', (c) => c.notNull())
    .addColumn('shared', 'integer', (c) => c.notNull())
    .addColumn('external', 'integer', (c) => c.notNull())
    .addColumn('mtu', 'integer', (c) => c.notNull())
    .addColumn('port_security_enabled', 'integer', (c) => c.notNull())
    .addColumn('revision_number', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('subnets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('network_id', 'text', (c) => c.notNull().references('networks.id'))
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('ip_version', 'integer', (c) => c.notNull())
    .addColumn('cidr', 'text', (c) => c.notNull())
    .addColumn('gateway_ip', 'text')
    .addColumn('enable_dhcp', 'integer', (c) => c.notNull())
    .addColumn('allocation_pools', 'text', (c) => c.notNull())
    .addColumn('dns_nameservers', 'text', (c) => c.notNull())
    .addColumn('host_routes', 'text', (c) => c.notNull())
    .addColumn('revision_number', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('security_groups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('stateful', 'integer', (c) => c.notNull())
    // Neutron's default_security_group table: the project id on its default group (null
    // otherwise), unique, so that two requests racing to make it make one.
    .addColumn('default_of', 'text', (c) => c.unique())
    .addColumn('revision_number', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('security_group_rules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('security_group_id', 'text', (c) =>
      c.notNull().references('security_groups.id').onDelete('cascade'),
    )
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('ethertype', 'text', (c) => c.notNull())
    .addColumn('protocol', 'text')
    .addColumn('port_range_min', 'integer')
    .addColumn('port_range_max', 'integer')
    .addColumn('remote_ip_prefix', 'text')
    .addColumn('remote_group_id', 'text')
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('revision_number', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('ports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('network_id', 'text', (c) => c.notNull().references('networks.id'))
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('mac_address', 'text', (c) => c.notNull().unique())
    .addColumn('admin_state_up', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('device_owner', 'text', (c) => c.notNull())
    .addColumn('security_groups', 'text', (c) => c.notNull())
    .addColumn('port_security_enabled', 'integer', (c) => c.notNull())
    .addColumn('binding_host_id', 'text', (c) => c.notNull())
    .addColumn('revision_number', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ports_device_id').on('ports').column('device_id').execute();
  await db.schema
    .createTable('ip_allocations')
    .addColumn('subnet_id', 'text', (c) => c.notNull().references('subnets.id'))
    .addColumn('ip_address', 'text', (c) => c.notNull())
    .addColumn('port_id', 'text', (c) => c.notNull().references('ports.id').onDelete('cascade'))
    .addColumn('network_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('ip_allocations_pk', ['subnet_id', 'ip_address'])
    .execute();
  await db.schema.createIndex('ip_allocations_port').on('ip_allocations').column('port_id').execute();
}
