import { describe, expect, it } from 'vitest';
import {
  parseStatusCsv,
  renderTemplate,
  resolveNames,
  selectTests,
  summarize,
  testClass,
} from './harness.js';

// What subunit2csv prints after a run (CRLF line ends; ids with a comma in their attributes quoted).
const csv = [
  'test,status,start_time,stop_time',
  'tempest.api.compute.keypairs.test_keypairs.KeyPairsV2TestJSON.test_keypair_create_delete[id-6c1d3123],success,2026-11-25 21:05:19.950657+00:00,2026-11-25 21:05:19.981217+00:00',
  '"tempest.api.compute.test_versions.TestVersions.test_list_api_versions[id-6c0a0990,smoke]",success,2026-11-25 21:05:21.201270+00:00,2026-11-25 21:05:21.248180+00:00',
  'tempest.api.compute.volumes.test_attach_volume.AttachVolumeTestJSON.test_attach_detach_volume[id-52e9045a],success,2026-11-25 21:13:08+00:00,2026-11-25 21:13:26+00:00',
  'tempest.api.compute.servers.test_servers.ServersTestJSON.test_create_specify_keypair[id-f9e15296],failure,2026-11-25 21:05:19+00:00,2026-11-25 21:05:19+00:00',
  'tempest.api.volume.test_volumes_backup.VolumesBackupsTest.test_backup_create[id-a66eb488],skip,2026-11-25 21:05:19+00:00,2026-11-25 21:05:19+00:00',
  'setUpClass (tempest.api.compute.servers.test_server_rescue.ServerRescueTestJSON),failure,2026-11-25 21:05:19+00:00,2026-11-25 21:05:19+00:00',
  'setUpClass (tempest.api.compute.admin.test_live_migration.LiveMigrationTest),skip,2026-11-25 21:05:19+00:00,2026-11-25 21:05:19+00:00',
  'tempest.api.volume.admin.test_volumes_actions.VolumesActionsTest.test_volume_force_delete_when_volume_is_error[id-3e33a8a8],success,2026-11-25 21:05:19+00:00,2026-11-25 21:05:19+00:00',
  'tearDownClass (tempest.api.volume.admin.test_volumes_actions.VolumesActionsTest),failure,2026-11-25 21:05:19+00:00,2026-11-25 21:05:19+00:00',
  '',
].join('\r\n');

describe('parseStatusCsv', () => {
  it('reads every row by test name, quoted ids and CRLF line ends included', () => {
    const statuses = parseStatusCsv(csv);
    expect(statuses.get('tempest.api.compute.test_versions.TestVersions.test_list_api_versions')).toBe(
      'success',
    );
    expect(
      statuses.get('tempest.api.compute.servers.test_servers.ServersTestJSON.test_create_specify_keypair'),
    ).toBe('failure');
    expect(
      statuses.get('setUpClass (tempest.api.compute.servers.test_server_rescue.ServerRescueTestJSON)'),
    ).toBe('failure');
    expect(statuses.size).toBe(9);
  });
});

