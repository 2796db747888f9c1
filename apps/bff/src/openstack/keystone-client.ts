import { OpenStackFault } from './fault.js';
import { callOpenStack } from './http.js';

export interface CatalogEndpoint {
  type: string;
  interface: string;
  region: string | null;
  url: string;
}

export interface KeystoneToken {
  token: string;
  expiresAt: string;
  user: { id: string; name: string };
  project: { id: string; name: string } | null;
  roles: string[];
  catalog: CatalogEndpoint[];
}

interface TokenBody {
  token: {
    expires_at: string;
    user: { id: string; name: string };
    project?: { id: string; name: string };
    roles?: { name: string }[];
    catalog?: { type: string; endpoints: { interface: string; region?: string | null; url: string }[] }[];
  };
}

function toToken(token: string, body: TokenBody): KeystoneToken {
  const t = body.token;
  return {
    token,
    expiresAt: t.expires_at,
    user: { id: t.user.id, name: t.user.name },
    project: t.project ? { id: t.project.id, name: t.project.name } : null,
    roles: (t.roles ?? []).map((r) => r.name),
    catalog: (t.catalog ?? []).flatMap((s) =>
      s.endpoints.map((e) => ({
        type: s.type,
        interface: e.interface,
        region: e.region ?? null,
        url: e.url,
      })),
    ),
  };
}

/** Keystone v3, the way any OpenStack client talks to it. */
export function keystoneClient(authUrl: string) {
  const tokensUrl = `${authUrl}/auth/tokens`;
  return {
    async passwordAuth(input: {
      username: string;
      password: string;
      domain: string;
      project?: { id?: string; name?: string } | null;
    }): Promise<KeystoneToken> {
      const scope = input.project
        ? {
            project: input.project.id
              ? { id: input.project.id }
              : { name: input.project.name, domain: { name: input.domain } },
          }
        : undefined;
      const res = await callOpenStack<TokenBody>('identity', tokensUrl, {
        method: 'POST',
        body: {
          auth: {
            identity: {
              methods: ['password'],
              password: {
                user: { name: input.username, domain: { name: input.domain }, password: input.password },
              },
            },
            ...(scope ? { scope } : {}),
          },
        },
      });
      return toToken(res.headers.get('x-subject-token') ?? '', res.body);
    },

    /** A new token for another project, from an existing one (Keystone's `token` method). */
    async rescope(token: string, projectId: string): Promise<KeystoneToken> {
      const res = await callOpenStack<TokenBody>('identity', tokensUrl, {
        method: 'POST',
        body: {
          auth: {
            identity: { methods: ['token'], token: { id: token } },
            scope: { project: { id: projectId } },
          },
        },
      });
      return toToken(res.headers.get('x-subject-token') ?? '', res.body);
    },

    async projects(token: string): Promise<{ id: string; name: string }[]> {
      const res = await callOpenStack<{ projects: { id: string; name: string; enabled?: boolean }[] }>(
        'identity',
        `${authUrl}/auth/projects`,
        { token },
      );
      return res.body.projects.filter((p) => p.enabled !== false).map((p) => ({ id: p.id, name: p.name }));
    },

    /** Resolves when Keystone answers at all (its version document, no token): the health probe. */
    async ping(timeoutMs: number): Promise<void> {
      try {
        await callOpenStack('identity', authUrl, { timeoutMs, logFailure: false });
      } catch (err) {
        // A refusal is still an answer; a 5xx or no answer is not.
        if (!(err instanceof OpenStackFault && err.status < 500)) throw err;
      }
    },

    async revoke(token: string): Promise<void> {
      await callOpenStack('identity', tokensUrl, {
        method: 'DELETE',
        token,
        headers: { 'X-Subject-Token': token },
        allow: [401, 404],
      });
    },
  };
}

export type KeystoneClient = ReturnType<typeof keystoneClient>;

/** The public endpoint of a service type, trying aliases in order (block-storage, volumev3). */
export function endpointFor(catalog: CatalogEndpoint[], types: string[]): string | null {
  for (const type of types) {
    const e = catalog.find((c) => c.type === type && c.interface === 'public');
    if (e) return e.url.replace(/\/+$/, '');
  }
  return null;
}
