/** All times are stored as ISO-8601 UTC strings with milliseconds. */
export const nowIso = (): string => new Date().toISOString();

/** Cinder: `2026-11-21T12:22:04.000000` (microseconds, no zone). */
export function cinderTime(iso: string | null | undefined): string | null {
  if (!iso) return null;
  return `${iso.slice(0, 19)}.${iso.slice(20, 23)}000`;
}

/** Keystone: `2026-11-22T12:54:11.000000Z`. */
export function keystoneTime(iso: string): string {
  return `${iso.slice(0, 19)}.${iso.slice(20, 23)}000Z`;
}

/** Nova: `2026-11-21T12:22:05Z` (seconds). */
export function novaTime(iso: string | null | undefined): string | null {
  if (!iso) return null;
  return `${iso.slice(0, 19)}Z`;
}
