import type { Capabilities, LoginRequest, Session } from '@sv/shared';
import type { BffConfig } from '../../config.js';
import { capabilitiesFor, discoveryCache } from '../../openstack/discovery.js';
import { OpenStackFault } from '../../openstack/fault.js';
import { endpointFor, type KeystoneClient, type KeystoneToken } from '../../openstack/keystone-client.js';
import { ApiError, badRequest } from '../../platform/errors.js';
import { newCsrfToken, newSessionId } from '../../platform/session.js';
import type { SessionData, SessionStore } from '../../platform/session-store.js';

export const WRONG_CREDENTIALS = 'The user name, password or project is not right.';

/** Logging in, switching project and logging out, with capability discovery at each scope. */
export function authService(config: BffConfig, keystone: KeystoneClient, store: SessionStore) {
  const discoveries = discoveryCache(config.discoveryCacheMs);

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
    const audience = token.roles.includes('admin') ? 'admin' : 'member';
    const d = await discoveries.get(compute, volume, token.token, audience);
    return {
      endpoints: {
        compute,
        volume,
        image: endpointFor(token.catalog, ['image']),
        network: endpointFor(token.catalog, ['network']),
        placement: endpointFor(token.catalog, ['placement']),
      },
      capabilities: capabilitiesFor(
        d.compute,
        d.volume,
        d.topologyExtension,
        config.launchStrategy === 'serial',
      ),
    };
  }

  /**
   * The session for a scoped token: discovery (kept per cloud) and the user's projects (for the
   * project switcher; `knownProjects` when this sign-in or session listed them already) at once.
   */
  async function build(
    token: KeystoneToken,
    domain: string,
    knownProjects: { id: string; name: string }[] | null,
    id?: string,
    csrf?: string,
  ): Promise<SessionData> {
    if (!token.project) throw badRequest('no_project', 'This user has no project to work in.');
    const [{ endpoints, capabilities }, projects] = await Promise.all([
      discover(token),
      knownProjects ?? keystone.projects(token.token),
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
      let projects: { id: string; name: string }[] | null = null;
      try {
        if (input.project) {
          token = await keystone.passwordAuth({ ...input, project: { name: input.project } });
        } else {
          // No project named: Keystone scopes the token to the user's default project when one is
          // set. Otherwise take the user's first project, as Horizon does: the list needs a token
          // and a project token needs the project, so three calls one after another is the least
          // Keystone allows; the list is kept for the session's project switcher.
          const first = await keystone.passwordAuth({ ...input, project: null });
          if (first.project) {
            token = first;
          } else {
            try {
              projects = await keystone.projects(first.token);
              const pick = projects[0];
              if (!pick) throw badRequest('no_project', 'This user has no project to work in.');
              // With the token, not the password again: a password costs Keystone a hash.
              token = await keystone.rescope(first.token, pick.id);
            } finally {
              // The unscoped token has done its job; nothing waits on its end (a failure to
              // revoke it was never fatal either: it expires on its own).
              void keystone.revoke(first.token).catch(() => undefined);
            }
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
        session = await build(token, input.domain, projects);
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
      // The same user's projects: the session's list stands.
      const next = await build(token, session.domain, session.projects, session.id, session.csrfToken);
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
