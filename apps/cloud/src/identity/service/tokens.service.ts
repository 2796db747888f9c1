import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Schema } from '../../platform/db/schema.js';
import type { Store } from '../../platform/db/store.js';
import { badRequest, notFound, OpenStackError } from '../../platform/http/errors.js';
import type { AuthContext } from '../../platform/http/context.js';
import { expandImpliedRoles } from '../roles.js';
import { verifyPassword } from '../password.js';
import { identityStore as ids } from '../store/identity.store.js';

/** Keystone answers every authentication failure the same way, to leak nothing. */
export const AUTH_FAILED = 'The request you have made requires authentication.';

export const authFailed = () => new OpenStackError(401, AUTH_FAILED);

const domainRef = z.object({ id: z.string().optional(), name: z.string().optional() }).passthrough();
const authRequestSchema = z.object({
  auth: z
    .object({
      identity: z
        .object({
          methods: z.array(z.string()).min(1),
          password: z
            .object({
              user: z
                .object({
                  id: z.string().optional(),
                  name: z.string().optional(),
                  domain: domainRef.optional(),
                  password: z.string(),
                })
                .passthrough(),
            })
            .passthrough()
            .optional(),
          token: z.object({ id: z.string() }).passthrough().optional(),
        })
        .passthrough(),
      scope: z
        .union([
          z.literal('unscoped'),
          z
            .object({
              project: z
                .object({ id: z.string().optional(), name: z.string().optional(), domain: domainRef.optional() })
                .passthrough()
                .optional(),
            })
            .passthrough(),
        ])
        .optional(),
    })
    .passthrough(),
});

export interface IssuedToken {
  token: string;
  auth: AuthContext;
  methods: string[];
  auditId: string;
  issuedAt: string;
}

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Keystone's message for a schema failure: `Invalid input for field 'x': <reason>` in its ValidationError text. */
function validationError(detail: string): OpenStackError {
  return badRequest(
    `${detail}. The server could not comply with the request since it is either malformed or otherwise incorrect. The client is assumed to be in error.`,
  );
}

export function createTokenService(store: Store, ttlSeconds: number) {
  const db = store.db;

  async function resolveDomainId(db: Kysely<Schema>, ref: { id?: string; name?: string } | undefined) {
    if (!ref) return null;
    if (ref.id) return (await ids.domainById(db, ref.id))?.id ?? null;
    if (ref.name) return (await ids.domainByName(db, ref.name))?.id ?? null;
    return null;
  }

  /** Builds the caller's context from ids, or null when the user or project is gone or disabled. */
  async function contextFor(
    tokenId: string,
    userId: string,
    projectId: string | null,
    expiresAt: string,
  ): Promise<AuthContext | null> {
    const user = await ids.userById(db, userId);
    if (!user || !user.enabled) return null;
    let projectName: string | null = null;
    let roles: string[] = [];
    if (projectId) {
      const project = await ids.projectById(db, projectId);
      if (!project || !project.enabled) return null;
      projectName = project.name;
      roles = expandImpliedRoles(await ids.roleNamesOn(db, userId, projectId));
      if (roles.length === 0) return null;
    }
    return {
      tokenId,
      userId,
      userName: user.name,
      domainId: user.domain_id,
      projectId,
      projectName,
      roles,
      isAdmin: roles.includes('admin'),
      expiresAt,
    };
  }

  async function issue(userId: string, projectId: string | null, methods: string[]): Promise<IssuedToken> {
    const token = `gAAAAAB${randomBytes(48).toString('base64url')}`;
    const issued = new Date();
    const issuedAt = issued.toISOString();
    const expiresAt = new Date(issued.getTime() + ttlSeconds * 1000).toISOString();
    const auditId = randomBytes(16).toString('base64url').slice(0, 22);
    const id = hashToken(token);
    const auth = await contextFor(id, userId, projectId, expiresAt);
    if (!auth) throw authFailed();
    await ids.insertToken(db, {
      id,
      user_id: userId,
      project_id: projectId,
      methods: JSON.stringify(methods),
      audit_id: auditId,
      issued_at: issuedAt,
      expires_at: expiresAt,
      revoked_at: null,
    });
    return { token, auth, methods, auditId, issuedAt };
  }

  return {
    /** POST /v3/auth/tokens with the password or token method. */
    async authenticate(body: unknown): Promise<IssuedToken> {
      const parsed = authRequestSchema.safeParse(body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = issue?.path.filter((p) => typeof p === 'string').at(-1) ?? 'auth';
        throw validationError(`Invalid input for field '${String(field)}': ${issue?.message ?? 'invalid'}`);
      }
      const { identity, scope } = parsed.data.auth;
      let userId: string;
      const methods = identity.methods;
      if (methods.includes('password') && identity.password) {
        const u = identity.password.user;
        const user = u.id
          ? await ids.userById(db, u.id)
          : u.name
            ? await (async () => {
                const domainId = await resolveDomainId(db, u.domain);
                return domainId ? ids.userByName(db, domainId, u.name!) : undefined;
              })()
            : undefined;
        if (!user || !user.enabled || !(await verifyPassword(u.password, user.password_hash))) throw authFailed();
        userId = user.id;
      } else if (methods.includes('token') && identity.token) {
        const existing = await this.validate(identity.token.id);
        if (!existing) throw authFailed();
        userId = existing.userId;
      } else {
        throw authFailed();
      }

      let projectId: string | null = null;
      if (scope && scope !== 'unscoped' && scope.project) {
        const p = scope.project;
        const project = p.id
          ? await ids.projectById(db, p.id)
          : p.name
            ? await (async () => {
                const domainId = await resolveDomainId(db, p.domain);
                return domainId ? ids.projectByName(db, domainId, p.name!) : undefined;
              })()
            : undefined;
        if (!project || !project.enabled) throw authFailed();
        projectId = project.id;
      }
      return issue(userId, projectId, methods);
    },

    /** The caller behind a token, or null if it is unknown, revoked, expired, or its grants are gone. */
    async validate(token: string): Promise<AuthContext | null> {
      const row = await ids.tokenById(db, hashToken(token));
      if (!row || row.revoked_at || row.expires_at <= new Date().toISOString()) return null;
      return contextFor(row.id, row.user_id, row.project_id, row.expires_at);
    },

    /**
     * GET /v3/auth/tokens: like validate, but says why it failed with Keystone's messages.
     */
    async inspect(token: string): Promise<{ auth: AuthContext; methods: string[]; auditId: string; issuedAt: string }> {
      const row = await ids.tokenById(db, hashToken(token));
      if (!row) throw notFound('Could not recognize Fernet token');
      if (row.revoked_at || row.expires_at <= new Date().toISOString()) throw notFound('Failed to validate token');
      const auth = await contextFor(row.id, row.user_id, row.project_id, row.expires_at);
      if (!auth) throw notFound('Failed to validate token');
      return { auth, methods: JSON.parse(row.methods) as string[], auditId: row.audit_id, issuedAt: row.issued_at };
    },

    async revoke(token: string): Promise<void> {
      const row = await ids.tokenById(db, hashToken(token));
      if (!row) throw notFound('Could not recognize Fernet token');
      if (row.revoked_at || row.expires_at <= new Date().toISOString()) throw notFound('Failed to validate token');
      await ids.revokeToken(db, row.id, new Date().toISOString());
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
