import { describe, expect, it } from 'vitest';
import { nextDeviceName, normaliseDeviceName, ROOT_DEVICE } from './device-names.js';

describe('nextDeviceName', () => {
  it('gives the root disk /dev/vda, and any other disk the next free letter after it', () => {
    expect(nextDeviceName([], 0)).toBe(ROOT_DEVICE);
    expect(nextDeviceName([], null)).toBe('/dev/vdb');
    expect(nextDeviceName(['/dev/vda'], null)).toBe('/dev/vdb');
    expect(nextDeviceName(['/dev/vda', '/dev/vdb', '/dev/vdd'], null)).toBe('/dev/vdc');
  });

  it('keeps vda for the root even while it is not named yet', () => {
    expect(nextDeviceName(['/dev/vdb'], -1)).toBe('/dev/vdc');
    expect(nextDeviceName(['/dev/vdb'], 1)).toBe('/dev/vdc');
  });

  it('a second boot-index-0 disk on a server whose vda is taken gets the next free name', () => {
    expect(nextDeviceName(['/dev/vda'], 0)).toBe('/dev/vdb');
  });

  it('goes on past vdz as libvirt does: vdaa, vdab, ...', () => {
    const used = Array.from({ length: 26 }, (_, i) => `/dev/vd${String.fromCharCode(97 + i)}`);
    expect(nextDeviceName(used, null)).toBe('/dev/vdaa');
    expect(nextDeviceName([...used, '/dev/vdaa'], null)).toBe('/dev/vdab');
  });
});

describe('normaliseDeviceName', () => {
  it('prepends /dev/ to a bare name, leaves a full one, and treats empty as none', () => {
    expect(normaliseDeviceName('vdc')).toBe('/dev/vdc');
    expect(normaliseDeviceName('/dev/vdc')).toBe('/dev/vdc');
    expect(normaliseDeviceName('')).toBeNull();
    expect(normaliseDeviceName(null)).toBeNull();
    expect(normaliseDeviceName(undefined)).toBeNull();
  });
});
