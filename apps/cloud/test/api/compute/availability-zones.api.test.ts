import { describe, expect } from 'vitest';
import { http, type Session, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';

let tc: TestCloud;
let demo: Session;
let admin: Session;
const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  admin = adminSession;
});

const AZ = '/compute/v2.1/os-availability-zone';
const TIME_MICRO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;

describe('os-availability-zone', () => {
  it('lists the compute zones to members, without hosts and without the internal zone (capture 103)', async () => {
    const res = await http(tc, 'GET', AZ, { token: demo.token, version: 'compute 2.60' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      availabilityZoneInfo: [
        { zoneName: 'nova', zoneState: { available: true }, hosts: null },
        { zoneName: 'az2', zoneState: { available: true }, hosts: null },
      ],
    });
  });

  it('details every zone with its hosts and services for admins (capture 104)', async () => {
    const res = await http(tc, 'GET', `${AZ}/detail`, { token: admin.token, version: 'compute 2.60' });
    expect(res.status).toBe(200);
    const zones = res.body.availabilityZoneInfo;
    expect(zones.map((z: { zoneName: string }) => z.zoneName)).toEqual(['internal', 'nova', 'az2']);
    expect(Object.keys(zones[0].hosts.controller)).toEqual(['nova-scheduler', 'nova-conductor']);
    expect(Object.keys(zones[1].hosts)).toEqual(['compute-1', 'compute-2', 'compute-old']);
    expect(Object.keys(zones[2].hosts)).toEqual(['compute-3', 'ironic-1']);
    const svc = zones[1].hosts['compute-1']['nova-compute'];
    expect(svc.available).toBe(true);
    expect(svc.active).toBe(true);
    expect(svc.updated_at).toMatch(TIME_MICRO);
  });

  it('refuses the detail to members (capture 105)', async () => {
    const res = await http(tc, 'GET', `${AZ}/detail`, { token: demo.token, version: 'compute 2.60' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      forbidden: {
        code: 403,
        message: "Policy doesn't allow os_compute_api:os-availability-zone:detail to be performed.",
      },
    });
  });

  it('shows a zone whose services are all disabled as unavailable', async () => {
    const list = await http(tc, 'GET', '/compute/v2.1/os-services?binary=nova-compute', {
      token: admin.token,
      version: 'compute 2.53',
    });
    const az2 = list.body.services.filter((s: { zone: string }) => s.zone === 'az2');
    for (const s of az2) {
      const r = await http(tc, 'PUT', `/compute/v2.1/os-services/${s.id}`, {
        token: admin.token,
        version: 'compute 2.53',
        body: { status: 'disabled' },
      });
      expect(r.status).toBe(200);
    }
    const res = await http(tc, 'GET', AZ, { token: demo.token });
    expect(res.body.availabilityZoneInfo).toEqual([
      { zoneName: 'nova', zoneState: { available: true }, hosts: null },
      { zoneName: 'az2', zoneState: { available: false }, hosts: null },
    ]);
    const detail = await http(tc, 'GET', `${AZ}/detail`, { token: admin.token });
    expect(detail.body.availabilityZoneInfo.at(-1)).toEqual({
      zoneName: 'az2',
      zoneState: { available: false },
      hosts: null,
    });
  });
});
