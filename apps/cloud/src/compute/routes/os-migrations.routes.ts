import { Router } from 'express';
import type { ComputeDeps } from '../deps.js';
import { baseUrl } from '../../platform/http/base-url.js';
import { authOf } from '../../platform/http/context.js';
import { versionOf } from '../../platform/http/microversion.js';
import { listMigrations } from '../service/migrations.service.js';
import { migrationView, migrationsLinks } from '../views/migrations.view.js';

/** GET /os-migrations: the resizes and cold migrations the cloud has done (admins). */
export function osMigrationsRoutes(deps: ComputeDeps): Router {
  const router = Router();
  router.get('/os-migrations', async (req, res) => {
    const v = versionOf(req.ctx);
    const page = await listMigrations(deps, authOf(req.ctx), v, req.query as Record<string, unknown>);
    const links = migrationsLinks(`${baseUrl(req)}/compute`, page.limit, page.migrations);
    res.json({
      migrations: page.migrations.map((m) => migrationView(m, v)),
      ...(links.length ? { migrations_links: links } : {}),
    });
  });
  return router;
}
