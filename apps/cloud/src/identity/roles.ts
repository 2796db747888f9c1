/**
 * Keystone's default implied roles (bootstrap): admin implies member, member implies reader.
 * Tokens list the expanded set, as the recorded cloud does (demo: reader, member). No prototype:
 * role names are anyone's, and a role called `constructor` implies nothing.
 */
const IMPLIES: Record<string, string[]> = Object.assign(Object.create(null), {
  admin: ['member'],
  member: ['reader'],
});

export function expandImpliedRoles(names: string[]): string[] {
  const out = new Set<string>();
  const visit = (name: string) => {
    if (out.has(name)) return;
    out.add(name);
    for (const implied of IMPLIES[name] ?? []) visit(implied);
  };
  for (const n of names) visit(n);
  return [...out];
}
