import { type Request, type Response, Router } from 'express';
import type { ComputeDeps } from '../deps.js';
import { baseUrl } from '../../platform/http/base-url.js';
import { badRequest, notFound, WEBOB_NOT_FOUND } from '../../platform/http/errors.js';
import { versionOf } from '../../platform/http/microversion.js';
import { authOf } from '../../platform/http/context.js';
import { assertAdmin, canReadFlavorExtraSpecs, isAdmin, RULES } from '../policy.js';
import { parseFlavorCreate, parseFlavorListQuery, parseFlavorUpdate } from '../schemas/flavors.schemas.js';
import {
  createFlavor,
  deleteFlavor,
  extraSpecsOf,
  getFlavor,
  listFlavors,
  updateFlavorDescription,
  type Caller,
  changeFlavorAccess,
  listFlavorAccess,
} from '../service/flavors.service.js';
import { parseFlavorAccessAction } from '../schemas/flavor-access.schemas.js';
import type { FlavorRow } from '../store/flavors.store.js';
import { parseExtraSpecsCreate, parseExtraSpecUpdate } from '../schemas/flavor-extra-specs.schemas.js';
import { deleteExtraSpec, mergeExtraSpecs, setExtraSpec } from '../service/flavor-extra-specs.service.js';
import {
  collectionLinks,
  flavorAccessView,
  flavorBriefView,
  flavorView,
  novaJson,
} from '../views/flavor.view.js';

const computeBase = (req: Request) => `${baseUrl(req)}/compute`;

/** cloud-rescue: the caller's project sees the private flavors shared with it. */
const callerOf = (req: Request): Caller => {
  const projectId = authOf(req.ctx).projectId;
  return { isAdmin: isAdmin(req.ctx), ...(projectId ? { projectId } : {}) };
};

const sendJson = (res: Response, status: number, body: unknown) => {
  res.status(status).type('application/json').send(novaJson(body));
};

