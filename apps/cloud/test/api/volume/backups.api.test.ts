import { describe, expect } from 'vitest';
import type { TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { fault, volumeClient } from './volume-api-helpers.js';

/** Backups, read-only: no cinder-backup service runs, so there are none to find. */

let tc: TestCloud;
let d: ReturnType<typeof volumeClient>;
let a: ReturnType<typeof volumeClient>;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo, admin }) => {
  tc = cloud;
  d = volumeClient(tc, demo);
  a = volumeClient(tc, admin);
});

describe('backups (read-only)', () => {
  it('lists none, with a count from 3.45 when asked', async () => {
    for (const path of ['/backups', '/backups/detail']) {
      const res = await d.call('GET', path);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ backups: [] });
    }
    expect((await a.call('GET', '/backups/detail?all_tenants=1')).body).toEqual({ backups: [] });
    expect((await d.call('GET', '/backups?with_count=true', { version: '3.45' })).body).toEqual({
      backups: [],
      count: 0,
    });
    // Before 3.45 with_count is just an unknown filter.
    expect((await d.call('GET', '/backups?with_count=true', { version: '3.44' })).body).toEqual({
      backups: [],
    });
  });

  it('checks the paging parameters and finds no marker or backup', async () => {
    const limit = await d.call('GET', '/backups?limit=abc');
    expect(limit.status).toBe(400);
    expect(limit.body).toEqual(fault(400, 'limit param must be an integer'));
    const count = await d.call('GET', '/backups?with_count=maybe', { version: '3.45' });
    expect(count.body).toEqual(fault(400, "Value 'maybe' for 'with_count' is not a boolean."));
    const marker = await d.call('GET', '/backups?marker=nosuch');
    expect(marker.status).toBe(404);
    expect(marker.body).toEqual(fault(404, 'Backup nosuch could not be found.'));
    const show = await d.call('GET', '/backups/0b7d6f4e-0000-4000-8000-000000000001');
    expect(show.status).toBe(404);
    expect(show.body).toEqual(fault(404, 'Backup 0b7d6f4e-0000-4000-8000-000000000001 could not be found.'));
  });
});
