import type { Microversion } from '../../platform/http/microversion.js';

/** Quota sets, quota class sets and limits as Nova renders them (`views/limits.py`). */

export function quotaSetView(
  id: string | null,
  values: Record<string, unknown>,
  resources: readonly string[],
) {
  const out: Record<string, unknown> = id === null ? {} : { id };
  for (const r of resources) if (r in values) out[r] = values[r];
  return out;
}

const LIMIT_NAMES: Readonly<Record<string, readonly string[]>> = {
  ram: ['maxTotalRAMSize'],
  instances: ['maxTotalInstances'],
  cores: ['maxTotalCores'],
  key_pairs: ['maxTotalKeypairs'],
  floating_ips: ['maxTotalFloatingIps'],
  metadata_items: ['maxServerMeta', 'maxImageMeta'],
  injected_files: ['maxPersonality'],
  injected_file_content_bytes: ['maxPersonalitySize'],
  security_groups: ['maxSecurityGroups'],
  security_group_rules: ['maxSecurityGroupRules'],
  server_groups: ['maxServerGroups'],
  server_group_members: ['maxServerGroupMembers'],
};

const USED: readonly [string, string][] = [
  ['totalRAMUsed', 'ram'],
  ['totalCoresUsed', 'cores'],
  ['totalInstancesUsed', 'instances'],
  ['totalFloatingIpsUsed', 'floating_ips'],
  ['totalSecurityGroupsUsed', 'security_groups'],
  ['totalServerGroupsUsed', 'server_groups'],
];

export function limitsView(
  limits: Record<string, number>,
  used: Record<string, number>,
  resources: readonly string[],
  version: Microversion,
) {
  const filtered = version.atLeast('2.57')
    ? [
        'floating_ips',
        'security_groups',
        'security_group_rules',
        'injected_files',
        'injected_file_content_bytes',
      ]
    : version.atLeast('2.36')
      ? ['floating_ips', 'security_groups', 'security_group_rules']
      : [];
  const maxImageMeta = version.below('2.39');
  const absolute: Record<string, number> = {};
  for (const r of resources) {
    const names = LIMIT_NAMES[r];
    if (!names || filtered.includes(r) || limits[r] === undefined) continue;
    for (const n of names) if (n !== 'maxImageMeta' || maxImageMeta) absolute[n] = limits[r];
  }
  for (const [name, r] of USED) if (!filtered.includes(r)) absolute[name] = used[r] ?? 0;
  return { limits: { rate: [], absolute } };
}
