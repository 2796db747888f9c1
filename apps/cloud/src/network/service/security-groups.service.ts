import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import { newUuid } from '../../platform/ids.js';
import { nowIso } from '../../platform/time.js';
import { badRequest, neutronError, notFoundOf } from '../errors.js';
import { parseCreate, parseUpdate } from '../schemas/attributes.js';
import { SECURITY_GROUP_ATTRS, SECURITY_GROUP_RULE_ATTRS } from '../schemas/resources.schemas.js';
import {
  type SecurityGroupRow,
  type SecurityGroupRuleRow,
  securityGroupsStore,
} from '../store/security-groups.store.js';
import { portsStore } from '../store/ports.store.js';
import { securityGroupRuleView, securityGroupView } from '../views/network.views.js';
import { assertWriter, type Caller, ruleFor } from './caller.js';
import { assertOwner, bool, type NetworkCtx, scopeOf } from './context.js';

type Db = Kysely<Schema>;

function rule(
  group: Pick<SecurityGroupRow, 'id' | 'project_id'>,
  direction: string,
  ethertype: string,
  remoteGroupId: string | null,
  now: string,
): SecurityGroupRuleRow {
  return {
    id: newUuid(),
    security_group_id: group.id,
    project_id: group.project_id,
    direction,
    ethertype,
    protocol: null,
    port_range_min: null,
    port_range_max: null,
    remote_ip_prefix: null,
    remote_group_id: remoteGroupId,
    description: '',
    revision_number: 0,
    created_at: now,
    updated_at: now,
  };
}

/**
 * The project's `default` group, made on first use as Neutron does (`_ensure_default_security_group`):
 * all egress, and ingress from members of the group itself, for IPv4 and IPv6. Two requests
 * racing for it make one group (the unique index on the project's default).
 */
export async function ensureDefaultGroup(db: Db, projectId: string): Promise<SecurityGroupRow> {
  const existing = await securityGroupsStore.defaultOf(db, projectId);
  if (existing) return existing;
  const now = nowIso();
  const row: SecurityGroupRow = {
    id: newUuid(),
    project_id: projectId,
    name: 'default',
    description: 'Default security group',
    stateful: 1,
    default_of: projectId,
    revision_number: 1,
    created_at: now,
    updated_at: now,
  };
  const inserted = await securityGroupsStore.insertDefault(db, row);
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) {
    return (await securityGroupsStore.defaultOf(db, projectId))!;
  }
  await securityGroupsStore.insertRules(db, [
    rule(row, 'egress', 'IPv4', null, now),
    rule(row, 'egress', 'IPv6', null, now),
    rule(row, 'ingress', 'IPv4', row.id, now),
    rule(row, 'ingress', 'IPv6', row.id, now),
  ]);
  return row;
}

async function viewsOf(db: Db, groups: SecurityGroupRow[]) {
  const rules = await securityGroupsStore.rulesOf(
    db,
    groups.map((g) => g.id),
  );
  return groups.map((g) =>
    securityGroupView(
      g,
      rules.filter((r) => r.security_group_id === g.id),
    ),
  );
}

export async function listSecurityGroups(ctx: NetworkCtx, c: Caller) {
  if (c.projectId) await ctx.store.transaction((tx) => ensureDefaultGroup(tx, c.projectId));
  return viewsOf(ctx.store.db, await securityGroupsStore.visible(ctx.store.db, scopeOf(c)));
}

export async function findSecurityGroup(db: Db, c: Caller, id: string): Promise<SecurityGroupRow> {
  const g = await securityGroupsStore.byId(db, id);
  if (!g || (!c.isAdmin && g.project_id !== c.projectId)) throw notFoundOf.security_group(id);
  return g;
}

export async function showSecurityGroup(ctx: NetworkCtx, c: Caller, id: string) {
  return (await viewsOf(ctx.store.db, [await findSecurityGroup(ctx.store.db, c, id)]))[0]!;
}

export async function createSecurityGroup(ctx: NetworkCtx, c: Caller, body: unknown) {
  const { values, projectId } = parseCreate(SECURITY_GROUP_ATTRS, 'security_group', body, c);
  assertWriter(c, ruleFor('create', 'security_group'));
  return ctx.store.transaction(async (tx) => {
    await ensureDefaultGroup(tx, projectId);
    if (values.name === 'default') {
      throw neutronError(409, 'SecurityGroupDefaultAlreadyExists', 'Default security group already exists.');
    }
    const now = nowIso();
    const row: SecurityGroupRow = {
      id: newUuid(),
      project_id: projectId,
      name: (values.name as string | undefined) ?? '',
      description: (values.description as string | undefined) ?? '',
      stateful: bool(values.stateful, true),
      default_of: null,
      revision_number: 1,
      created_at: now,
      updated_at: now,
    };
    await securityGroupsStore.insert(tx, row);
    await securityGroupsStore.insertRules(tx, [
      rule(row, 'egress', 'IPv4', null, now),
      rule(row, 'egress', 'IPv6', null, now),
    ]);
    return (await viewsOf(tx, [row]))[0]!;
  });
}

