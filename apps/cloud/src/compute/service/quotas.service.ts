import type { Kysely } from 'kysely';
import type { ComputeDeps } from '../deps.js';
import type { Schema } from '../../platform/db/schema.js';
import type { AuthContext } from '../../platform/http/context.js';
import { badRequest, forbidden, policyForbidden } from '../../platform/http/errors.js';
import type { Microversion } from '../../platform/http/microversion.js';
import { computeQuotasStore } from '../store/quotas.store.js';

type Db = Kysely<Schema>;

/**
 * Nova's quotas (`nova/quota.py`, `quota_sets.py`, `quota_classes.py`, `limits.py`): limits per
 * project (and per user), the `default` quota class, usage counted from the servers, and the
 * over-quota check of a create or resize (`compute/utils.py` `check_num_instances_quota`).
 */

/** `[quota]` defaults of Zed, by resource, in `QUOTAS.resources` order (sorted). */
export const COMPUTE_QUOTA_DEFAULTS: Readonly<Record<string, number>> = {
  cores: 20,
  fixed_ips: -1,
  floating_ips: -1,
  injected_file_content_bytes: 10240,
  injected_file_path_bytes: 255,
  injected_files: 5,
  instances: 10,
  key_pairs: 100,
  metadata_items: 128,
  ram: 51200,
  security_group_rules: -1,
  security_groups: -1,
  server_group_members: 10,
  server_groups: 10,
};
export const COMPUTE_RESOURCES = Object.keys(COMPUTE_QUOTA_DEFAULTS);

/** Left out of quota sets from 2.36 (nova-network's) and 2.57 (personality files). */
const FILTERED_2_36 = ['fixed_ips', 'floating_ips', 'security_group_rules', 'security_groups'];
const FILTERED_2_57 = [
  ...FILTERED_2_36,
  'injected_files',
  'injected_file_content_bytes',
  'injected_file_path_bytes',
];

export function quotaResourcesAt(version: Microversion): string[] {
  const filtered = version.atLeast('2.57') ? FILTERED_2_57 : version.atLeast('2.36') ? FILTERED_2_36 : [];
  return COMPUTE_RESOURCES.filter((r) => !filtered.includes(r));
}

export const QUOTA_RULES = {
  show: 'os_compute_api:os-quota-sets:show',
  update: 'os_compute_api:os-quota-sets:update',
  delete: 'os_compute_api:os-quota-sets:delete',
  detail: 'os_compute_api:os-quota-sets:detail',
  classShow: 'os_compute_api:os-quota-class-sets:show',
  classUpdate: 'os_compute_api:os-quota-class-sets:update',
  limitsOtherProject: 'os_compute_api:limits:other_project',
} as const;

/** The `default` class over the configured defaults. */
export async function defaultLimits(db: Db): Promise<Record<string, number>> {
  return { ...COMPUTE_QUOTA_DEFAULTS, ...(await computeQuotasStore.classLimits(db, 'default')) };
}

/** A project's limits (its own over the defaults), or a user's (the user's over the project's). */
export async function effectiveLimits(
  db: Db,
  projectId: string,
  userId?: string,
): Promise<Record<string, number>> {
  const project = { ...(await defaultLimits(db)), ...(await computeQuotasStore.limits(db, projectId)) };
  if (userId === undefined) return project;
  return { ...project, ...(await computeQuotasStore.limits(db, projectId, userId)) };
}

/** `_get_usages`: servers counted; key pairs and group members always 0; the rest 0 too. */
export async function usages(db: Db, projectId: string, userId?: string): Promise<Record<string, number>> {
  const servers = await computeQuotasStore.serverUsage(db, projectId, userId);
  const out: Record<string, number> = Object.fromEntries(COMPUTE_RESOURCES.map((r) => [r, 0]));
  Object.assign(out, servers);
  out.server_groups = await serverGroupCount(db, projectId, userId);
  return out;
}

