/**
 * Where to go when the page's resource belongs to another project or identity than the one now
 * signed in (a project switch, signing in again as someone else): a detail page's own list; any
 * other page stays where it is.
 */
const listOfDetail: Record<string, string> = {
  volumes: '/volumes',
  servers: '/servers',
  launches: '/launch',
};

export function listPathFor(pathname: string): string | null {
  const [section, id] = pathname.split('/').filter(Boolean);
  if (!section || !id) return null;
  return listOfDetail[section] ?? '/volumes';
}
