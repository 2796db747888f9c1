import type { Capabilities, LoginRequest, Session } from '@sv/shared';
import type { BffConfig } from '../../config.js';
import {
  computeRange,
  capabilitiesFor,
  hasTopologyExtension,
  volumeRange,
} from '../../openstack/discovery.js';
import { OpenStackFault } from '../../openstack/fault.js';
import { endpointFor, type KeystoneClient, type KeystoneToken } from '../../openstack/keystone-client.js';
import { ApiError, badRequest } from '../../platform/errors.js';
import { newCsrfToken, newSessionId } from '../../platform/session.js';
import type { SessionData, SessionStore } from '../../platform/session-store.js';

export const WRONG_CREDENTIALS = 'The user name, password or project is not right.';

/** Logging in, switching project and logging out, with capability discovery at each scope. */
export function authService(config: BffConfig, keystone: KeystoneClient, store: SessionStore) {
  async function discover(
    token: KeystoneToken,
  ): Promise<{ endpoints: SessionData['endpoints']; capabilities: Capabilities }> {
    const compute = endpointFor(token.catalog, ['compute']);
    const volume = endpointFor(token.catalog, ['block-storage', 'volumev3']);
    if (!compute || !volume) {
      throw new ApiError(
        502,
        'cloud_incomplete',
        'This cloud has no compute or block-storage service in its catalog.',
      );
    }
    const [c, v, topology] = await Promise.all([
      computeRange(compute, token.token),
      volumeRange(volume, token.token),
      hasTopologyExtension(compute, token.token),
    ]);
    return {
      endpoints: { compute, volume, image: endpointFor(token.catalog, ['image']) },
      capabilities: capabilitiesFor(c, v, topology, config.launchStrategy === 'serial'),
    };
  }

  async function build(
    token: KeystoneToken,
    domain: string,
    id?: string,
    csrf?: string,
  ): Promise<SessionData> {
    if (!token.project) throw badRequest('no_project', 'This user has no project to work in.');
    const [{ endpoints, capabilities }, projects] = await Promise.all([
      discover(token),
      keystone.projects(token.token),
    ]);
    return {
      id: id ?? newSessionId(),
      csrfToken: csrf ?? newCsrfToken(),
      token: token.token,
      tokenExpiresAt: token.expiresAt,
      user: token.user,
      domain,
      project: token.project,
      projects,
      roles: token.roles,
      isAdmin: token.roles.includes('admin'),
      endpoints,
      capabilities,
      createdAt: new Date().toISOString(),
    };
  }

  /** The session's id stops working and its token is revoked (best effort: the cloud may be down). */
  async function end(session: SessionData): Promise<void> {
    await store.delete(session.id);
    await keystone.revoke(session.token).catch(() => undefined);
  }

  return {
    /**
     * Signs in. Signing in over a live session (another user, or the same one again) ends that
     * session: its id stops working and its Keystone token is revoked, so nothing the old cookie
     * or token could do outlives the new sign-in.
     */
    async login(input: LoginRequest, previous: SessionData | null = null): Promise<SessionData> {
      let token: KeystoneToken;
      try {
        if (input.project) {
          token = await keystone.passwordAuth({ ...input, project: { name: input.project } });
        } else {
          // No project named: take the user's first one, as Horizon does.
          const unscoped = await keystone.passwordAuth({ ...input, project: null });
          try {
            const first = (await keystone.projects(unscoped.token))[0];
            if (!first) throw badRequest('no_project', 'This user has no project to work in.');
            token = await keystone.rescope(unscoped.token, first.id);
          } finally {
            await keystone.revoke(unscoped.token).catch(() => undefined);
          }
        }
      } catch (err) {
        if (err instanceof OpenStackFault && err.status === 401) {
          throw new ApiError(401, 'wrong_credentials', WRONG_CREDENTIALS);
        }
        throw err;
      }
      let session: SessionData;
      try {
        session = await build(token, input.domain);
        // Before the new session exists: if the old one cannot be ended, the sign-in fails.
        if (previous) await end(previous);
        await store.set(session);
      } catch (err) {
        // No session holds the new token: it must not stay valid behind the failure.
        await keystone.revoke(token.token).catch(() => undefined);
        throw err;
      }
      return session;
    },

    async switchProject(session: SessionData, projectId: string): Promise<SessionData> {
      if (!session.projects.some((p) => p.id === projectId)) {
        throw badRequest('unknown_project', 'You are not a member of that project.');
      }
      const token = await keystone.rescope(session.token, projectId);
      const next = await build(token, session.domain, session.id, session.csrfToken);
      await store.set(next);
      await keystone.revoke(session.token).catch(() => undefined);
      return next;
    },

    async logout(session: SessionData): Promise<void> {
      await end(session);
    },
  };
}

export function sessionView(s: SessionData): Session {
  return {
    user: s.user,
    project: s.project,
    projects: s.projects,
    roles: s.roles,
    isAdmin: s.isAdmin,
    csrfToken: s.csrfToken,
    expiresAt: s.tokenExpiresAt,
    capabilities: s.capabilities,
  };
}
