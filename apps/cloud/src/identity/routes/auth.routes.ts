import { Router } from 'express';
import type { Store } from '../../platform/db/store.js';
import { authOf } from '../../platform/http/context.js';
import { forbidden } from '../../platform/http/errors.js';
import { baseUrl } from '../../platform/http/base-url.js';
import { requireToken, unauthenticated } from '../auth-middleware.js';
import type { TokenService } from '../service/tokens.service.js';
import { identityStore as ids } from '../store/identity.store.js';
import { catalogView } from '../views/catalog.view.js';
import { collectionLinks, projectView, tokenView, v3VersionView } from '../views/identity.view.js';
import type { AuthContext } from '../../platform/http/context.js';

/** Keystone's wording when policy refuses an action. */
export const keystoneForbidden = (action: string) =>
  forbidden(`You are not authorized to perform the requested action: ${action}.`);

export function authRoutes(store: Store, tokens: TokenService): Router {
  const router = Router();
  const db = store.db;

  async function renderToken(
    base: string,
    t: { auth: AuthContext; methods: string[]; auditId: string; issuedAt: string },
    catalog: boolean,
  ) {
    const domain = await ids.domainById(db, t.auth.domainId);
    const project = t.auth.projectId ? await ids.projectById(db, t.auth.projectId) : undefined;
    const projectDomain = project ? await ids.domainById(db, project.domain_id) : undefined;
    const roles = await ids.rolesByNames(db, t.auth.roles);
    return tokenView({
      ...t,
      domainName: domain?.name ?? 'Default',
      ...(projectDomain ? { projectDomain: { id: projectDomain.id, name: projectDomain.name } } : {}),
      roles: t.auth.roles.map((name) => roles.find((r) => r.name === name)).filter((r) => r !== undefined),
      catalog,
      base,
    });
  }

  router.get('/', (req, res) => {
    const base = baseUrl(req);
    res
      .status(300)
      .setHeader('Location', `${base}/identity/v3/`)
      .json({ versions: { values: [v3VersionView(base)] } });
  });
  router.get(['/v3', '/v3/'], (req, res) => {
    res.json({ version: v3VersionView(baseUrl(req)) });
  });

  router.post('/v3/auth/tokens', async (req, res) => {
    const issued = await tokens.authenticate(req.ctx.body).catch((err) => {
      if ((err as { status?: number }).status === 401) throw unauthenticated(req);
      throw err;
    });
    const body = await renderToken(baseUrl(req), issued, !('nocatalog' in req.query));
    res.status(201).setHeader('X-Subject-Token', issued.token).json(body);
  });

  const authed = requireToken(tokens);

  /** The subject token may be inspected by its own user or by an admin. */
  function assertMayInspect(caller: AuthContext, subject: AuthContext) {
    if (!caller.isAdmin && caller.userId !== subject.userId) throw keystoneForbidden('identity:validate_token');
  }

  router.head('/v3/auth/tokens', authed, async (req, res) => {
    const subject = await tokens.inspect(req.get('X-Subject-Token') ?? '');
    assertMayInspect(authOf(req.ctx), subject.auth);
    res.status(200).setHeader('X-Subject-Token', req.get('X-Subject-Token') ?? '').end();
  });
  router.get('/v3/auth/tokens', authed, async (req, res) => {
    const subjectToken = req.get('X-Subject-Token') ?? '';
    const subject = await tokens.inspect(subjectToken);
    assertMayInspect(authOf(req.ctx), subject.auth);
    const body = await renderToken(baseUrl(req), subject, !('nocatalog' in req.query));
    res.setHeader('X-Subject-Token', subjectToken).json(body);
  });
  router.delete('/v3/auth/tokens', authed, async (req, res) => {
    const subjectToken = req.get('X-Subject-Token') ?? '';
    const subject = await tokens.inspect(subjectToken);
    assertMayInspect(authOf(req.ctx), subject.auth);
    await tokens.revoke(subjectToken);
    res.status(204).end();
  });

  router.get('/v3/auth/projects', authed, async (req, res) => {
    const base = baseUrl(req);
    const projects = await ids.projectsOfUser(db, authOf(req.ctx).userId);
    res.json({ projects: projects.map((p) => projectView(p, base)), links: collectionLinks(base, 'auth/projects') });
  });
  router.get('/v3/auth/catalog', authed, async (req, res) => {
    const base = baseUrl(req);
    const auth = authOf(req.ctx);
    if (!auth.projectId) throw keystoneForbidden('identity:get_auth_catalog');
    res.json({ catalog: catalogView(base, auth.projectId), links: collectionLinks(base, 'auth/catalog') });
  });

  router.get('/v3/users/:userId/projects', authed, async (req, res) => {
    const auth = authOf(req.ctx);
    if (!auth.isAdmin && auth.userId !== req.params.userId) throw keystoneForbidden('identity:list_user_projects');
    const base = baseUrl(req);
    const projects = await ids.projectsOfUser(db, String(req.params.userId));
    res.json({
      projects: projects.map((p) => projectView(p, base)),
      links: collectionLinks(base, `users/${req.params.userId}/projects`),
    });
  });

  return router;
}
