import { type Request, type Response, Router } from 'express';
import { nextLink, parseListParams } from '../service/paging.js';
import type { VolumesService } from '../service/volumes.service.js';
import { volumeDetail, volumeListView } from '../views/volume.view.js';
import { pyStr } from '../../platform/validation/py-repr.js';
import { parseBody } from '../schemas/validation.js';
import { apiRoot, callerFor, param, queryOf, sendEmpty, versionFor, viewContext } from './route-helpers.js';
import { volumeCreateBody, volumeUpdateBody } from '../schemas/volumes.schemas.js';
import { badRequest } from '../../platform/http/errors.js';

/** validate_name_and_description: names and descriptions are stored stripped. */
const stripped = (v: string | null | undefined) => (typeof v === 'string' ? v.trim() : v);

/** Cinder's get_bool_param on a body value: anything but a boolean spelling is a 400. */
function bodyBool(name: string, value: unknown): boolean {
  const s = String(typeof value === 'boolean' ? value : pyStr(value)).toLowerCase();
  if (['1', 't', 'true', 'on', 'y', 'yes'].includes(s)) return true;
  if (['0', 'f', 'false', 'off', 'n', 'no'].includes(s)) return false;
  throw badRequest(`Value '${pyStr(value)}' for '${name}' is not a boolean.`);
}

/** /volumes, /volumes/detail, /volumes/{id}: Cinder's VolumeController. */
export function volumesRoutes(volumes: VolumesService): Router {
  const router = Router({ mergeParams: true, strict: true });

  const list = (detail: boolean) => async (req: Request, res: Response) => {
    const query = queryOf(req);
    const params = parseListParams(query);
    const { rows, count } = await volumes.list(callerFor(req), versionFor(req), params);
    const ctx = viewContext(req);
    const data = detail ? await volumes.viewData(rows) : null;
    const links = nextLink(
      `${apiRoot(req)}/volumes${detail ? '/detail' : ''}`,
      query,
      rows,
      params.limit,
      count,
    );
    res.json(volumeListView(ctx, rows, data, { links, ...(count !== undefined ? { count } : {}) }));
  };
  router.get('/volumes', list(false));
  router.get('/volumes/detail', list(true));

  // 3.12; below, "summary" is taken for a volume id (a 404), as in Cinder.
  router.get('/volumes/summary', async (req, res, next) => {
    const version = versionFor(req);
    if (version.below('3.12')) return next();
    const s = await volumes.summary(callerFor(req), queryOf(req).get('all_tenants'));
    res.json({
      'volume-summary': {
        total_count: s.count,
        total_size: s.size,
        ...(version.atLeast('3.36') ? { metadata: s.metadata } : {}),
      },
    });
  });

  router.post('/volumes', async (req, res) => {
    const version = versionFor(req);
    const { volume: v } = parseBody(volumeCreateBody(version), req.ctx.body);
    const row = await volumes.create(callerFor(req), version, {
      name: stripped('name' in v ? v.name : v.display_name) ?? null,
      description: stripped('description' in v ? v.description : v.display_description) ?? null,
      volumeType: v.volume_type || null,
      metadata: v.metadata ?? null,
      size: v.size ?? null,
      availabilityZone: v.availability_zone ?? null,
      snapshotId: v.snapshot_id ?? null,
      sourceVolid: v.source_volid ?? null,
      backupId: v.backup_id ?? null,
      groupId: v.group_id ?? null,
      consistencygroupId: v.consistencygroup_id ?? null,
      imageRef: ('image_id' in v ? v.image_id : v.imageRef) ?? null,
      multiattach: 'multiattach' in v ? bodyBool('multiattach', v.multiattach) : false,
    });
    const data = await volumes.viewData([row]);
    res.status(202).json({
      volume: volumeDetail(viewContext(req), row, data, { extensions: false, adminMetadata: false }),
    });
  });

  router.get('/volumes/:volumeId', async (req, res) => {
    const row = await volumes.get(callerFor(req), param(req, 'volumeId'));
    const data = await volumes.viewData([row]);
    res.json({
      volume: volumeDetail(viewContext(req), row, data, { extensions: true, adminMetadata: true }),
    });
  });

  router.put('/volumes/:volumeId', async (req, res) => {
    const { volume: v } = parseBody(volumeUpdateBody(versionFor(req)), req.ctx.body);
    const name = 'name' in v ? v.name : 'display_name' in v ? v.display_name : undefined;
    const description =
      'description' in v ? v.description : 'display_description' in v ? v.display_description : undefined;
    const row = await volumes.update(callerFor(req), param(req, 'volumeId'), {
      ...(name !== undefined ? { name: stripped(name) ?? null } : {}),
      ...(description !== undefined ? { description: stripped(description) ?? null } : {}),
      ...(v.metadata !== undefined ? { metadata: v.metadata } : {}),
    });
    const data = await volumes.viewData([row]);
    res.json({
      volume: volumeDetail(viewContext(req), row, data, { extensions: false, adminMetadata: true }),
    });
  });

  router.delete('/volumes/:volumeId', async (req, res) => {
    const query = queryOf(req);
    const cascade = query.get('cascade');
    const force = query.get('force');
    await volumes.remove(callerFor(req), versionFor(req), param(req, 'volumeId'), {
      ...(cascade !== undefined ? { cascade } : {}),
      ...(force !== undefined ? { force } : {}),
    });
    sendEmpty(res, 202, 'html');
  });

  return router;
}
