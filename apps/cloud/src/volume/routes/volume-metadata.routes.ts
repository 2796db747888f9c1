import { createHash } from 'node:crypto';
import { type Request, type Response, Router } from 'express';
import { badRequest } from '../../platform/http/errors.js';
import { metadataBody, metaItemBody } from '../schemas/metadata.schemas.js';
import { parseBody } from '../schemas/validation.js';
import type { VolumeMetadataService } from '../service/volume-metadata.service.js';
import { callerFor, param, sendEmpty, versionFor } from './route-helpers.js';

/** Python's json.dumps with its default separators, for the ETag Cinder computes (3.15). */
export function pyJsonDumps(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') {
    return JSON.stringify(value).replace(
      /[\u007f-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  }
  if (typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pyJsonDumps).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${pyJsonDumps(k)}: ${pyJsonDumps(v)}`)
    .join(', ')}}`;
}

const etagOf = (metadata: Record<string, string>) =>
  createHash('md5').update(pyJsonDumps({ metadata })).digest('hex');

/** The If-Match header's entity tags (`*` matches any). */
function ifMatch(req: Request): string[] | null {
  const h = req.headers['if-match'];
  if (h === undefined) return null;
  return h.split(',').map((t) =>
    t
      .trim()
      .replace(/^W\//, '')
      .replace(/^"(.*)"$/, '$1'),
  );
}

/** /volumes/{id}/metadata[/{key}]: Cinder's VolumeMetadataController (v3: ETags from 3.15). */
export function volumeMetadataRoutes(metadata: VolumeMetadataService): Router {
  const router = Router({ mergeParams: true, strict: true });

  /** From 3.15 an If-Match that names no current ETag is 412 with an empty body. */
  const preconditionFails = async (req: Request, res: Response, id: string): Promise<boolean> => {
    if (versionFor(req).below('3.15')) return false;
    const tags = ifMatch(req);
    if (tags === null) return false;
    const current = etagOf(await metadata.list(callerFor(req), id));
    if (tags.includes('*') || tags.includes(current)) return false;
    sendEmpty(res, 412, 'html');
    return true;
  };

  router.get('/volumes/:volumeId/metadata', async (req, res) => {
    const meta = await metadata.list(callerFor(req), param(req, 'volumeId'));
    if (versionFor(req).atLeast('3.15')) {
      const body = pyJsonDumps({ metadata: meta });
      res.setHeader('Etag', createHash('md5').update(body).digest('hex'));
      // A bare webob.Response: webob's default content type (capture 602).
      res.setHeader('Content-Type', 'text/html; charset=UTF-8');
      res.send(Buffer.from(body, 'utf8'));
      return;
    }
    res.json({ metadata: meta });
  });

  router.post('/volumes/:volumeId/metadata', async (req, res) => {
    const body = parseBody(metadataBody, req.ctx.body);
    const meta = await metadata.update(callerFor(req), param(req, 'volumeId'), body.metadata, {
      replace: false,
      rule: 'volume:create_volume_metadata',
    });
    res.json({ metadata: meta });
  });

  router.put('/volumes/:volumeId/metadata', async (req, res) => {
    const body = parseBody(metadataBody, req.ctx.body);
    const id = param(req, 'volumeId');
    if (await preconditionFails(req, res, id)) return;
    const meta = await metadata.update(callerFor(req), id, body.metadata, {
      replace: true,
      rule: 'volume:update_volume_metadata',
    });
    res.json({ metadata: meta });
  });

  router.get('/volumes/:volumeId/metadata/:key', async (req, res) => {
    const key = param(req, 'key');
    res.json({ meta: { [key]: await metadata.item(callerFor(req), param(req, 'volumeId'), key) } });
  });

  router.put('/volumes/:volumeId/metadata/:key', async (req, res) => {
    const body = parseBody(metaItemBody, req.ctx.body);
    const key = param(req, 'key');
    if (!Object.hasOwn(body.meta, key)) throw badRequest('Request body and URI mismatch');
    if (Object.keys(body.meta).length > 1) throw badRequest('Request body contains too many items');
    const id = param(req, 'volumeId');
    if (await preconditionFails(req, res, id)) return;
    await metadata.update(callerFor(req), id, body.meta, {
      replace: false,
      rule: 'volume:update_volume_metadata',
    });
    res.json({ meta: body.meta });
  });

  router.delete('/volumes/:volumeId/metadata/:key', async (req, res) => {
    await metadata.removeItem(callerFor(req), param(req, 'volumeId'), param(req, 'key'));
    sendEmpty(res, 200, 'html');
  });

  return router;
}
