import { createHash } from 'node:crypto';

/**
 * Nova's hostId (nova.utils.generate_hostid): sha224 of project id + host. What a non-admin
 * sees instead of a host name: co-located servers can be told apart, hosts cannot be named.
 */
export function novaHostId(projectId: string, host: string | null): string {
  if (!host) return '';
  return createHash('sha224')
    .update(projectId + host)
    .digest('hex');
}