export async function updateSecurityGroup(ctx: NetworkCtx, c: Caller, id: string, body: unknown) {
  const values = parseUpdate(SECURITY_GROUP_ATTRS, 'security_group', body);
  return ctx.store.transaction(async (tx) => {
    const g = await findSecurityGroup(tx, c, id);
    assertWriter(c, ruleFor('update', 'security_group'));
    assertOwner(c, g.project_id, 'update', 'security_group');
    if (g.default_of !== null && values.name !== undefined && values.name !== 'default') {
      throw neutronError(
        409,
        'SecurityGroupCannotUpdateDefault',
        'Updating default security group not allowed.',
      );
    }
    if (g.default_of === null && values.name === 'default') {
      throw neutronError(409, 'SecurityGroupDefaultAlreadyExists', 'Default security group already exists.');
    }
    const patch: Partial<SecurityGroupRow> = { updated_at: nowIso(), revision_number: g.revision_number + 1 };
    if (values.name !== undefined) patch.name = values.name as string;
    if (values.description !== undefined) patch.description = values.description as string;
    if (values.stateful !== undefined) patch.stateful = bool(values.stateful, true);
    await securityGroupsStore.update(tx, id, patch);
    return (await viewsOf(tx, [{ ...g, ...patch }]))[0]!;
  });
}

export async function deleteSecurityGroup(ctx: NetworkCtx, c: Caller, id: string): Promise<void> {
  await ctx.store.transaction(async (tx) => {
    const g = await findSecurityGroup(tx, c, id);
    assertWriter(c, ruleFor('delete', 'security_group'));
    assertOwner(c, g.project_id, 'delete', 'security_group');
    if (g.default_of !== null && !c.isAdmin) {
      throw neutronError(
        409,
        'SecurityGroupCannotRemoveDefault',
        'Insufficient rights for removing default security group.',
      );
    }
    if ((await portsStore.portsUsingGroup(tx, id)).length > 0) {
      throw neutronError(409, 'SecurityGroupInUse', `Security Group ${id} in use.`);
    }
    await securityGroupsStore.delete(tx, id);
  });
}

// --- Rules ---------------------------------------------------------------------------------------

export async function listSecurityGroupRules(ctx: NetworkCtx, c: Caller) {
  const rules = await securityGroupsStore.visibleRules(ctx.store.db, scopeOf(c));
  const defaults = new Set(
    (await securityGroupsStore.visible(ctx.store.db, scopeOf(c)))
      .filter((g) => g.default_of !== null)
      .map((g) => g.id),
  );
  return rules.map((r) => securityGroupRuleView(r, defaults.has(r.security_group_id)));
}

async function findRule(db: Db, c: Caller, id: string) {
  const r = await securityGroupsStore.ruleById(db, id);
  if (!r) throw notFoundOf.security_group_rule(id);
  const g = await securityGroupsStore.byId(db, r.security_group_id);
  if (!g || (!c.isAdmin && r.project_id !== c.projectId && g.project_id !== c.projectId)) {
    throw notFoundOf.security_group_rule(id);
  }
  return { rule: r, group: g };
}

export async function showSecurityGroupRule(ctx: NetworkCtx, c: Caller, id: string) {
  const { rule: r, group } = await findRule(ctx.store.db, c, id);
  return securityGroupRuleView(r, group.default_of !== null);
}

const PROTOCOLS: Record<string, number> = { icmp: 1, tcp: 6, udp: 17, icmpv6: 58, any: -1 };

function protocolOf(v: unknown): string | null {
  if (v === undefined || v === null || v === '' || v === 'any') return null;
  const s = String(v).toLowerCase();
  if (s in PROTOCOLS) return s;
  if (/^\d+$/.test(s) && Number(s) <= 255) return s;
  throw neutronError(
    400,
    'SecurityGroupRuleInvalidProtocol',
    `Security group rule protocol ${String(v)} not supported. Only protocol values [None, 'icmp', 'icmpv6', 'tcp', 'udp'] and integer representations [0 to 255] are supported.`,
  );
}

