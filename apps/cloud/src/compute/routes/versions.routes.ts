import { type Request, Router } from 'express';
import { baseUrl } from '../../platform/http/base-url.js';
import { negotiateMicroversion } from '../../platform/http/microversion.js';
import { COMPUTE_MAX, COMPUTE_MIN } from '../microversions.js';
import {
  legacyVersionShowView,
  versionChoicesView,
  versionListView,
  versionShowView,
} from '../views/versions.view.js';

const computeBase = (req: Request) => `${baseUrl(req)}/compute`;

/**
 * Version discovery, mounted before the token check (no token needed). `GET /` lists the
 * versions; `GET /v2.1` and `/v2.1/` answer the v2.1 document through Nova's microversion
 * handling (the version headers are echoed, capture 88); any other path outside `/v2.1/...`
 * gets the versions app's 300 choices. The root app is not under microversion control.
 */
export function computeVersionRoutes(): Router {
  const router = Router({ strict: true });
  const max = () => COMPUTE_MAX.toString();
  const min = () => COMPUTE_MIN.toString();

  router.all('/', (req, res) => {
    res.json(versionListView(computeBase(req), max(), min()));
  });

  const negotiate = negotiateMicroversion({
    service: 'compute',
    min: COMPUTE_MIN,
    max: COMPUTE_MAX,
    legacyHeader: 'X-OpenStack-Nova-API-Version',
  });
  router.get(['/v2.1', '/v2.1/'], negotiate, (req, res) => {
    res.json(versionShowView(computeBase(req), max(), min()));
  });

  // The legacy v2 endpoint's root: its own document for any method (captures 500, 501), outside
  // microversion control.
  router.all(['/v2', '/v2/'], (req, res) => {
    res.json(legacyVersionShowView(computeBase(req)));
  });

  // Everything else but the v2.1 API itself belongs to the versions app.
  router.use((req, res, next) => {
    if (req.path === '/v2.1' || req.path.startsWith('/v2.1/')) return next();
    res.status(300).json(versionChoicesView(computeBase(req), req.path, max(), min()));
  });
  return router;
}
