import { Router } from 'express';
import { badRequest } from '../../platform/http/errors.js';
import { boolFromString } from '../../platform/validation/parameter-types.js';
import {
  snapshotCreateBody,
  snapshotResetStatusBody,
  snapshotUpdateBody,
  updateSnapshotStatusBody,
} from '../schemas/snapshots.schemas.js';
import { parseBody } from '../schemas/validation.js';
import { nextLink, parseListParams } from '../service/paging.js';
import type { SnapshotsService } from '../service/snapshots.service.js';
import { snapshotDetail, snapshotSummary } from '../views/snapshot.view.js';
import { apiRoot, callerFor, param, queryOf, sendEmpty, versionFor } from './route-helpers.js';

/** validate_name_and_description: names and descriptions are stored stripped. */
const stripped = (v: string | null | undefined) => (typeof v === 'string' ? v.trim() : v);

/**
 * wsgi.Controller.assert_valid_body: the entity must be there and be an object (its values are
 * checked by the service, as check_metadata_properties does).
 */
function entity(body: unknown, name: string): Record<string, string> {
  const value =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)[name]
      : undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest(`Missing required element '${name}' in request body.`);
  }
  return value as Record<string, string>;
}

/** /snapshots, /snapshots/detail, /snapshots/{id}, its actions and metadata (v3 snapshots.py). */
export function snapshotsRoutes(snapshots: SnapshotsService): Router {
  const router = Router({ mergeParams: true, strict: true });

  const list =
    (detail: boolean) => async (req: import('express').Request, res: import('express').Response) => {
      const query = queryOf(req);
      const params = parseListParams(query);
      const version = versionFor(req);
      const { rows, count } = await snapshots.list(callerFor(req), version, params);
      const links = nextLink(
        `${apiRoot(req)}/snapshots${detail ? '/detail' : ''}`,
        query,
        rows,
        params.limit,
        count,
      );
      const groupSnapshotIds = detail ? await snapshots.groupSnapshotIds(rows) : new Map<string, string>();
      res.json({
        snapshots: rows.map((s) =>
          detail
            ? snapshotDetail(s, version, { extended: true, groupSnapshotId: groupSnapshotIds.get(s.id) })
            : snapshotSummary(s),
        ),
        ...(links.length > 0 ? { snapshots_links: links } : {}),
        ...(count !== undefined ? { count } : {}),
      });
    };
  router.get('/snapshots', list(false));
  router.get('/snapshots/detail', list(true));

  router.post('/snapshots', async (req, res) => {
    const version = versionFor(req);
    const { snapshot: s } = parseBody(snapshotCreateBody, req.ctx.body);
    const row = await snapshots.create(callerFor(req), version, {
      volumeId: String(s.volume_id),
      name: stripped('name' in s ? s.name : s.display_name) ?? null,
      description: stripped(s.description) ?? null,
      metadata: s.metadata ?? null,
      force: s.force === undefined ? undefined : boolFromString(s.force),
    });
    res.status(202).json({ snapshot: snapshotDetail(row, version, { extended: false }) });
  });

  router.get('/snapshots/:snapshotId', async (req, res) => {
    const row = await snapshots.get(callerFor(req), param(req, 'snapshotId'));
    const groupSnapshotId = (await snapshots.groupSnapshotIds([row])).get(row.id);
    res.json({ snapshot: snapshotDetail(row, versionFor(req), { extended: true, groupSnapshotId }) });
  });

  router.put('/snapshots/:snapshotId', async (req, res) => {
    const { snapshot: s } = parseBody(snapshotUpdateBody, req.ctx.body);
    const name = 'name' in s ? s.name : 'display_name' in s ? s.display_name : undefined;
    const description =
      'description' in s ? s.description : 'display_description' in s ? s.display_description : undefined;
    const row = await snapshots.update(callerFor(req), param(req, 'snapshotId'), {
      ...(name !== undefined ? { name: stripped(name) ?? null } : {}),
      ...(description !== undefined ? { description: stripped(description) ?? null } : {}),
    });
    res.json({ snapshot: snapshotDetail(row, versionFor(req), { extended: false }) });
  });

  router.delete('/snapshots/:snapshotId', async (req, res) => {
    await snapshots.remove(callerFor(req), param(req, 'snapshotId'), { force: false });
    sendEmpty(res, 202, 'html');
  });

  router.post('/snapshots/:snapshotId/action', async (req, res) => {
    const body = req.ctx.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body) || Object.keys(body).length !== 1) {
      throw badRequest('Malformed request body');
    }
    const [name, args] = Object.entries(body)[0] as [string, unknown];
    const caller = callerFor(req);
    const id = param(req, 'snapshotId');
    switch (name) {
      case 'os-reset_status': {
        const b = parseBody(snapshotResetStatusBody, { [name]: args });
        await snapshots.resetStatus(caller, id, b['os-reset_status'].status);
        sendEmpty(res, 202, 'json');
        return;
      }
      case 'os-force_delete':
        await snapshots.remove(caller, id, { force: true });
        sendEmpty(res, 202, 'json');
        return;
      case 'os-update_snapshot_status': {
        const b = parseBody(updateSnapshotStatusBody, { [name]: args })['os-update_snapshot_status'];
        await snapshots.updateStatus(caller, id, b.status, b.progress ?? null);
        sendEmpty(res, 202, 'html');
        return;
      }
      default:
        throw badRequest(`There is no such action: ${name}`);
    }
  });

  router.get('/snapshots/:snapshotId/metadata', async (req, res) => {
    res.json({ metadata: await snapshots.metadata(callerFor(req), param(req, 'snapshotId')) });
  });

  router.post('/snapshots/:snapshotId/metadata', async (req, res) => {
    const metadata = entity(req.ctx.body, 'metadata');
    const meta = await snapshots.updateMetadata(callerFor(req), param(req, 'snapshotId'), metadata, false);
    res.json({ metadata: meta });
  });

  router.put('/snapshots/:snapshotId/metadata', async (req, res) => {
    const metadata = entity(req.ctx.body, 'metadata');
    const meta = await snapshots.updateMetadata(callerFor(req), param(req, 'snapshotId'), metadata, true);
    res.json({ metadata: meta });
  });

  router.get('/snapshots/:snapshotId/metadata/:key', async (req, res) => {
    const key = param(req, 'key');
    res.json({
      meta: { [key]: await snapshots.metadataItem(callerFor(req), param(req, 'snapshotId'), key) },
    });
  });

  router.put('/snapshots/:snapshotId/metadata/:key', async (req, res) => {
    const meta = entity(req.ctx.body, 'meta');
    const key = param(req, 'key');
    if (!Object.hasOwn(meta, key)) throw badRequest('Request body and URI mismatch');
    if (Object.keys(meta).length > 1) throw badRequest('Request body contains too many items');
    await snapshots.updateMetadata(callerFor(req), param(req, 'snapshotId'), meta, false);
    res.json({ meta });
  });

  router.delete('/snapshots/:snapshotId/metadata/:key', async (req, res) => {
    await snapshots.removeMetadataItem(callerFor(req), param(req, 'snapshotId'), param(req, 'key'));
    sendEmpty(res, 200, 'html');
  });

  return router;
}
