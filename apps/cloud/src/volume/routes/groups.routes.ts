import { type Request, type Response, Router } from 'express';
import { badRequest, notFound, WEBOB_NOT_FOUND } from '../../platform/http/errors.js';
import { boolFromString } from '../../platform/validation/parameter-types.js';
import type { GroupTypesService } from '../service/group-types.service.js';
import type { GroupsService } from '../service/groups.service.js';
import { boolParam, nextLink, parseListParams } from '../service/paging.js';
import {
  createFromSourceBody,
  createGroupBody,
  createGroupSnapshotBody,
  createGroupSpecsBody,
  createGroupTypeBody,
  deleteGroupBody,
  resetStatusBody,
  updateGroupBody,
  updateGroupSpecBody,
  updateGroupTypeBody,
} from '../schemas/groups.schemas.js';
import { parseBody } from '../schemas/validation.js';
import {
  groupDetail,
  groupSnapshotDetail,
  groupSnapshotSummary,
  groupSummary,
  groupTypeView,
} from '../views/group.view.js';
import { apiRoot, callerFor, param, queryOf, sendEmpty, versionFor } from './route-helpers.js';

/** The resource is not routed below its microversion: webob's 404 in Cinder's fault (capture 941). */
const since = (min: string) => (req: Request, _res: Response, next: (err?: unknown) => void) =>
  next(versionFor(req).below(min) ? notFound(WEBOB_NOT_FOUND) : undefined);

/** `is_public` of a group type list (admins): absent -> public, "None" -> all, else a boolean. */
function isPublicFilter(raw: string | undefined): boolean | null {
  if (raw === undefined) return true;
  const v = raw.trim().toLowerCase();
  if (v === 'none') return null;
  if (['1', 't', 'true', 'on', 'y', 'yes'].includes(v)) return true;
  if (['0', 'f', 'false', 'off', 'n', 'no'].includes(v)) return false;
  throw badRequest(`Invalid is_public filter [${raw}]`);
}

/** The one key of an action body (wsgi action_peek). */
function actionOf(body: unknown): string {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || Object.keys(body).length !== 1) {
    throw badRequest('Malformed request body');
  }
  return Object.keys(body)[0] as string;
}
const noSuchAction = (name: string) =>
  badRequest(
    `There is no such action: ${name}. Verify the request body and Content-Type header and try again.`,
  );

/** Group types (3.11) and their specs. */
export function groupTypesRoutes(groupTypes: GroupTypesService): Router {
  const router = Router({ mergeParams: true, strict: true });
  router.use('/group_types', since('3.11'));

  router.get('/group_types', async (req, res) => {
    const caller = callerFor(req);
    const query = queryOf(req);
    const params = parseListParams(query);
    const isPublic = caller.isAdmin ? isPublicFilter(query.get('is_public')) : true;
    const rows = await groupTypes.list(caller, params, isPublic);
    const links = nextLink(`${apiRoot(req)}/group_types`, query, rows, params.limit);
    res.json({
      group_types: rows.map((t) => groupTypeView(caller, t)),
      ...(links.length > 0 ? { group_type_links: links } : {}),
    });
  });

  router.get('/group_types/:typeId', async (req, res) => {
    const caller = callerFor(req);
    const id = param(req, 'typeId');
    const t = id === 'default' ? await groupTypes.defaultType(caller) : await groupTypes.show(caller, id);
    res.json({ group_type: groupTypeView(caller, t) });
  });

  router.post('/group_types', async (req, res) => {
    const { group_type: t } = parseBody(createGroupTypeBody, req.ctx.body);
    const caller = callerFor(req);
    const created = await groupTypes.create(caller, {
      name: t.name.trim(),
      description: t.description ?? null,
      isPublic: t.is_public === undefined || boolFromString(t.is_public),
      specs: t.group_specs ?? {},
    });
    res.status(202).json({ group_type: groupTypeView(caller, created) });
  });

  router.put('/group_types/:typeId', async (req, res) => {
    const { group_type: t } = parseBody(updateGroupTypeBody, req.ctx.body);
    const caller = callerFor(req);
    const updated = await groupTypes.update(caller, param(req, 'typeId'), {
      ...(t.name !== undefined ? { name: t.name } : {}),
      ...(t.description !== undefined ? { description: t.description } : {}),
      ...(t.is_public !== undefined ? { isPublic: boolFromString(t.is_public) } : {}),
    });
    res.json({ group_type: groupTypeView(caller, updated) });
  });

  router.delete('/group_types/:typeId', async (req, res) => {
    await groupTypes.delete(callerFor(req), param(req, 'typeId'));
    sendEmpty(res, 202, 'html');
  });

  router.get('/group_types/:typeId/group_specs', async (req, res) => {
    res.json({ group_specs: await groupTypes.specs(callerFor(req), param(req, 'typeId')) });
  });

  router.post('/group_types/:typeId/group_specs', async (req, res) => {
    const body = parseBody(createGroupSpecsBody, req.ctx.body);
    await groupTypes.setSpecs(callerFor(req), param(req, 'typeId'), body.group_specs, 'create');
    res.status(202).json(body);
  });

  router.get('/group_types/:typeId/group_specs/:key', async (req, res) => {
    const key = param(req, 'key');
    res.json({ [key]: await groupTypes.spec(callerFor(req), param(req, 'typeId'), key) });
  });

  router.put('/group_types/:typeId/group_specs/:key', async (req, res) => {
    const body = parseBody(updateGroupSpecBody, req.ctx.body);
    await groupTypes.setSpecs(callerFor(req), param(req, 'typeId'), body, 'update', {
      uriMismatch: !(param(req, 'key') in body),
    });
    res.json(body);
  });

  router.delete('/group_types/:typeId/group_specs/:key', async (req, res) => {
    await groupTypes.deleteSpec(callerFor(req), param(req, 'typeId'), param(req, 'key'));
    sendEmpty(res, 202, 'html');
  });

  return router;
}

