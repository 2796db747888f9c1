import type { Microversion } from '../../platform/http/microversion.js';
import { POLICY_VERSION } from '../schemas/server-groups.schemas.js';
import type { ServerGroup } from '../service/server-groups.service.js';

/**
 * `_format_server_group`: id and name; below 2.64 `policies` (a one-item list) and an always
 * empty `metadata`, from 2.64 `policy` and `rules`; the live members; from 2.13 the owner.
 */
export function serverGroupView(g: ServerGroup, version: Microversion) {
  const out: Record<string, unknown> = { id: g.row.id, name: g.row.name };
  if (version.atLeast(POLICY_VERSION)) {
    out.policy = g.row.policy;
    out.rules = g.rules;
  } else {
    out.policies = [g.row.policy];
    out.metadata = {};
  }
  out.members = g.members;
  if (version.atLeast('2.13')) {
    out.project_id = g.row.project_id;
    out.user_id = g.row.user_id;
  }
  return out;
}
