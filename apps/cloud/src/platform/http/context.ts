import type { Logger } from '../logger.js';
import type { Microversion } from './microversion.js';

/** Who is calling, resolved from X-Auth-Token by the identity service. */
export interface AuthContext {
  tokenId: string;
  userId: string;
  userName: string;
  domainId: string;
  projectId: string | null;
  projectName: string | null;
  roles: string[];
  isAdmin: boolean;
  expiresAt: string;
}

export interface RequestContext {
  requestId: string;
  /** The caller's X-OpenStack-Request-ID (`req-<uuid>`), when it sent a valid one. */
  globalRequestId?: string;
  log: Logger;
  version?: Microversion;
  auth?: AuthContext;
  /** Parsed JSON body, set by the body middleware. `undefined` when the request had none. */
  body?: unknown;
}

declare global {
  namespace Express {
    interface Request {
      ctx: RequestContext;
    }
  }
}

/** The authenticated caller of a route that ran the auth middleware. */
export function authOf(ctx: RequestContext): AuthContext {
  if (!ctx.auth) throw new Error('route used without the auth middleware');
  return ctx.auth;
}
