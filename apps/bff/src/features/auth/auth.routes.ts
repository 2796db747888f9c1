import {
  apiErrorSchema,
  capabilitiesSchema,
  loginRequestSchema,
  sessionSchema,
  switchProjectRequestSchema,
} from '@sv/shared';
import { ApiError } from '../../platform/errors.js';
import { type ApiRoute, route } from '../../platform/route-table.js';
import { clearSessionCookie, setSessionCookie } from '../../platform/session.js';
import { type authService, sessionView } from './auth.service.js';
import type { LoginLimiter } from './login-limits.js';

const wrongCredentials = (err: unknown) => err instanceof ApiError && err.code === 'wrong_credentials';

/** Signing in and out, switching project, and what this cloud can do. */
export function authRoutes(auth: ReturnType<typeof authService>, limiter: LoginLimiter): ApiRoute[] {
  return [
    route({
      method: 'post',
      path: '/api/session',
      summary: 'Sign in with Keystone; sets the session cookie',
      tag: 'session',
      session: 'optional',
      body: loginRequestSchema,
      response: { status: 201, schema: sessionSchema, description: 'Signed in' },
      responses: {
        401: { description: 'Wrong user name, password or project', schema: apiErrorSchema },
        429: { description: 'Too many attempts', schema: apiErrorSchema },
      },
      handler: async ({ body, session: previous, req, res }) => {
        const keys = { domain: body.domain, username: body.username, address: req.ip };
        const session = await limiter
          .attempt(keys, () => auth.login(body, previous), wrongCredentials)
          .catch((err: unknown) => {
            const retry = err instanceof ApiError ? err.details?.retryAfterSeconds : undefined;
            if (typeof retry === 'number') res.setHeader('Retry-After', String(retry));
            throw err;
          });
        setSessionCookie(req, res, session);
        return sessionView(session);
      },
    }),
    route({
      method: 'get',
      path: '/api/session',
      summary: 'The signed-in user, project and capabilities',
      tag: 'session',
      response: { schema: sessionSchema },
      handler: ({ session }) => sessionView(session),
    }),
    route({
      method: 'delete',
      path: '/api/session',
      summary: 'Sign out (revokes the token)',
      tag: 'session',
      response: { status: 204 },
      handler: async ({ session, req, res }) => {
        await auth.logout(session);
        clearSessionCookie(req, res);
      },
    }),
    route({
      method: 'put',
      path: '/api/session/project',
      summary: 'Switch to another project',
      tag: 'session',
      body: switchProjectRequestSchema,
      response: { schema: sessionSchema },
      handler: async ({ body, session, req, res }) => {
        const switched = await auth.switchProject(session, body.projectId);
        setSessionCookie(req, res, switched);
        return sessionView(switched);
      },
    }),
    route({
      method: 'get',
      path: '/api/capabilities',
      summary: "What this cloud can do, and why not when it can't",
      tag: 'session',
      response: { schema: capabilitiesSchema },
      handler: ({ session }) => session.capabilities,
    }),
  ];
}
