import { type Request, Router } from 'express';
import { baseUrl } from '../../platform/http/base-url.js';
import { notFound, WEBOB_NOT_FOUND } from '../../platform/http/errors.js';
import { boolFromString } from '../../platform/validation/parameter-types.js';
import type { TransfersService } from '../service/transfers.service.js';
import {
  acceptTransferBody,
  createTransferBody,
  createTransferBodyV355,
} from '../schemas/transfers.schemas.js';
import { parseBody } from '../schemas/validation.js';
import { type TransferViewContext, transferDetail, transferSummary } from '../views/transfer.view.js';
import { apiRoot, callerFor, param, queryOf, sendEmpty, versionFor } from './route-helpers.js';

/**
 * `os-volume-transfer` (contrib/volume_transfer.py, every version) and `volume-transfers`
 * (v3/volume_transfer.py, 3.55+): the same transfers, the newer API with `no_snapshots`.
 */
export function transfersRoutes(transfers: TransfersService): Router {
  const router = Router({ mergeParams: true, strict: true });

  // Below 3.55 the new resource does not exist, as with other microversioned resources.
  router.use('/volume-transfers', (req, _res, next) => {
    next(versionFor(req).below('3.55') ? notFound(WEBOB_NOT_FOUND) : undefined);
  });

  for (const resource of ['os-volume-transfer', 'volume-transfers'] as const) {
    const newApi = resource === 'volume-transfers';
    const ctx = (req: Request): TransferViewContext => ({
      api: apiRoot(req),
      bookmark: `${baseUrl(req)}/volume/${callerFor(req).projectId}`,
      newApi,
      version: versionFor(req),
    });
    const list = (detail: boolean) => async (req: Request, res: import('express').Response) => {
      const rows = await transfers.list(callerFor(req), queryOf(req).has('all_tenants'));
      const c = ctx(req);
      res.json({ transfers: rows.map((t) => (detail ? transferDetail(c, t) : transferSummary(c, t))) });
    };

    router.get(`/${resource}`, list(false));
    router.get(`/${resource}/detail`, list(true));

    router.post(`/${resource}`, async (req, res) => {
      const { transfer: body } = parseBody(
        newApi ? createTransferBodyV355 : createTransferBody,
        req.ctx.body,
      );
      const created = await transfers.create(callerFor(req), {
        volumeId: body.volume_id,
        name: typeof body.name === 'string' ? body.name.trim() : null,
        noSnapshots: body.no_snapshots !== undefined && boolFromString(body.no_snapshots),
      });
      res.status(202).json({ transfer: transferDetail(ctx(req), created.transfer, created.authKey) });
    });

    router.get(`/${resource}/:transferId`, async (req, res) => {
      const t = await transfers.show(callerFor(req), param(req, 'transferId'));
      res.json({ transfer: transferDetail(ctx(req), t) });
    });

    router.delete(`/${resource}/:transferId`, async (req, res) => {
      await transfers.delete(callerFor(req), param(req, 'transferId'));
      sendEmpty(res, 202, 'html');
    });

    router.post(`/${resource}/:transferId/accept`, async (req, res) => {
      const { accept } = parseBody(acceptTransferBody, req.ctx.body);
      const t = await transfers.accept(callerFor(req), param(req, 'transferId'), String(accept.auth_key));
      res.status(202).json({ transfer: transferSummary(ctx(req), t) });
    });
  }

  return router;
}
