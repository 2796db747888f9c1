import { existsSync } from 'node:fs';
import { join } from 'node:path';
import compression from 'compression';
import express, { type ErrorRequestHandler, type Express, Router } from 'express';
import helmet from 'helmet';
import type { BffConfig } from './config.js';
import { authRoutes } from './features/auth/auth.routes.js';
import { authService } from './features/auth/auth.service.js';
import { type LoginLimiter, loginLimiterFor } from './features/auth/login-limits.js';
import { attachmentsRoutes } from './features/attachments/attachments.routes.js';
import { catalogRoutes } from './features/catalog/catalog.routes.js';
import { hostsRoutes } from './features/hosts/hosts.routes.js';
import { launchRoutes, launchServiceFor } from './features/launch/launch.routes.js';
import type { LaunchService } from './features/launch/launch.service.js';
import { openapiRoutes } from './features/openapi/openapi.routes.js';
import { serverListRoutes } from './features/servers/servers.list.js';
import { serversRoutes } from './features/servers/servers.routes.js';
import { projectsRoutes } from './features/projects/projects.routes.js';
import { volumeListRoutes } from './features/volumes/volumes.list.js';
import { volumesRoutes } from './features/volumes/volumes.routes.js';
import { volumeActionsRoutes } from './features/volumes/volume-actions.routes.js';
import { preflightRoutes } from './features/preflight/preflight.routes.js';
import { topologyRoutes } from './features/topology/topology.routes.js';
import { eventsRoutes } from './features/events/events.routes.js';
import { launchChoicesRoutes } from './features/launch-choices/launch-choices.routes.js';
import { OpenStackFault, toApiError } from './openstack/fault.js';
import { keystoneClient } from './openstack/keystone-client.js';
import { accessLog } from './platform/access-log.js';
import { ApiError, errorHandler, notFound } from './platform/errors.js';
import { databaseProbe, HealthMonitor, healthRoutes } from './platform/health.js';
import type { Logger } from './platform/logger.js';
import { ChangeBus } from './platform/events.js';
import { type ApiRoute, registerRoutes } from './platform/route-table.js';
import { requireSameOrigin } from './platform/same-origin.js';
import { clearSessionCookie, loadSession, requireCsrf } from './platform/session.js';
import type { SessionStore } from './platform/session-store.js';
import { jsonBodies } from './platform/validate.js';
import { type VolumeLock, volumeLockFor } from './platform/volume-lock.js';

export interface BffDeps {
  config: BffConfig;
  logger: Logger;
  sessions: SessionStore;
  /** Made by createBffApp when not given. */
  changes?: ChangeBus;
  /** The sign-in limits; made from the config when not given (PostgreSQL with DATABASE_URL). */
  loginLimiter?: LoginLimiter;
  /** The per-volume critical section; made from the config (PostgreSQL or memory) when not given. */
  volumeLock?: VolumeLock;
  /** Launches and their store; made from the config when not given (main.ts and tests stop it). */
  launches?: LaunchService;
}

/** Builds the BFF. It never listens: main.ts and the tests do. */
export function createBffApp(deps: BffDeps): Express {
  const { config, logger, sessions } = deps;
  const changes = deps.changes ?? new ChangeBus();
  const volumeLock = deps.volumeLock ?? volumeLockFor(config.sessionDatabaseUrl, logger);
  const app = express();
  app.disable('x-powered-by');
  // X-Forwarded-* (the client address the sign-in limits count) only from proxies the operator named.
  app.set('trust proxy', config.trustProxy);
  // First: every answer, even a refusal by the middleware below, has its id and its access line.
  app.use(accessLog(logger));
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'"],
          imgSrc: ["'self'", 'data:'],
          fontSrc: ["'self'"],
          connectSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
        },
      },
    }),
  );

  const keystone = keystoneClient(config.authUrl);
  const auth = authService(config, keystone, sessions);

  const health = new HealthMonitor(
    [
      { name: 'cloud', label: 'the cloud', target: config.authUrl, check: () => keystone.ping(2_000) },
      ...(config.sessionDatabaseUrl ? [databaseProbe(config.sessionDatabaseUrl, logger)] : []),
    ],
    logger,
  );

  // The route table: every /api route, declared once by its feature (features/<name>/<name>.routes.ts).
  // Express serves it and GET /api/openapi.json documents it.
  const routes: ApiRoute[] = [
    ...healthRoutes(health),
    ...authRoutes(auth, deps.loginLimiter ?? loginLimiterFor(config, logger)),
    ...volumesRoutes(changes),
    ...volumeActionsRoutes(changes),
    ...serversRoutes(changes),
    ...attachmentsRoutes(changes, volumeLock),
    ...catalogRoutes(),
    ...hostsRoutes(),
    ...launchRoutes({
      config,
      logger,
      changes,
      volumeLock,
      sessions,
      service: deps.launches ?? launchServiceFor({ config, logger, changes, sessions, volumeLock }),
    }),
    ...preflightRoutes(),
    ...topologyRoutes({ authUrl: config.authUrl }),
    ...eventsRoutes(changes, { logger }),
    // --- L: paged lists and project names ---
    ...serverListRoutes(),
    ...volumeListRoutes(),
    ...projectsRoutes({ authUrl: config.authUrl }),
    // --- 15: what a launch picks from beyond the catalog ---
    ...launchChoicesRoutes(),
  ];
  routes.push(...openapiRoutes(() => routes));

  // Routes that need no session (health) answer before any body parsing or session lookup.
  registerRoutes(
    app,
    routes.filter((r) => r.session === 'none'),
  );
  const api = Router();
  // Only the API needs bodies and sessions: the static app is served without a session lookup.
  api.use('/api', requireSameOrigin(config.allowedOrigins), ...jsonBodies('256kb'));
  api.use('/api', loadSession(sessions, logger), requireCsrf);
  registerRoutes(
    api,
    routes.filter((r) => r.session !== 'none'),
  );
  api.use('/api', () => {
    throw notFound('There is no such API path.');
  });
  app.use(api);

  // The single-page app, with a fallback so client-side routes load on refresh.
  const index = join(config.webDist, 'index.html');
  if (existsSync(index)) {
    // Only the static app is compressed: the API stays uncompressed so the SSE stream flushes.
    app.use(compression());
    app.use(express.static(config.webDist, { index: false, maxAge: '1h' }));
    app.get('/{*path}', (_req, res) => {
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(index);
    });
  } else {
    app.get('/{*path}', (_req, res) => {
      res
        .status(503)
        .type('text/plain')
        .send(
          'The dashboard has not been built. Run `npm run build --workspace apps/web`, or use the API under /api.',
        );
    });
  }

  // OpenStack faults become the BFF's errors; an expired token ends the session cleanly.
  const translate: ErrorRequestHandler = async (err, req, res, next) => {
    const e = err instanceof OpenStackFault ? toApiError(err) : err;
    if (e instanceof ApiError && e.code === 'session_expired' && req.session) {
      await sessions.delete(req.session.id).catch(() => undefined);
      clearSessionCookie(req, res);
    }
    next(e);
  };
  app.use(translate);
  app.use(errorHandler(logger));
  return app;
}
