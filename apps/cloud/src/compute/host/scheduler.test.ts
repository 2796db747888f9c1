import { describe, expect, it } from 'vitest';
import type { FlavorSnapshot } from '../store/servers.store.js';
import type { ComputeHost } from './compute-hosts.js';
import { claimHost, pickHost, type ScheduleRequest } from './scheduler.js';

const flavor: FlavorSnapshot = {
  id: '1',
  name: 'm1.tiny',
  vcpus: 1,
  ram: 512,
  disk: 10,
  ephemeral: 0,
  swap: 0,
  extra_specs: {},
};

function host(name: string, changes: Partial<ComputeHost> = {}): ComputeHost {
  const free = { vcpus: 8, memoryMb: 8192, localGb: 100, ...changes.free };
  return {
    host: name,
    hypervisorHostname: `${name}.node`,
    hypervisorType: 'QEMU',
    zone: 'nova',
    serviceId: 1,
    serviceUuid: `${name}-service`,
    nodeId: 1,
    nodeUuid: `${name}-node`,
    serviceVersion: 70,
    supportsMultiattach: true,
    supportsAttachModes: true,
    status: 'enabled',
    disabledReason: null,
    forcedDown: false,
    state: 'up',
    schedulable: true,
    capacity: { vcpus: 8, memoryMb: 8192, localGb: 100 },
    usage: { vcpus: 0, memoryMb: 0, localGb: 0, runningVms: 0, currentWorkload: 0 },
    ...changes,
    free,
  };
}

const request = (changes: Partial<ScheduleRequest> = {}): ScheduleRequest => ({
  flavor,
  volumeBacked: false,
  availabilityZone: null,
  forcedHost: null,
  forcedNode: null,
  requestedHost: null,
  requestedNode: null,
  needsMultiattach: false,
  needsAttachMode: false,
  ignoreHosts: [],
  ...changes,
});

const picked = (hosts: ComputeHost[], req: ScheduleRequest) => pickHost(hosts, req)?.host ?? null;

describe('pickHost: the filters', () => {
  const hosts = [
    host('down', { schedulable: false, free: { vcpus: 64, memoryMb: 65536, localGb: 1000 } }),
    host('az2', { zone: 'az2', free: { vcpus: 8, memoryMb: 16384, localGb: 100 } }),
    host('noshare', { supportsMultiattach: false, free: { vcpus: 8, memoryMb: 12288, localGb: 100 } }),
    host('old', { supportsAttachModes: false, free: { vcpus: 8, memoryMb: 10240, localGb: 100 } }),
    host('small', { free: { vcpus: 8, memoryMb: 256, localGb: 100 } }),
    host('plain'),
  ];

  it('passes over hosts that are not enabled and up, however free', () => {
    expect(picked(hosts, request())).toBe('az2');
  });

  it('keeps to the zone asked for', () => {
    expect(picked(hosts, request({ availabilityZone: 'nova' }))).toBe('noshare');
    expect(picked(hosts, request({ availabilityZone: 'elsewhere' }))).toBeNull();
  });

  it('a multiattach volume needs a driver that shares disks; a read-only mapping a current service', () => {
    const nova = { availabilityZone: 'nova' };
    expect(picked(hosts, request({ ...nova, needsMultiattach: true }))).toBe('old');
    expect(picked(hosts, request({ ...nova, needsAttachMode: true }))).toBe('noshare');
    expect(picked(hosts, request({ ...nova, needsMultiattach: true, needsAttachMode: true }))).toBe('plain');
  });

  it('leaves out ignored hosts (a resize never stays where it is) and hosts too small for the flavor', () => {
    expect(picked(hosts, request({ ignoreHosts: ['az2', 'noshare', 'old', 'plain'] }))).toBeNull();
    expect(
      picked([host('tiny', { free: { vcpus: 0, memoryMb: 8192, localGb: 100 } })], request()),
    ).toBeNull();
    expect(
      picked([host('nodisk', { free: { vcpus: 8, memoryMb: 8192, localGb: 5 } })], request()),
    ).toBeNull();
  });

  it('a volume-backed server claims no local root disk', () => {
    const nodisk = [host('nodisk', { free: { vcpus: 8, memoryMb: 8192, localGb: 0 } })];
    expect(picked(nodisk, request({ volumeBacked: true }))).toBe('nodisk');
  });

  it('a requested host or node (2.74) only narrows the filters', () => {
    expect(picked(hosts, request({ requestedHost: 'plain' }))).toBe('plain');
    expect(picked(hosts, request({ requestedNode: 'old.node' }))).toBe('old');
    expect(picked(hosts, request({ requestedHost: 'down' }))).toBeNull();
  });

  it('a forced host skips every filter', () => {
    expect(picked(hosts, request({ forcedHost: 'down' }))).toBe('down');
    expect(picked(hosts, request({ forcedHost: 'small', needsMultiattach: true }))).toBe('small');
    expect(picked(hosts, request({ forcedHost: 'nowhere' }))).toBeNull();
  });
});

describe('pickHost: the RAM weigher', () => {
  it('takes the most free memory, ties going to the host name', () => {
    expect(
      picked(
        [host('b'), host('a'), host('c', { free: { vcpus: 8, memoryMb: 4096, localGb: 100 } })],
        request(),
      ),
    ).toBe('a');
  });
});

describe('claimHost', () => {
  it("takes the server's flavor from the host it was placed on, so the next pick of a batch sees it", () => {
    const hosts = [
      host('a', { free: { vcpus: 8, memoryMb: 1024, localGb: 100 } }),
      host('b', { free: { vcpus: 8, memoryMb: 900, localGb: 100 } }),
    ];
    const req = request();
    const first = pickHost(hosts, req);
    expect(first?.host).toBe('a');
    claimHost(hosts, first!, req);
    expect(hosts[0]?.free).toEqual({ vcpus: 7, memoryMb: 512, localGb: 90 });
    expect(pickHost(hosts, req)?.host).toBe('b');
  });

  it('claims no root disk for a volume-backed server, but ephemeral and swap (in GB, rounded up)', () => {
    const hosts = [host('a')];
    const req = request({ volumeBacked: true, flavor: { ...flavor, ephemeral: 2, swap: 1536 } });
    claimHost(hosts, { host: 'a', node: 'a.node', zone: 'nova' }, req);
    expect(hosts[0]?.free.localGb).toBe(100 - 2 - 2);
  });
});