export async function createSecurityGroupRule(ctx: NetworkCtx, c: Caller, body: unknown) {
  const { values, projectId } = parseCreate(SECURITY_GROUP_RULE_ATTRS, 'security_group_rule', body, c);
  assertWriter(c, ruleFor('create', 'security_group_rule'));
  const protocol = protocolOf(values.protocol);
  const min =
    values.port_range_min === undefined || values.port_range_min === null
      ? null
      : Number(values.port_range_min);
  const max =
    values.port_range_max === undefined || values.port_range_max === null
      ? null
      : Number(values.port_range_max);
  if ((min !== null || max !== null) && protocol === null) {
    throw neutronError(
      400,
      'SecurityGroupProtocolRequiredWithPorts',
      'Must also specify protocol if port range is given.',
    );
  }
  if ((protocol === 'tcp' || protocol === 'udp') && min !== null && max !== null && min > max) {
    throw neutronError(
      400,
      'SecurityGroupInvalidPortRange',
      'For TCP/UDP protocols, port_range_min must be <= port_range_max',
    );
  }
  const remoteIp = (values.remote_ip_prefix as string | null | undefined) ?? null;
  const remoteGroup = (values.remote_group_id as string | null | undefined) ?? null;
  if (remoteIp !== null && remoteGroup !== null) {
    throw neutronError(
      400,
      'SecurityGroupRemoteGroupAndRemoteIpPrefix',
      'Only remote_ip_prefix or remote_group_id may be provided.',
    );
  }
  const ethertype = (values.ethertype as string | undefined) ?? 'IPv4';
  if (remoteIp !== null && ethertype === 'IPv6') {
    throw badRequest(`Conflicting value ethertype IPv6 for CIDR ${remoteIp}`);
  }
  return ctx.store.transaction(async (tx) => {
    const group = await findSecurityGroup(tx, c, values.security_group_id as string);
    assertOwner(c, group.project_id, 'create', 'security_group_rule');
    if (remoteGroup !== null) await findSecurityGroup(tx, c, remoteGroup);
    const now = nowIso();
    const row: SecurityGroupRuleRow = {
      id: newUuid(),
      security_group_id: group.id,
      project_id: projectId,
      direction: values.direction as string,
      ethertype,
      protocol,
      port_range_min: min,
      port_range_max: max,
      remote_ip_prefix: remoteIp,
      remote_group_id: remoteGroup,
      description: (values.description as string | undefined) ?? '',
      revision_number: 0,
      created_at: now,
      updated_at: now,
    };
    const same = (await securityGroupsStore.rulesOf(tx, [group.id])).find(
      (r) =>
        r.direction === row.direction &&
        r.ethertype === row.ethertype &&
        r.protocol === row.protocol &&
        r.port_range_min === row.port_range_min &&
        r.port_range_max === row.port_range_max &&
        r.remote_ip_prefix === row.remote_ip_prefix &&
        r.remote_group_id === row.remote_group_id,
    );
    if (same) {
      throw neutronError(
        409,
        'SecurityGroupRuleExists',
        `Security group rule already exists. Rule id is ${same.id}.`,
      );
    }
    await securityGroupsStore.insertRules(tx, [row]);
    await securityGroupsStore.update(tx, group.id, {
      revision_number: group.revision_number + 1,
      updated_at: now,
    });
    return securityGroupRuleView(row, group.default_of !== null);
  });
}

export async function updateSecurityGroupRule(ctx: NetworkCtx, c: Caller, id: string, body: unknown) {
  const values = parseUpdate(SECURITY_GROUP_RULE_ATTRS, 'security_group_rule', body);
  return ctx.store.transaction(async (tx) => {
    const { rule: r, group } = await findRule(tx, c, id);
    assertWriter(c, ruleFor('update', 'security_group_rule'));
    assertOwner(c, r.project_id, 'update', 'security_group_rule');
    const patch: Partial<SecurityGroupRuleRow> = {
      updated_at: nowIso(),
      revision_number: r.revision_number + 1,
    };
    if (values.description !== undefined) patch.description = values.description as string;
    await securityGroupsStore.updateRule(tx, id, patch);
    return securityGroupRuleView({ ...r, ...patch }, group.default_of !== null);
  });
}

export async function deleteSecurityGroupRule(ctx: NetworkCtx, c: Caller, id: string): Promise<void> {
  await ctx.store.transaction(async (tx) => {
    const { rule: r } = await findRule(tx, c, id);
    assertWriter(c, ruleFor('delete', 'security_group_rule'));
    assertOwner(c, r.project_id, 'delete', 'security_group_rule');
    await securityGroupsStore.deleteRule(tx, id);
  });
}
