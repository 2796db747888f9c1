import { Router } from 'express';
import { badRequest } from '../../platform/http/errors.js';
import { nextLink, parseListParams } from '../service/paging.js';
import { literalEval } from '../service/py-literal.js';
import type { TypeFilters, TypesService } from '../service/types.service.js';
import { typeListView, typeView } from '../views/type.view.js';
import { boolFromString } from '../../platform/validation/parameter-types.js';
import { parseBody } from '../schemas/validation.js';
import { apiRoot, callerFor, param, queryOf, sendEmpty, versionFor } from './route-helpers.js';
import {
  createExtraSpecsBody,
  createTypeBody,
  updateExtraSpecBody,
  updateTypeBody,
} from '../schemas/types.schemas.js';
import { addProjectAccessBody, removeProjectAccessBody } from '../schemas/type-access.schemas.js';

/** Drops null-valued specs: our store keeps spec values as text. */
const nonNullSpecs = (specs: Record<string, string | null> | null | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(specs ?? {}).filter((e): e is [string, string] => e[1] !== null));

/** types.py, types_manage.py and types_extra_specs.py. */
export function typesRoutes(types: TypesService): Router {
  const router = Router({ mergeParams: true, strict: true });

  router.get('/types', async (req, res) => {
    const caller = callerFor(req);
    const version = versionFor(req);
    const query = queryOf(req);
    const params = parseListParams(query);
    const raw = params.filters.toRecord();
    if (!caller.isAdmin && version.atLeast('3.52')) {
      const invalid = Object.keys(raw).filter(
        (k) => !['is_public', 'extra_specs'].includes(k) && k !== 'all_tenants',
      );
      if (invalid.length > 0)
        throw badRequest(`Invalid filters ${invalid.join(',')} are found in query options.`);
    }
    // _parse_is_public: absent -> public only, "none" -> all, otherwise a strict boolean.
    let isPublic: boolean | null = true;
    const rawPublic = raw['is_public'];
    if (caller.isAdmin && rawPublic !== undefined) {
      const v = rawPublic.trim().toLowerCase();
      if (v === 'none') isPublic = null;
      else if (['1', 't', 'true', 'on', 'y', 'yes'].includes(v)) isPublic = true;
      else if (['0', 'f', 'false', 'off', 'n', 'no'].includes(v)) isPublic = false;
      else throw badRequest(`Invalid is_public filter [${rawPublic}]`);
    }
    const filters: TypeFilters = { isPublic, extraSpecs: null };
    const specsFilter = raw['extra_specs'];
    if (specsFilter !== undefined && (caller.isAdmin || version.atLeast('3.52'))) {
      // literal_eval'd; a value that is not a dict is ignored.
      const parsed = literalEval(specsFilter);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        filters.extraSpecs = Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, String(v)]));
      }
    }
    const rows = await types.list(caller, params, filters);
    const links = nextLink(`${apiRoot(req)}/types`, query, rows, params.limit);
    res.json(typeListView(caller, rows, links));
  });

  router.get('/types/:typeId', async (req, res) => {
    const caller = callerFor(req);
    const id = param(req, 'typeId');
    if (id === 'default') {
      res.json({
        volume_type: typeView(caller, await types.defaultType(caller), { accessKey: false, qosKey: true }),
      });
      return;
    }
    res.json({
      volume_type: typeView(caller, await types.show(caller, id), { accessKey: true, qosKey: true }),
    });
  });

  router.post('/types', async (req, res) => {
    const { volume_type: t } = parseBody(createTypeBody, req.ctx.body);
    const caller = callerFor(req);
    const created = await types.create(caller, {
      name: t.name,
      description: t.description ?? null,
      extraSpecs: nonNullSpecs(t.extra_specs),
      isPublic:
        t['os-volume-type-access:is_public'] === undefined ||
        boolFromString(t['os-volume-type-access:is_public']),
    });
    res.json({ volume_type: typeView(caller, created, { accessKey: true }) });
  });

  router.put('/types/:typeId', async (req, res) => {
    const { volume_type: t } = parseBody(updateTypeBody, req.ctx.body);
    const caller = callerFor(req);
    const updated = await types.update(caller, param(req, 'typeId'), {
      ...(t.name !== undefined ? { name: t.name } : {}),
      ...(t.description !== undefined ? { description: t.description } : {}),
      ...(t.is_public !== undefined ? { isPublic: boolFromString(t.is_public) } : {}),
    });
    res.json({ volume_type: typeView(caller, updated, { accessKey: false }) });
  });

  router.delete('/types/:typeId', async (req, res) => {
    await types.delete(callerFor(req), param(req, 'typeId'));
    sendEmpty(res, 202, 'html');
  });

  router.get('/types/:typeId/extra_specs', async (req, res) => {
    res.json({ extra_specs: await types.extraSpecs(callerFor(req), param(req, 'typeId')) });
  });

  router.post('/types/:typeId/extra_specs', async (req, res) => {
    const body = parseBody(createExtraSpecsBody, req.ctx.body);
    await types.setExtraSpecs(callerFor(req), param(req, 'typeId'), nonNullSpecs(body.extra_specs), 'create');
    // Cinder answers with the request body.
    res.json(body);
  });

  router.get('/types/:typeId/extra_specs/:key', async (req, res) => {
    const key = param(req, 'key');
    res.json({ [key]: await types.extraSpec(callerFor(req), param(req, 'typeId'), key) });
  });

  router.put('/types/:typeId/extra_specs/:key', async (req, res) => {
    const body = parseBody(updateExtraSpecBody, req.ctx.body);
    await types.setExtraSpecs(callerFor(req), param(req, 'typeId'), nonNullSpecs(body), 'update', {
      uriMismatch: !(param(req, 'key') in body),
    });
    res.json(body);
  });

  router.delete('/types/:typeId/extra_specs/:key', async (req, res) => {
    await types.deleteExtraSpec(callerFor(req), param(req, 'typeId'), param(req, 'key'));
    sendEmpty(res, 202, 'html');
  });

  // --- cloud14v: volume type access ---
  router.get('/types/:typeId/os-volume-type-access', async (req, res) => {
    const typeId = param(req, 'typeId');
    const projects = await types.accessList(callerFor(req), typeId);
    res.json({ volume_type_access: projects.map((project_id) => ({ volume_type_id: typeId, project_id })) });
  });

  // The action dispatcher (wsgi action_peek): one key, the action's name; its body is checked first.
  router.post('/types/:typeId/action', async (req, res) => {
    const body = req.ctx.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body) || Object.keys(body).length !== 1) {
      throw badRequest('Malformed request body');
    }
    const name = Object.keys(body)[0] as string;
    if (name !== 'addProjectAccess' && name !== 'removeProjectAccess') {
      throw badRequest(`There is no such action: ${name}`);
    }
    const parsed = parseBody(
      name === 'addProjectAccess' ? addProjectAccessBody : removeProjectAccessBody,
      body,
    );
    const project = (parsed as Record<string, { project: string }>)[name]!.project;
    await types.changeAccess(callerFor(req), param(req, 'typeId'), project, name === 'addProjectAccess');
    sendEmpty(res, 202, 'html');
  });

  return router;
}