/** Server groups a project (or user) owns; replaced once server groups exist. */
let serverGroupCount: (db: Db, projectId: string, userId?: string) => Promise<number> = async () => 0;
export function countServerGroupsWith(fn: typeof serverGroupCount): void {
  serverGroupCount = fn;
}

/** `identity.verify_project_id`: an unknown project is a 400 (Keystone is asked). */
async function verifyProject(deps: ComputeDeps, id: string): Promise<void> {
  if (deps.projectExists && !(await deps.projectExists(id))) {
    throw badRequest(`Project ID ${id} is not a valid project.`);
  }
}

/** PROJECT_READER_OR_ADMIN: one's own project, or any as an admin. */
function assertOwnOrAdmin(auth: AuthContext, projectId: string, rule: string): void {
  if (!auth.isAdmin && auth.projectId !== projectId) throw policyForbidden(rule);
}

export async function showQuotas(deps: ComputeDeps, auth: AuthContext, projectId: string, userId?: string) {
  assertOwnOrAdmin(auth, projectId, QUOTA_RULES.show);
  await verifyProject(deps, projectId);
  return effectiveLimits(deps.store.db, projectId, userId);
}

export async function detailQuotas(deps: ComputeDeps, auth: AuthContext, projectId: string, userId?: string) {
  assertOwnOrAdmin(auth, projectId, QUOTA_RULES.detail);
  await verifyProject(deps, projectId);
  const db = deps.store.db;
  const [limits, used] = await Promise.all([
    effectiveLimits(db, projectId, userId),
    usages(db, projectId, userId),
  ]);
  return Object.fromEntries(
    COMPUTE_RESOURCES.map((r) => [r, { in_use: used[r] ?? 0, limit: limits[r] ?? -1, reserved: 0 }]),
  ) as Record<string, { in_use: number; limit: number; reserved: number }>;
}

export async function defaultQuotas(deps: ComputeDeps, projectId: string) {
  await verifyProject(deps, projectId);
  return defaultLimits(deps.store.db);
}

const inf = (v: number) => (v === -1 ? Number.POSITIVE_INFINITY : v);

/** `_update`: each value checked against what is in use (unless forced), then all stored. */
export async function updateQuotas(
  deps: ComputeDeps,
  auth: AuthContext,
  projectId: string,
  userId: string | undefined,
  values: Record<string, number | null>,
  force: boolean,
  networksGiven: boolean,
) {
  if (!auth.isAdmin) throw policyForbidden(QUOTA_RULES.update);
  await verifyProject(deps, projectId);
  if (networksGiven) throw badRequest('The networks quota has been removed');
  return deps.store.transaction(async (tx) => {
    const used = await usages(tx, projectId, userId);
    const valid: [string, number][] = [];
    for (const [key, value] of Object.entries(values)) {
      if (value === null) continue;
      if (!force) {
        // Settable range: at least what is in use, at most unlimited (no user quotas to share).
        const minimum = used[key] ?? 0;
        if (inf(value) < inf(minimum)) {
          throw badRequest(
            `Quota limit ${value} for ${key} must be greater than or equal to already used and reserved ${minimum}.`,
          );
        }
      }
      valid.push([key, value]);
    }
    for (const [key, value] of valid)
      await computeQuotasStore.setLimit(tx, projectId, userId ?? '', key, value);
    return effectiveLimits(tx, projectId, userId);
  });
}

export async function deleteQuotas(deps: ComputeDeps, auth: AuthContext, projectId: string, userId?: string) {
  if (!auth.isAdmin) throw policyForbidden(QUOTA_RULES.delete);
  await deps.store.transaction((tx) => computeQuotasStore.deleteAll(tx, projectId, userId));
}

/** `get_class_quotas`: the class's limits over the configured defaults. */
export async function showQuotaClass(deps: ComputeDeps, auth: AuthContext, className: string) {
  if (!auth.isAdmin) throw policyForbidden(QUOTA_RULES.classShow);
  return { ...COMPUTE_QUOTA_DEFAULTS, ...(await computeQuotasStore.classLimits(deps.store.db, className)) };
}

