import { describe, expect, it } from 'vitest';
import { countFits, type HostRoom } from './capacity.js';

const host = (
  zone: string,
  vcpus: [number, number],
  ram: [number, number],
  disk: [number, number],
): HostRoom => ({
  zone,
  vcpus: { capacity: vcpus[0], used: vcpus[1] },
  ramMb: { capacity: ram[0], used: ram[1] },
  diskGb: { capacity: disk[0], used: disk[1] },
});

describe('countFits', () => {
  it('counts per host by the scarcest resource, and sums per zone', () => {
    const hosts = [
      host('nova', [64, 4], [65_536, 0], [1000, 0]), // 60 vCPUs left: 7 of 8 vCPUs; RAM 4 of 16 GiB
      host('nova', [16, 16], [65_536, 0], [1000, 0]), // no vCPU left
      host('az2', [128, 0], [32_768, 0], [20, 0]), // disk: 2 of 10 GiB
    ];
    expect(countFits({ vcpus: 8, ramMb: 16_384, diskGb: 10 }, hosts)).toEqual({
      requested: 0,
      fits: 6,
      zones: [
        { zone: 'az2', fits: 2 },
        { zone: 'nova', fits: 4 },
      ],
    });
  });

  it('ignores local disk for a server booting from a volume, and used above capacity leaves none', () => {
    const hosts = [host('nova', [8, 10], [8192, 0], [0, 0]), host('nova', [8, 0], [8192, 0], [0, 0])];
    expect(countFits({ vcpus: 2, ramMb: 1024, diskGb: 0 }, hosts).fits).toBe(4);
  });
});
