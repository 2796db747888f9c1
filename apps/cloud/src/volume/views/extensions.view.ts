/**
 * The extensions Cinder 21 loads (`cinder/api/contrib`), in the order the reference cloud lists them
 * (capture 756): name, alias, the descriptor's docstring as is, and when it was updated.
 */
export const CINDER_EXTENSIONS: readonly {
  name: string;
  alias: string;
  description: string;
  updated: string;
}[] = [
  {
    name: 'VolumeImageMetadata',
    alias: 'os-vol-image-meta',
    description: 'Show image metadata associated with the volume.',
    updated: '2012-12-07T00:00:00+00:00',
  },
  {
    name: 'VolumeUnmanage',
    alias: 'os-volume-unmanage',
    description: 'Enable volume unmanage operation.',
    updated: '2012-05-31T00:00:00+00:00',
  },
  {
    name: 'UsedLimits',
    alias: 'os-used-limits',
    description: 'Provide data on limited resources that are being used.',
    updated: '2013-10-03T00:00:00+00:00',
  },
  {
    name: 'AdminActions',
    alias: 'os-admin-actions',
    description: 'Enable admin actions.',
    updated: '2012-08-25T00:00:00+00:00',
  },
  {
    name: 'Cgsnapshots',
    alias: 'cgsnapshots',
    description: 'cgsnapshots support.',
    updated: '2014-08-18T00:00:00+00:00',
  },
  {
    name: 'TypesExtraSpecs',
    alias: 'os-types-extra-specs',
    description: 'Type extra specs support.',
    updated: '2011-08-24T00:00:00+00:00',
  },
  {
    name: 'SnapshotUnmanage',
    alias: 'os-snapshot-unmanage',
    description: 'Enable volume unmanage operation.',
    updated: '2014-12-31T00:00:00+00:00',
  },
  {
    name: 'VolumeTypeEncryption',
    alias: 'encryption',
    description: 'Encryption support for volume types.',
    updated: '2013-07-01T00:00:00+00:00',
  },
  {
    name: 'VolumeEncryptionMetadata',
    alias: 'os-volume-encryption-metadata',
    description: 'Volume encryption metadata retrieval support.',
    updated: '2013-07-10T00:00:00+00:00',
  },
  {
    name: 'Consistencygroups',
    alias: 'consistencygroups',
    description: 'consistency groups support.',
    updated: '2014-08-18T00:00:00+00:00',
  },
  {
    name: 'SnapshotActions',
    alias: 'os-snapshot-actions',
    description: 'Enable snapshot manager actions.',
    updated: '2013-07-16T00:00:00+00:00',
  },
  {
    name: 'Backups',
    alias: 'backups',
    description: 'Backups support.',
    updated: '2012-12-12T00:00:00+00:00',
  },
  {
    name: 'Quotas',
    alias: 'os-quota-sets',
    description: 'Quota management support.',
    updated: '2011-08-08T00:00:00+00:00',
  },
  {
    name: 'VolumeActions',
    alias: 'os-volume-actions',
    description: 'Enable volume actions.',
    updated: '2012-05-31T00:00:00+00:00',
  },
  {
    name: 'QuotaClasses',
    alias: 'os-quota-class-sets',
    description: 'Quota classes management support.',
    updated: '2012-03-12T00:00:00+00:00',
  },
  {
    name: 'AvailabilityZones',
    alias: 'os-availability-zone',
    description: 'Describe Availability Zones.',
    updated: '2013-06-27T00:00:00+00:00',
  },
  {
    name: 'VolumeTypeAccess',
    alias: 'os-volume-type-access',
    description: 'Volume type access support.',
    updated: '2014-06-26T00:00:00Z',
  },
  {
    name: 'Services',
    alias: 'os-services',
    description: 'Services support.',
    updated: '2012-10-28T00:00:00-00:00',
  },
  {
    name: 'Hosts',
    alias: 'os-hosts',
    description: 'Admin-only host administration.',
    updated: '2011-06-29T00:00:00+00:00',
  },
  {
    name: 'TypesManage',
    alias: 'os-types-manage',
    description: 'Types manage support.',
    updated: '2011-08-24T00:00:00+00:00',
  },
  {
    name: 'ExtendedSnapshotAttributes',
    alias: 'os-extended-snapshot-attributes',
    description: 'Extended SnapshotAttributes support.',
    updated: '2012-06-19T00:00:00+00:00',
  },
  {
    name: 'SnapshotManage',
    alias: 'os-snapshot-manage',
    description: "Allows existing backend storage to be 'managed' by Cinder.",
    updated: '2014-12-31T00:00:00+00:00',
  },
  {
    name: 'Qos_specs_manage',
    alias: 'qos-specs',
    description: 'QoS specs support.',
    updated: '2013-08-02T00:00:00+00:00',
  },
  {
    name: 'VolumeHostAttribute',
    alias: 'os-vol-host-attr',
    description: 'Expose host as an attribute of a volume.',
    updated: '2011-11-03T00:00:00+00:00',
  },
  {
    name: 'Scheduler_stats',
    alias: 'scheduler-stats',
    description: 'Scheduler stats support.',
    updated: '2014-09-07T00:00:00+00:00',
  },
  {
    name: 'VolumeManage',
    alias: 'os-volume-manage',
    description: "Allows existing backend storage to be 'managed' by Cinder.",
    updated: '2014-02-10T00:00:00+00:00',
  },
  {
    name: 'VolumeMigStatusAttribute',
    alias: 'os-vol-mig-status-attr',
    description: 'Expose migration_status as an attribute of a volume.',
    updated: '2013-08-08T00:00:00+00:00',
  },
  {
    name: 'VolumeTransfer',
    alias: 'os-volume-transfer',
    description: 'Volume transfer management support.',
    updated: '2013-05-29T00:00:00+00:00',
  },
  {
    name: 'VolumeTenantAttribute',
    alias: 'os-vol-tenant-attr',
    description: 'Expose the internal project_id as an attribute of a volume.',
    updated: '2011-11-03T00:00:00+00:00',
  },
  {
    name: 'SchedulerHints',
    alias: 'OS-SCH-HNT',
    description: 'Pass arbitrary key/value pairs to the scheduler.',
    updated: '2013-04-18T00:00:00+00:00',
  },
  {
    name: 'ExtendedServices',
    alias: 'os-extended-services',
    description: 'Extended services support.',
    updated: '2014-01-10T00:00:00-00:00',
  },
  {
    name: 'Capabilities',
    alias: 'capabilities',
    description: 'Capabilities support.',
    updated: '2015-08-31T00:00:00+00:00',
  },
];
