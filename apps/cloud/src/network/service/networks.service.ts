import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import { nowIso } from '../../platform/time.js';
import { newUuid } from '../../platform/ids.js';
import { neutronError, notFoundOf, policyNotAuthorized } from '../errors.js';
import { NETWORK_ATTRS } from '../schemas/resources.schemas.js';
import { parseCreate, parseUpdate } from '../schemas/attributes.js';
import { type NetworkRow, networksStore } from '../store/networks.store.js';
import { portsStore } from '../store/ports.store.js';
import { networkView } from '../views/network.views.js';
import { assertWriter, type Caller, ruleFor } from './caller.js';
import { assertOwner, bool, type NetworkCtx, scopeOf } from './context.js';

type Db = Kysely<Schema>;

/** Attributes only an admin may set (`create_network:shared`, `create_network:router:external`). */
const ADMIN_ATTRS = ['shared', 'router:external'] as const;

async function viewsOf(ctx: NetworkCtx, c: Caller, rows: NetworkRow[]) {
  const subnets = await networksStore.subnetsOf(
    ctx.store.db,
    rows.map((r) => r.id),
  );
  return rows.map((n) =>
    networkView(
      n,
      subnets.filter((s) => s.network_id === n.id).map((s) => s.id),
      c.isAdmin,
    ),
  );
}

export async function listNetworks(ctx: NetworkCtx, c: Caller) {
  return viewsOf(ctx, c, await networksStore.visible(ctx.store.db, scopeOf(c)));
}

const canSee = (c: Caller, n: NetworkRow) =>
  c.isAdmin || n.project_id === c.projectId || n.shared === 1 || n.external === 1;

export async function findNetwork(db: Db, c: Caller, id: string): Promise<NetworkRow> {
  const n = await networksStore.byId(db, id);
  if (!n || !canSee(c, n)) throw notFoundOf.network(id);
  return n;
}

export async function showNetwork(ctx: NetworkCtx, c: Caller, id: string) {
  return (await viewsOf(ctx, c, [await findNetwork(ctx.store.db, c, id)]))[0]!;
}

function assertAdminAttrs(c: Caller, action: string, values: Record<string, unknown>): void {
  const set = ADMIN_ATTRS.filter((a) => a in values);
  if (set.length > 0 && !c.isAdmin) throw policyNotAuthorized(ruleFor(action, 'network', set));
}

export async function createNetwork(ctx: NetworkCtx, c: Caller, body: unknown) {
  const { values, projectId } = parseCreate(NETWORK_ATTRS, 'network', body, c);
  assertWriter(c, ruleFor('create', 'network'));
  assertAdminAttrs(c, 'create', values);
  const now = nowIso();
  const row: NetworkRow = {
    id: newUuid(),
    project_id: projectId,
    name: (values.name as string | undefined) ?? '',
    description: (values.description as string | undefined) ?? '',
    admin_state_up: bool(values.admin_state_up, true),
    shared: bool(values.shared, false),
    external: bool(values['router:external'], false),
    mtu: values.mtu === undefined ? 1442 : Number(values.mtu),
    port_security_enabled: bool(values.port_security_enabled, true),
    revision_number: 1,
    created_at: now,
    updated_at: now,
  };
  await networksStore.insert(ctx.store.db, row);
  return (await viewsOf(ctx, c, [row]))[0]!;
}

export async function updateNetwork(ctx: NetworkCtx, c: Caller, id: string, body: unknown) {
  const values = parseUpdate(NETWORK_ATTRS, 'network', body);
  return ctx.store.transaction(async (tx) => {
    const n = await findNetwork(tx, c, id);
    assertWriter(c, ruleFor('update', 'network'));
    assertOwner(c, n.project_id, 'update', 'network');
    assertAdminAttrs(c, 'update', values);
    const patch: Partial<NetworkRow> = { updated_at: nowIso(), revision_number: n.revision_number + 1 };
    if (values.name !== undefined) patch.name = values.name as string;
    if (values.description !== undefined) patch.description = values.description as string;
    if (values.admin_state_up !== undefined) patch.admin_state_up = bool(values.admin_state_up, true);
    if (values.shared !== undefined) patch.shared = bool(values.shared, false);
    if (values['router:external'] !== undefined) patch.external = bool(values['router:external'], false);
    if (values.mtu !== undefined) patch.mtu = Number(values.mtu);
    if (values.port_security_enabled !== undefined) {
      patch.port_security_enabled = bool(values.port_security_enabled, true);
    }
    await networksStore.update(tx, id, patch);
    const row = { ...n, ...patch };
    const subnets = await networksStore.subnetsOf(tx, [id]);
    return networkView(
      row,
      subnets.map((s) => s.id),
      c.isAdmin,
    );
  });
}

export async function deleteNetwork(ctx: NetworkCtx, c: Caller, id: string): Promise<void> {
  await ctx.store.transaction(async (tx) => {
    const n = await findNetwork(tx, c, id);
    assertWriter(c, ruleFor('delete', 'network'));
    assertOwner(c, n.project_id, 'delete', 'network');
    if ((await portsStore.countOnNetwork(tx, id)) > 0) {
      throw neutronError(
        409,
        'NetworkInUse',
        `Unable to complete operation on network ${id}. There are one or more ports still in use on the network.`,
      );
    }
    for (const s of await networksStore.subnetsOf(tx, [id])) await networksStore.deleteSubnet(tx, s.id);
    await networksStore.delete(tx, id);
  });
}
