/**
 * Microversions, in one place: the ones the BFF asks for, how two compare, and a wish capped by
 * what the cloud offers. A version is `major.minor` (`2.60`), compared as numbers (2.9 < 2.60).
 */

/** Compute: hosts by UUID 2.53, multiattach 2.60, attachment ids in listings 2.89, attach modes and multi-create on one volume 2.105. */
export const COMPUTE = {
  hostUuids: '2.53',
  /** `networks: "auto"` and `"none"` at server create. */
  networkChoice: '2.37',
  multiattach: '2.60',
  attachmentIds: '2.89',
  enhancements: '2.105',
} as const;

/** Block storage: the attachments API 3.27, attachment complete 3.44, volume reads 3.50, attachment modes 3.54. */
export const VOLUME = { attachments: '3.27', complete: '3.44', base: '3.50', modes: '3.54' } as const;

/** Negative, zero or positive as `a` is older than, the same as or newer than `b`. */
export function compareVersions(a: string, b: string): number {
  const [am = 0, an = 0] = a.split('.').map(Number);
  const [bm = 0, bn = 0] = b.split('.').map(Number);
  return am - bm || an - bn;
}

export const versionAtLeast = (version: string, wanted: string): boolean =>
  compareVersions(version, wanted) >= 0;

/** The version to ask for: `wanted`, or the cloud's newest when it stops before. */
export const cappedVersion = (wanted: string, max: string): string =>
  compareVersions(wanted, max) <= 0 ? wanted : max;