/** Any class name may be written (Nova stores it); only `default` is ever read. */
export async function updateQuotaClass(
  deps: ComputeDeps,
  auth: AuthContext,
  className: string,
  values: Record<string, number>,
) {
  if (!auth.isAdmin) throw policyForbidden(QUOTA_RULES.classUpdate);
  return deps.store.transaction(async (tx) => {
    for (const [key, value] of Object.entries(values))
      await computeQuotasStore.setClassLimit(tx, className, key, value);
    return { ...COMPUTE_QUOTA_DEFAULTS, ...(await computeQuotasStore.classLimits(tx, className)) };
  });
}

/** `limits.py`: the caller's project (an admin may name another with `tenant_id`), with usage. */
export async function limitsFor(deps: ComputeDeps, auth: AuthContext, tenantId: string | undefined) {
  let projectId = auth.projectId ?? '';
  if (tenantId !== undefined) {
    projectId = tenantId;
    if (!auth.isAdmin) throw policyForbidden(QUOTA_RULES.limitsOtherProject);
  }
  const db = deps.store.db;
  const [limits, used] = await Promise.all([effectiveLimits(db, projectId), usages(db, projectId)]);
  return { limits, used };
}

// ----------------------------------------------------------------------------------------------
// Enforcement
// ----------------------------------------------------------------------------------------------

/** Nova's TooManyInstances (an OverQuota): the API answers it with 403. */
const tooManyInstances = (overs: string, req: string, used: string, allowed: string) =>
  forbidden(`Quota exceeded for ${overs}: Requested ${req}, but already used ${used} of ${allowed} ${overs}`);

interface QuotaState {
  limits: Record<string, number>;
  used: Record<string, number>;
}

/** The project's (and, when the user has limits of its own, the user's) limits and usage. */
async function stateFor(db: Db, projectId: string, userId: string): Promise<QuotaState[]> {
  const out = [{ limits: await effectiveLimits(db, projectId), used: await usages(db, projectId) }];
  const own = await computeQuotasStore.limits(db, projectId, userId);
  if (['instances', 'cores', 'ram'].some((r) => r in own)) {
    out.push({
      limits: await effectiveLimits(db, projectId, userId),
      used: await usages(db, projectId, userId),
    });
  }
  return out;
}

/** `limit_check_project_and_user`: the resources a delta would take over, sorted. */
function oversOf(s: QuotaState, deltas: Record<string, number>): string[] {
  return Object.keys(deltas)
    .filter((k) => {
      const limit = s.limits[k] ?? -1;
      return limit >= 0 && limit < (s.used[k] ?? 0) + (deltas[k] ?? 0);
    })
    .sort();
}

/** `get_headroom`: what is left, with unlimited cores or RAM following the instances left. */
function headroomOf(s: QuotaState, deltas: Record<string, number>): Record<string, number> {
  const h: Record<string, number> = {};
  for (const k of Object.keys(s.limits)) h[k] = (s.limits[k] ?? 0) - (s.used[k] ?? 0);
  for (const r of ['cores', 'ram']) {
    if (s.limits[r] === -1) {
      h[r] = deltas[r] ? ((h.instances ?? 1) * deltas[r]) / (deltas.instances ?? 1) : (h.instances ?? 1);
    }
  }
  return h;
}

function detail(
  overs: string[],
  s: QuotaState,
  headroom: Record<string, number>,
  requested: Record<string, unknown>,
) {
  return {
    overs: overs.join(', '),
    req: overs.map((r) => String(requested[r])).join(', '),
    used: overs.map((r) => String((s.limits[r] ?? 0) - (headroom[r] ?? 0))).join(', '),
    allowed: overs.map((r) => String(s.limits[r])).join(', '),
  };
}

/**
 * `check_num_instances_quota`: how many of min..max servers of `flavor` the quota allows (the
 * most that fit), or Nova's 403 when not even `min` fit.
 */
