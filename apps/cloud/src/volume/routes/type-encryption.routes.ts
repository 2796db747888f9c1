import { Router } from 'express';
import { notFound, WEBOB_NOT_FOUND } from '../../platform/http/errors.js';
import { createEncryptionBody, updateEncryptionBody } from '../schemas/type-encryption.schemas.js';
import { parseBody } from '../schemas/validation.js';
import type { TypeEncryptionService } from '../service/type-encryption.service.js';
import { encryptionView } from '../views/type-encryption.view.js';
import { callerFor, param, sendEmpty } from './route-helpers.js';

/** /types/{id}/encryption[/{key or encryption id}] (contrib/volume_type_encryption.py), admins only. */
export function typeEncryptionRoutes(encryption: TypeEncryptionService): Router {
  const router = Router({ mergeParams: true, strict: true });

  router.get('/types/:typeId/encryption', async (req, res) => {
    const row = await encryption.get(callerFor(req), param(req, 'typeId'));
    // A type without encryption: an empty object (capture 824).
    res.json(row ? encryptionView(row) : {});
  });

  router.get('/types/:typeId/encryption/:key', async (req, res) => {
    const view = encryptionView(await encryption.getExisting(callerFor(req), param(req, 'typeId')));
    const key = param(req, 'key');
    if (!Object.hasOwn(view, key)) throw notFound(WEBOB_NOT_FOUND);
    res.json({ [key]: view[key] });
  });

  router.post('/types/:typeId/encryption', async (req, res) => {
    const body = parseBody(createEncryptionBody, req.ctx.body);
    const row = await encryption.create(callerFor(req), param(req, 'typeId'), body.encryption);
    // The request's specs with the ids Cinder gave them (capture 815).
    res.json({
      encryption: {
        ...body.encryption,
        volume_type_id: row.volume_type_id,
        encryption_id: row.encryption_id,
      },
    });
  });

  // The second id is the encryption's in the API reference; Cinder reads only the type's.
  router.put('/types/:typeId/encryption/:encryptionId', async (req, res) => {
    const body = parseBody(updateEncryptionBody, req.ctx.body);
    await encryption.update(callerFor(req), param(req, 'typeId'), body.encryption);
    res.json({ encryption: body.encryption });
  });

  router.delete('/types/:typeId/encryption/:encryptionId', async (req, res) => {
    await encryption.remove(callerFor(req), param(req, 'typeId'));
    sendEmpty(res, 202, 'html');
  });

  return router;
}
