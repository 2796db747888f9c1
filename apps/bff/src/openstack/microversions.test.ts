import { describe, expect, it } from 'vitest';
import { cappedVersion, compareVersions, versionAtLeast } from './microversions.js';

describe('microversions', () => {
  it('compares minor versions as numbers, not text', () => {
    expect(compareVersions('2.9', '2.60')).toBeLessThan(0);
    expect(compareVersions('2.105', '2.99')).toBeGreaterThan(0);
    expect(compareVersions('3.0', '2.105')).toBeGreaterThan(0);
    expect(compareVersions('2.60', '2.60')).toBe(0);
  });
  it('knows when a cloud reaches a version', () => {
    expect(versionAtLeast('2.105', '2.105')).toBe(true);
    expect(versionAtLeast('2.96', '2.105')).toBe(false);
    expect(versionAtLeast('3.71', '3.27')).toBe(true);
  });
  it('caps a wanted version by the cloud newest one', () => {
    expect(cappedVersion('2.105', '2.96')).toBe('2.96');
    expect(cappedVersion('2.60', '2.105')).toBe('2.60');
  });
});