describe('summarize', () => {
  // The ids as `tempest run --list-tests` gives them; attributes may differ from the run's.
  const requested = [
    'tempest.api.compute.keypairs.test_keypairs.KeyPairsV2TestJSON.test_keypair_create_delete[id-6c1d3123]',
    'tempest.api.compute.test_versions.TestVersions.test_list_api_versions[id-6c0a0990,smoke]',
    'tempest.api.compute.volumes.test_attach_volume.AttachVolumeTestJSON.test_attach_detach_volume[id-52e9045a,slow]',
    'tempest.api.compute.servers.test_servers.ServersTestJSON.test_create_specify_keypair[id-f9e15296]',
    'tempest.api.volume.test_volumes_backup.VolumesBackupsTest.test_backup_create[id-a66eb488]',
    'tempest.api.compute.servers.test_server_rescue.ServerRescueTestJSON.test_rescue_unrescue_instance[id-fd032140]',
    'tempest.api.compute.servers.test_server_rescue.ServerRescueTestJSON.test_rescued_vm_associate_dissociate_floating_ip[id-4842e0cf]',
    'tempest.api.compute.admin.test_live_migration.LiveMigrationTest.test_live_block_migration[id-1dce86b8]',
    'tempest.api.volume.admin.test_volumes_actions.VolumesActionsTest.test_volume_force_delete_when_volume_is_error[id-3e33a8a8]',
    'tempest.api.compute.servers.test_servers.ServersTestJSON.test_update_server_name[id-5e6ccff8]',
  ];
  const summary = summarize(requested, parseStatusCsv(csv));

  it('counts a test that passed under other attributes than listed as passed', () => {
    expect(summary.passed).toContain(
      'tempest.api.compute.volumes.test_attach_volume.AttachVolumeTestJSON.test_attach_detach_volume',
    );
    expect(summary.passed).toHaveLength(4);
  });

  it('counts the tests of a class whose set-up failed as failed, and of one whose set-up skipped as skipped', () => {
    expect(summary.failed).toContain(
      'tempest.api.compute.servers.test_server_rescue.ServerRescueTestJSON.test_rescue_unrescue_instance',
    );
    expect(summary.failed).toContain(
      'tempest.api.compute.servers.test_server_rescue.ServerRescueTestJSON.test_rescued_vm_associate_dissociate_floating_ip',
    );
    expect(summary.skipped).toEqual([
      'tempest.api.volume.test_volumes_backup.VolumesBackupsTest.test_backup_create',
      'tempest.api.compute.admin.test_live_migration.LiveMigrationTest.test_live_block_migration',
    ]);
  });

  it('counts a test that left no trace as failed, and a failed class clean-up as one more failure', () => {
    expect(summary.failed).toContain(
      'tempest.api.compute.servers.test_servers.ServersTestJSON.test_update_server_name',
    );
    expect(summary.failed).toContain(
      'tearDownClass (tempest.api.volume.admin.test_volumes_actions.VolumesActionsTest)',
    );
    expect(summary.failed).toHaveLength(5);
  });
});

describe('list helpers', () => {
  it('gives the class of a test and of a class fixture', () => {
    expect(testClass('tempest.api.a.test_b.C.test_d[id-1,smoke]')).toBe('tempest.api.a.test_b.C');
    expect(testClass('setUpClass (tempest.api.a.test_b.C)')).toBe('tempest.api.a.test_b.C');
  });

  it('resolves names to listed ids and returns the unknown ones apart', () => {
    const ids = ['tempest.api.a.test_b.C.test_d[id-1,smoke]', 'tempest.api.a.test_b.C.test_e[id-2]'];
    expect(resolveNames(['tempest.api.a.test_b.C.test_e', 'tempest.api.a.test_b.C.test_x'], ids)).toEqual({
      ids: ['tempest.api.a.test_b.C.test_e[id-2]'],
      unknown: ['tempest.api.a.test_b.C.test_x'],
    });
  });

  it('keeps excluded tests out of both sets', () => {
    const ids = [
      'tempest.api.compute.servers.test_servers.ServersTestJSON.test_update_server_name[id-1]',
      'tempest.api.compute.floating_ips.test_list_floating_ips.FloatingIPDetailsTestJSON.test_list_floating_ips[id-2]',
      'tempest.api.compute.admin.test_aggregates.AggregatesAdminTestJSON.test_aggregate_create_delete[id-3]',
    ];
    expect(selectTests(ids, 'selection')).toEqual([ids[0]]);
    expect(selectTests(ids, 'wider')).toEqual([ids[0], ids[2]]);
  });

  it('refuses a template placeholder without a value', () => {
    expect(renderTemplate('uri = {{URI}}\n', { URI: 'http://x' })).toBe('uri = http://x\n');
    expect(() => renderTemplate('uri = {{URI}}\nport = {{PORT}}\n', { URI: 'http://x' })).toThrow(/PORT/);
  });
});