/** Groups (3.13) and group snapshots (3.14). */
export function groupsRoutes(groups: GroupsService): Router {
  const router = Router({ mergeParams: true, strict: true });
  router.use('/groups', since('3.13'));
  router.use('/group_snapshots', since('3.14'));

  const listGroups = (detail: boolean) => async (req: Request, res: Response) => {
    const caller = callerFor(req);
    const query = queryOf(req);
    const params = parseListParams(query);
    const rows = await groups.listGroups(
      caller,
      versionFor(req),
      params,
      boolParam('all_tenants', query.get('all_tenants')),
    );
    const version = versionFor(req);
    const links = nextLink(`${apiRoot(req)}/groups`, query, rows, params.limit);
    const withVolumes = detail && boolParam('list_volume', query.get('list_volume'));
    const views = [];
    for (const g of rows) {
      views.push(
        detail
          ? groupDetail(g, version, {
              isAdmin: caller.isAdmin,
              volumeIds: withVolumes ? await groups.volumeIdsOf(g.id) : undefined,
            })
          : groupSummary(g),
      );
    }
    res.json({
      groups: views,
      ...(links.length > 0 ? { group_links: links } : {}),
    });
  };
  router.get('/groups', listGroups(false));
  router.get('/groups/detail', listGroups(true));

  router.post('/groups', async (req, res) => {
    const { group: g } = parseBody(createGroupBody, req.ctx.body);
    const created = await groups.create(callerFor(req), {
      name: g.name ?? null,
      description: g.description ?? null,
      groupType: g.group_type,
      volumeTypes: g.volume_types,
      availabilityZone: g.availability_zone ?? null,
    });
    res.status(202).json({ group: groupSummary(created) });
  });

  // create-from-src (3.14): the collection's action.
  router.post('/groups/action', async (req, res) => {
    const name = actionOf(req.ctx.body);
    if (name !== 'create-from-src' || versionFor(req).below('3.14')) throw noSuchAction(name);
    const { 'create-from-src': src } = parseBody(createFromSourceBody, req.ctx.body);
    const created = await groups.createFromSource(callerFor(req), {
      name: src.name ?? null,
      description: src.description ?? null,
      sourceGroupId: src.source_group_id ?? null,
      groupSnapshotId: src.group_snapshot_id ?? null,
    });
    res.status(202).json({ group: groupSummary(created) });
  });

  router.get('/groups/:groupId', async (req, res) => {
    const caller = callerFor(req);
    const g = await groups.getGroup(caller, param(req, 'groupId'));
    const withVolumes = boolParam('list_volume', queryOf(req).get('list_volume'));
    res.json({
      group: groupDetail(g, versionFor(req), {
        isAdmin: caller.isAdmin,
        volumeIds: withVolumes ? await groups.volumeIdsOf(g.id) : undefined,
      }),
    });
  });

  router.put('/groups/:groupId', async (req, res) => {
    const { group: g } = parseBody(updateGroupBody, req.ctx.body);
    await groups.update(callerFor(req), param(req, 'groupId'), {
      ...(g.name !== undefined ? { name: g.name } : {}),
      ...(g.description !== undefined ? { description: g.description } : {}),
      ...(g.add_volumes !== undefined ? { addVolumes: g.add_volumes } : {}),
      ...(g.remove_volumes !== undefined ? { removeVolumes: g.remove_volumes } : {}),
    });
    sendEmpty(res, 202, 'html');
  });

  router.post('/groups/:groupId/action', async (req, res) => {
    const name = actionOf(req.ctx.body);
    const id = param(req, 'groupId');
    if (name === 'delete') {
      const body = parseBody(deleteGroupBody, req.ctx.body);
      const flag = body.delete['delete-volumes'];
      await groups.remove(callerFor(req), id, flag !== undefined && boolFromString(flag));
    } else if (name === 'reset_status' && versionFor(req).atLeast('3.20')) {
      const body = parseBody(resetStatusBody, req.ctx.body);
      await groups.resetStatus(callerFor(req), id, body.reset_status.status);
    } else {
      throw noSuchAction(name);
    }
    sendEmpty(res, 202, 'html');
  });

  const listSnapshots = (detail: boolean) => async (req: Request, res: Response) => {
    const caller = callerFor(req);
    const query = queryOf(req);
    const params = parseListParams(query);
    const rows = await groups.listGroupSnapshots(
      caller,
      versionFor(req),
      params,
      boolParam('all_tenants', query.get('all_tenants')),
    );
    const links = nextLink(`${apiRoot(req)}/group_snapshots`, query, rows, params.limit);
    res.json({
      group_snapshots: rows.map((s) =>
        detail ? groupSnapshotDetail(s, versionFor(req), caller.isAdmin) : groupSnapshotSummary(s),
      ),
      ...(links.length > 0 ? { group_snapshot_links: links } : {}),
    });
  };
  router.get('/group_snapshots', listSnapshots(false));
  router.get('/group_snapshots/detail', listSnapshots(true));

  router.post('/group_snapshots', async (req, res) => {
    const { group_snapshot: s } = parseBody(createGroupSnapshotBody, req.ctx.body);
    const created = await groups.createGroupSnapshot(callerFor(req), {
      groupId: s.group_id,
      name: s.name ?? null,
      description: s.description ?? null,
    });
    res.status(202).json({
      group_snapshot: { id: created.id, name: created.name, group_type_id: created.group_type_id },
    });
  });

  router.get('/group_snapshots/:groupSnapshotId', async (req, res) => {
    const caller = callerFor(req);
    const s = await groups.getGroupSnapshot(caller, param(req, 'groupSnapshotId'));
    res.json({ group_snapshot: groupSnapshotDetail(s, versionFor(req), caller.isAdmin) });
  });

  router.delete('/group_snapshots/:groupSnapshotId', async (req, res) => {
    await groups.removeGroupSnapshot(callerFor(req), param(req, 'groupSnapshotId'));
    sendEmpty(res, 202, 'html');
  });

  router.post('/group_snapshots/:groupSnapshotId/action', async (req, res) => {
    const name = actionOf(req.ctx.body);
    if (name !== 'reset_status' || versionFor(req).below('3.19')) throw noSuchAction(name);
    const body = parseBody(resetStatusBody, req.ctx.body);
    await groups.resetGroupSnapshotStatus(
      callerFor(req),
      param(req, 'groupSnapshotId'),
      body.reset_status.status,
    );
    sendEmpty(res, 202, 'html');
  });

  return router;
}