export async function checkInstancesQuota(
  db: Db,
  auth: AuthContext,
  flavor: { vcpus: number; ram: number },
  minCount: number,
  maxCount: number,
): Promise<number> {
  const projectId = auth.projectId ?? '';
  for (const s of await stateFor(db, projectId, auth.userId)) {
    const deltas = { instances: maxCount, cores: maxCount * flavor.vcpus, ram: maxCount * flavor.ram };
    const overs = oversOf(s, deltas);
    if (overs.length === 0) continue;
    const headroom = headroomOf(s, deltas);
    let allowed = headroom.instances ?? 1;
    if (flavor.vcpus) allowed = Math.min(allowed, Math.floor((headroom.cores ?? 0) / flavor.vcpus));
    if (flavor.ram) allowed = Math.min(allowed, Math.floor((headroom.ram ?? 0) / flavor.ram));
    if (allowed > 0 && minCount <= allowed && allowed <= maxCount) {
      return checkInstancesQuota(db, auth, flavor, minCount, allowed);
    }
    const instances = minCount === maxCount ? String(minCount) : `${minCount}-${maxCount}`;
    const d = detail(overs, s, headroom, { instances, cores: deltas.cores, ram: deltas.ram });
    throw tooManyInstances(d.overs, d.req, d.used, d.allowed);
  }
  return maxCount;
}

/** `_check_quota_for_upsize`: the growth in cores and RAM of a resize must fit. */
export async function checkUpsizeQuota(
  db: Db,
  server: { project_id: string; user_id: string },
  oldFlavor: { vcpus: number; ram: number },
  newFlavor: { vcpus: number; ram: number },
): Promise<void> {
  const deltas: Record<string, number> = {};
  if (newFlavor.vcpus > oldFlavor.vcpus) deltas.cores = newFlavor.vcpus - oldFlavor.vcpus;
  if (newFlavor.ram > oldFlavor.ram) deltas.ram = newFlavor.ram - oldFlavor.ram;
  if (Object.keys(deltas).length === 0) return;
  for (const s of await stateFor(db, server.project_id, server.user_id)) {
    const overs = oversOf(s, deltas);
    if (overs.length === 0) continue;
    const headroom = headroomOf(s, deltas);
    const d = detail(overs, s, headroom, deltas);
    throw tooManyInstances(d.overs, d.req, d.used, d.allowed);
  }
}

/** The key pair quota of a user's project (`key_pairs`, counted per user). */
export async function keyPairsQuota(db: Db, projectId: string, userId: string): Promise<number> {
  return (await effectiveLimits(db, projectId, userId)).key_pairs ?? -1;
}

/**
 * `_check_metadata_properties_quota` and `_check_injected_file_quota`: the number of metadata
 * items, then the personality files' number, longest path and largest content (OverQuota: 403).
 */
export async function checkMetadataAndFilesQuota(
  db: Db,
  projectId: string,
  metadataItems: number,
  files: readonly { path: string; contentBytes: number }[],
): Promise<void> {
  const limits = await effectiveLimits(db, projectId);
  const over = (r: string, v: number) => (limits[r] ?? -1) >= 0 && v > (limits[r] ?? -1);
  if (over('metadata_items', metadataItems)) {
    throw forbidden(`Maximum number of metadata items exceeds ${limits.metadata_items}`);
  }
  if (over('injected_files', files.length)) throw forbidden('Personality file limit exceeded');
  const maxPath = Math.max(0, ...files.map((f) => f.path.length));
  const maxContent = Math.max(0, ...files.map((f) => f.contentBytes));
  if (over('injected_file_path_bytes', maxPath)) {
    throw forbidden(`Personality file path exceeds maximum ${limits.injected_file_path_bytes}`);
  }
  if (over('injected_file_content_bytes', maxContent)) {
    throw forbidden(`Personality file content exceeds maximum ${limits.injected_file_content_bytes}`);
  }
}
