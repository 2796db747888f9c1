import { type Request, type Response, Router } from 'express';
import type { Store } from '../../platform/db/store.js';
import { baseUrl } from '../../platform/http/base-url.js';
import { authOf } from '../../platform/http/context.js';
import { keystoneAuth } from '../auth-middleware.js';
import { forbidden } from '../errors.js';
import { resource, sendJson } from '../http.js';
import { enforce, isAdmin } from '../service/policy.js';
import { projectsService } from '../service/projects.service.js';
import type { TokenInfo, TokenService } from '../service/tokens.service.js';
import { catalogView } from '../views/catalog.view.js';
import { catalogEntries } from '../service/catalog.service.js';
import { collectionLinks, v3Url } from '../views/links.view.js';
import { projectView } from '../views/project.view.js';
import { tokenView } from '../views/token.view.js';
import { selfUrl } from './common.js';

/** /v3/auth: issue, validate, check and revoke tokens; what a token may scope to; its catalog. */
export function authRoutes(store: Store, tokens: TokenService): Router {
  const router = Router();
  const authed = keystoneAuth(tokens);

  async function renderToken(req: Request, res: Response, status: number, token: string, info: TokenInfo) {
    const described = await tokens.describe(info);
    const catalog = 'nocatalog' in req.query ? null : await catalogEntries(store.db, baseUrl(req));
    const body = tokenView({ ...described, catalog });
    res.setHeader('X-Subject-Token', token);
    sendJson(res, status, body);
  }

  /** The subject token, once the caller may see it: admins, or its own user. */
  async function subject(req: Request, action: string): Promise<{ token: string; info: TokenInfo }> {
    const token = req.get('X-Subject-Token') ?? '';
    const caller = authOf(req.ctx);
    // Keystone validates the subject while building the policy target, so its 404s come first.
    const info = token ? await tokens.inspect(token) : null;
    enforce(action, isAdmin(caller) || info?.auth.userId === caller.userId);
    if (!info) await tokens.inspect(token);
    return { token, info: info as TokenInfo };
  }

  resource(router, '/v3/auth/tokens', {
    post: async (req, res) => {
      const issued = await tokens.authenticate(req.ctx.body);
      await renderToken(req, res, 201, issued.token, issued);
    },
    get: [
      authed,
      async (req, res) => {
        const { token, info } = await subject(req, req.method === 'HEAD' ? 'check_token' : 'validate_token');
        await renderToken(req, res, 200, token, info);
      },
    ],
    delete: [
      authed,
      async (req, res) => {
        const { token } = await subject(req, 'revoke_token');
        await tokens.revoke(token);
        res.status(204).end();
      },
    ],
  });

  resource(router, '/v3/auth/projects', {
    get: [
      authed,
      async (req, res) => {
        const projects = await projectsService.forCaller(store, authOf(req.ctx));
        const base = baseUrl(req);
        sendJson(res, 200, {
          projects: projects.map((p) => projectView(p, base)),
          links: collectionLinks(selfUrl(req)),
        });
      },
    ],
  });

  resource(router, '/v3/auth/catalog', {
    get: [
      authed,
      async (req, res) => {
        const base = baseUrl(req);
        const auth = authOf(req.ctx);
        // Keystone's Forbidden("A project-scoped token is required..."), whose detail it hides.
        if (!auth.projectId) throw forbidden();
        sendJson(res, 200, {
          catalog: catalogView(await catalogEntries(store.db, base), auth.projectId),
          links: { self: v3Url(base, 'auth/catalog') },
        });
      },
    ],
  });

  return router;
}
