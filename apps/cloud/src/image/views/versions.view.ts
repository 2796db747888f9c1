/**
 * Glance's version list (glance/api/versions.py) for a single store without an image cache:
 * v2.15 is current and the older minor versions remain supported.
 */
const VERSIONS: [string, string][] = [
  ['v2.15', 'CURRENT'],
  ['v2.9', 'SUPPORTED'],
  ['v2.7', 'SUPPORTED'],
  ['v2.6', 'SUPPORTED'],
  ['v2.5', 'SUPPORTED'],
  ['v2.4', 'SUPPORTED'],
  ['v2.3', 'SUPPORTED'],
  ['v2.2', 'SUPPORTED'],
  ['v2.1', 'SUPPORTED'],
  ['v2.0', 'SUPPORTED'],
];

export function imageVersionsView(imageBase: string) {
  return {
    versions: VERSIONS.map(([id, status]) => ({
      id,
      status,
      links: [{ rel: 'self', href: `${imageBase}/v2/` }],
    })),
  };
}
