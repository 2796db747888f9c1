import { type Request, type Response, Router } from 'express';
import type { BackupsService } from '../service/backups.service.js';
import { boolParam } from '../service/paging.js';
import { param, queryOf, versionFor } from './route-helpers.js';

/** GET /backups[/detail] and /backups/{id} (contrib/backups.py); `count` with `with_count` from 3.45. */
export function backupsRoutes(backups: BackupsService): Router {
  const router = Router({ mergeParams: true, strict: true });

  const list = (req: Request, res: Response) => {
    const query = queryOf(req);
    const withCount =
      versionFor(req).atLeast('3.45') && query.has('with_count')
        ? boolParam('with_count', query.get('with_count'))
        : false;
    const rows = backups.list(query.without('with_count'));
    res.json({ backups: rows, ...(withCount ? { count: rows.length } : {}) });
  };
  router.get('/backups', list);
  router.get('/backups/detail', list);
  router.get('/backups/:backupId', (req) => {
    backups.get(param(req, 'backupId'));
  });

  return router;
}
