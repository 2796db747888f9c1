import { type Request, Router } from 'express';
import { baseUrl } from '../../platform/http/base-url.js';
import { boolFromString } from '../../platform/validation/parameter-types.js';
import { nextLink, parseListParams } from '../service/paging.js';
import type { QosSpecsService } from '../service/qos-specs.service.js';
import { createQosSpecsBody, setQosKeysBody, unsetQosKeysBody } from '../schemas/qos-specs.schemas.js';
import { parseBody } from '../schemas/validation.js';
import { qosSpecsDetail, qosSpecsListView } from '../views/qos-specs.view.js';
import { apiRoot, callerFor, param, queryOf, sendEmpty } from './route-helpers.js';

const linkRoots = (req: Request) => ({
  api: apiRoot(req),
  bookmark: `${baseUrl(req)}/volume/${callerFor(req).projectId}`,
});

/** contrib/qos_specs_manage.py: QoS spec sets and their volume type associations (admins). */
export function qosSpecsRoutes(qos: QosSpecsService): Router {
  const router = Router({ mergeParams: true, strict: true });

  router.get('/qos-specs', async (req, res) => {
    const query = queryOf(req);
    const params = parseListParams(query);
    const rows = await qos.list(callerFor(req), params);
    res.json(qosSpecsListView(rows, nextLink(`${apiRoot(req)}/qos-specs`, query, rows, params.limit)));
  });

  router.post('/qos-specs', async (req, res) => {
    const { qos_specs: body } = parseBody(createQosSpecsBody, req.ctx.body);
    const { name, ...specs } = body;
    const created = await qos.create(callerFor(req), name, specs);
    res.json(qosSpecsDetail(created, linkRoots(req)));
  });

  router.get('/qos-specs/:qosId', async (req, res) => {
    res.json(qosSpecsDetail(await qos.show(callerFor(req), param(req, 'qosId')), linkRoots(req)));
  });

  router.put('/qos-specs/:qosId', async (req, res) => {
    const body = parseBody(setQosKeysBody, req.ctx.body);
    await qos.setKeys(callerFor(req), param(req, 'qosId'), body.qos_specs);
    // Cinder answers with the request body.
    res.json(body);
  });

  router.put('/qos-specs/:qosId/delete_keys', async (req, res) => {
    const body = parseBody(unsetQosKeysBody, req.ctx.body);
    await qos.deleteKeys(callerFor(req), param(req, 'qosId'), body.keys);
    sendEmpty(res, 202, 'html');
  });

  router.delete('/qos-specs/:qosId', async (req, res) => {
    const force = boolFromString(queryOf(req).get('force'));
    await qos.delete(callerFor(req), param(req, 'qosId'), force);
    sendEmpty(res, 202, 'html');
  });

  router.get('/qos-specs/:qosId/associations', async (req, res) => {
    res.json({ qos_associations: await qos.associations(callerFor(req), param(req, 'qosId')) });
  });

  router.get('/qos-specs/:qosId/associate', async (req, res) => {
    await qos.associate(callerFor(req), param(req, 'qosId'), queryOf(req).get('vol_type_id'));
    sendEmpty(res, 202, 'html');
  });

  router.get('/qos-specs/:qosId/disassociate', async (req, res) => {
    await qos.disassociate(callerFor(req), param(req, 'qosId'), queryOf(req).get('vol_type_id'));
    sendEmpty(res, 202, 'html');
  });

  router.get('/qos-specs/:qosId/disassociate_all', async (req, res) => {
    await qos.disassociateAll(callerFor(req), param(req, 'qosId'));
    sendEmpty(res, 202, 'html');
  });

  return router;
}
