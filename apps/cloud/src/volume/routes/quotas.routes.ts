import { Router } from 'express';
import { badRequest } from '../../platform/http/errors.js';
import { strictBoolFromString } from '../../platform/validation/parameter-types.js';
import { DB_MAX_INT, parseBody, requestSchema } from '../schemas/validation.js';
import type { VolumeQuotasService } from '../service/quotas.service.js';
import { callerFor, param, queryOf, sendEmpty, versionFor } from './route-helpers.js';

/** `update_quota` / `update_quota_class`: an object of at least one key, checked key by key after. */
const updateSchema = (wrapper: string) =>
  requestSchema<Record<string, Record<string, unknown>>>({
    type: 'object',
    properties: { [wrapper]: { type: 'object', minProperties: 1 } },
    required: [wrapper],
    additionalProperties: false,
  });

/** oslo `strutils.validate_integer`, as Cinder's `validate_integer` raises it. */
function validateInteger(value: unknown, name: string): number {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)
        ? Number(value)
        : NaN;
  if (!Number.isInteger(n)) throw badRequest(`${name} must be an integer`);
  if (n < -1) throw badRequest(`${name} must be >= -1`);
  if (n > DB_MAX_INT) throw badRequest(`${name} must be <= ${DB_MAX_INT}`);
  return n;
}

/** The `quota_set` / `quota_class_set` format checkers: known keys (bad ones listed), integers. */
async function checkedValues(
  quotas: VolumeQuotasService,
  set: Record<string, unknown>,
  what: 'quota set' | 'quota class set',
): Promise<Record<string, number>> {
  const known = new Set(await quotas.resourceNames());
  const nonQuota = what === 'quota set' ? ['tenant_id', 'id'] : [];
  const bad: string[] = [];
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(set)) {
    if (nonQuota.includes(k)) continue;
    if (!known.has(k)) {
      bad.push(k);
      continue;
    }
    out[k] = validateInteger(v, k);
  }
  if (bad.length > 0) throw badRequest(`Invalid input received: Bad key(s) in ${what}: ${bad.join(', ')}`);
  return out;
}

/** os-quota-sets, os-quota-class-sets and limits (with the used limits). */
export function volumeQuotaRoutes(quotas: VolumeQuotasService): Router {
  const router = Router({ mergeParams: true });

  router.get('/limits', async (req, res) => {
    const caller = callerFor(req);
    const query = queryOf(req);
    // 3.39 lets an admin name another project; before, and for anyone else, the parameter is ignored.
    const named =
      versionFor(req).atLeast('3.39') && caller.isAdmin
        ? (query.get('project_id') ?? query.get('tenant_id'))
        : undefined;
    const { limits, used } = await quotas.limits(named ?? caller.projectId);
    res.json({
      limits: {
        rate: [],
        absolute: {
          totalSnapshotsUsed: used.snapshots ?? 0,
          maxTotalBackups: limits.backups,
          maxTotalVolumeGigabytes: limits.gigabytes,
          maxTotalSnapshots: limits.snapshots,
          maxTotalBackupGigabytes: limits.backup_gigabytes,
          totalBackupGigabytesUsed: used.backup_gigabytes ?? 0,
          maxTotalVolumes: limits.volumes,
          totalVolumesUsed: used.volumes ?? 0,
          totalBackupsUsed: used.backups ?? 0,
          totalGigabytesUsed: used.gigabytes ?? 0,
        },
      },
    });
  });

  router.get('/os-quota-sets/:target/defaults', async (req, res) => {
    const target = param(req, 'target');
    const values = await quotas.defaults(callerFor(req), target);
    res.json({ quota_set: { ...values, id: target } });
  });

  router.get('/os-quota-sets/:target', async (req, res) => {
    const target = param(req, 'target');
    const raw = queryOf(req).get('usage');
    let usage = false;
    if (raw !== undefined) {
      const b = strictBoolFromString(raw);
      if (b === null)
        throw badRequest(
          `Invalid value '${raw}' for usage. Accepted values are ('true', 'false', '0', '1', 'yes', 'no', 'on', 'off', 't', 'f', 'y', 'n')`,
        );
      usage = b;
    }
    const values = await quotas.show(callerFor(req), target, usage);
    res.json({ quota_set: { ...values, id: target } });
  });

  router.put('/os-quota-sets/:target', async (req, res) => {
    const body = parseBody(updateSchema('quota_set'), req.ctx.body);
    const values = await checkedValues(quotas, body.quota_set ?? {}, 'quota set');
    const stored = await quotas.update(callerFor(req), param(req, 'target'), values);
    res.json({ quota_set: stored });
  });

  router.delete('/os-quota-sets/:target', async (req, res) => {
    await quotas.remove(callerFor(req), param(req, 'target'));
    sendEmpty(res, 200, 'json');
  });

  router.get('/os-quota-class-sets/:className', async (req, res) => {
    const name = param(req, 'className');
    const values = await quotas.showClass(callerFor(req), name);
    res.json({ quota_class_set: { ...values, id: name } });
  });

  router.put('/os-quota-class-sets/:className', async (req, res) => {
    const body = parseBody(updateSchema('quota_class_set'), req.ctx.body);
    const values = await checkedValues(quotas, body.quota_class_set ?? {}, 'quota class set');
    const stored = await quotas.updateClass(callerFor(req), param(req, 'className'), values);
    res.json({ quota_class_set: stored });
  });

  return router;
}