/** Flavors and flavor-manage (`/flavors`, captures 95-102, 179, 180). */
export function flavorRoutes(deps: ComputeDeps): Router {
  const router = Router();
  const db = () => deps.store.db;

  const showOptions = (req: Request, f: FlavorRow) => {
    const version = versionOf(req.ctx);
    const specs = version.atLeast('2.61') && canReadFlavorExtraSpecs(req.ctx) ? extraSpecsOf(f) : null;
    return { version, extraSpecs: specs };
  };

  router.get('/flavors', async (req, res) => {
    const version = versionOf(req.ctx);
    const caller = callerOf(req);
    const query = parseFlavorListQuery(req.query, caller.isAdmin, version.atLeast('2.75'));
    const page = await listFlavors(db(), caller, query);
    const base = computeBase(req);
    const links = collectionLinks(
      base,
      'flavors',
      req.query,
      page.requestedLimit,
      page.flavors.length,
      page.flavors.at(-1)?.id,
    );
    sendJson(res, 200, {
      flavors: page.flavors.map((f) => flavorBriefView(base, f, version)),
      ...(links.length ? { flavors_links: links } : {}),
    });
  });

  router.get('/flavors/detail', async (req, res) => {
    const version = versionOf(req.ctx);
    const caller = callerOf(req);
    const query = parseFlavorListQuery(req.query, caller.isAdmin, version.atLeast('2.75'));
    const page = await listFlavors(db(), caller, query);
    const base = computeBase(req);
    const links = collectionLinks(
      base,
      'flavors/detail',
      req.query,
      page.requestedLimit,
      page.flavors.length,
      page.flavors.at(-1)?.id,
    );
    sendJson(res, 200, {
      flavors: page.flavors.map((f) => flavorView(base, f, showOptions(req, f))),
      ...(links.length ? { flavors_links: links } : {}),
    });
  });

  router.get('/flavors/:id', async (req, res) => {
    const f = await getFlavor(db(), req.params.id, callerOf(req));
    sendJson(res, 200, { flavor: flavorView(computeBase(req), f, showOptions(req, f)) });
  });

  // Read-only extra specs: openstackclient reads them for every flavor in `flavor list`.
  router.get('/flavors/:id/os-extra_specs', async (req, res) => {
    const f = await getFlavor(db(), req.params.id, callerOf(req));
    sendJson(res, 200, { extra_specs: JSON.parse(f.extra_specs) as Record<string, string> });
  });
  router.get('/flavors/:id/os-extra_specs/:key', async (req, res) => {
    const f = await getFlavor(db(), req.params.id, callerOf(req));
    const specs = JSON.parse(f.extra_specs) as Record<string, string>;
    const value = specs[req.params.key];
    if (value === undefined) throw notFound(`Flavor ${f.id} has no extra specs with key ${req.params.key}.`);
    sendJson(res, 200, { [req.params.key]: value });
  });

  // --- cloud14v: flavor extra specs (write) ---
  // Nova validates the body, then checks policy (admins only), then looks the flavor up.
  router.post('/flavors/:id/os-extra_specs', async (req, res) => {
    const specs = parseExtraSpecsCreate(req.ctx.body);
    assertAdmin(req.ctx, RULES.flavorExtraSpecsCreate);
    await mergeExtraSpecs(deps.store, { isAdmin: true }, req.params.id, specs);
    sendJson(res, 200, { extra_specs: specs });
  });
  router.put('/flavors/:id/os-extra_specs/:key', async (req, res) => {
    const body = parseExtraSpecUpdate(req.ctx.body);
    assertAdmin(req.ctx, RULES.flavorExtraSpecsUpdate);
    await setExtraSpec(deps.store, { isAdmin: true }, req.params.id, req.params.key, body);
    sendJson(res, 200, body);
  });
  router.delete('/flavors/:id/os-extra_specs/:key', async (req, res) => {
    assertAdmin(req.ctx, RULES.flavorExtraSpecsDelete);
    await deleteExtraSpec(deps.store, { isAdmin: true }, req.params.id, req.params.key);
    res.status(200).end();
  });

  // Nova validates the body before it checks policy: a member's bad body is a 400, not a 403.
  router.post('/flavors', async (req, res) => {
    const version = versionOf(req.ctx);
    const nf = parseFlavorCreate(req.ctx.body, version.atLeast('2.55'));
    assertAdmin(req.ctx, RULES.flavorCreate);
    const f = await createFlavor(deps.store, nf);
    sendJson(res, 200, { flavor: flavorView(computeBase(req), f, showOptions(req, f)) });
  });

  router.put('/flavors/:id', async (req, res) => {
    if (versionOf(req.ctx).below('2.55')) throw notFound(WEBOB_NOT_FOUND);
    const description = parseFlavorUpdate(req.ctx.body);
    assertAdmin(req.ctx, RULES.flavorUpdate);
    const f = await updateFlavorDescription(deps.store, req.params.id, description);
    sendJson(res, 200, { flavor: flavorView(computeBase(req), f, showOptions(req, f)) });
  });

  router.delete('/flavors/:id', async (req, res) => {
    assertAdmin(req.ctx, RULES.flavorDelete);
    await deleteFlavor(deps.store, req.params.id);
    res.status(202).end();
  });

  // --- cloud-rescue: flavor access (private flavors shared with projects) ---
  router.get('/flavors/:id/os-flavor-access', async (req, res) => {
    const access = await listFlavorAccess(db(), req.params.id, callerOf(req));
    sendJson(res, 200, flavorAccessView(access));
  });
  // Nova validates the body, checks policy, asks Keystone about the project, then finds the flavor.
  router.post('/flavors/:id/action', async (req, res) => {
    const change = parseFlavorAccessAction(req.ctx.body);
    assertAdmin(req.ctx, change.add ? RULES_FLAVOR_ACCESS.add : RULES_FLAVOR_ACCESS.remove);
    if (deps.projectExists && !(await deps.projectExists(change.projectId))) {
      throw badRequest(`Project ID ${change.projectId} is not a valid project.`);
    }
    const access = await changeFlavorAccess(deps.store, req.params.id, change);
    sendJson(res, 200, flavorAccessView(access));
  });
  // --- end cloud-rescue ---

  return router;
}

// --- cloud-rescue ---
const RULES_FLAVOR_ACCESS = {
  add: 'os_compute_api:os-flavor-access:add_tenant_access',
  remove: 'os_compute_api:os-flavor-access:remove_tenant_access',
} as const;
