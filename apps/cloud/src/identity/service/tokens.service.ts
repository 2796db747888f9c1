import { createHash, randomBytes } from 'node:crypto';
import type { Store } from '../../platform/db/store.js';
import type { AuthContext } from '../../platform/http/context.js';
import {
  authMethodNotSupported,
  expectingToFind,
  notFound,
  unauthorized,
  validationMessage,
} from '../errors.js';
import { verifyPassword } from '../password.js';
import { expandImpliedRoles } from '../roles.js';
import { type AuthRequest, type Ref, tokenIssueSchema } from '../schemas/tokens.schemas.js';
import { validated } from '../schemas/validation.js';
import { assignmentsStore } from '../store/assignments.store.js';
import type { Db } from '../store/db.js';
import { domainsStore } from '../store/domains.store.js';
import { type ProjectRow, projectsStore } from '../store/projects.store.js';
import { rolesStore } from '../store/roles.store.js';
import { type TokenRow, tokensStore } from '../store/tokens.store.js';
import { type UserRow, usersStore } from '../store/users.store.js';

export { AUTH_FAILED } from '../errors.js';

/** What a token carries besides its caller: how it was obtained and when. */
export interface TokenInfo {
  auth: AuthContext;
  methods: string[];
  auditIds: string[];
  issuedAt: string;
}

export interface IssuedToken extends TokenInfo {
  token: string;
}

/** The methods this cloud implements; Keystone's other defaults fail as a failed login would. */
const IMPLEMENTED_METHODS = ['password', 'token'];
const KEYSTONE_DEFAULT_METHODS = [
  'external',
  'password',
  'token',
  'oauth1',
  'mapped',
  'application_credential',
];

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** keystone.auth.schema.validate_issue_token_auth: the checks the JSON schema cannot express. */
function checkRefs(auth: AuthRequest): void {
  const needIdOrName = (ref: Ref | undefined, field: string) => {
    if (ref !== undefined && !('id' in ref) && !('name' in ref)) {
      throw validationMessage(`Invalid input for field ${field}: id or name must be present.`);
    }
  };
  const user = auth.identity.password?.user;
  needIdOrName(user, 'identity/password/user');
  needIdOrName(user?.domain, 'identity/password/user/domain');
  if (isObject(auth.scope)) {
    needIdOrName(auth.scope.project, 'scope/project');
    needIdOrName(auth.scope.project?.domain, 'scope/project/domain');
    needIdOrName(auth.scope.domain, 'scope/domain');
  }
}

export function createTokenService(store: Store, ttlSeconds: number) {
  const db = store.db;

  /** An enabled domain by id or name; any miss is the generic 401. */
  async function lookupDomain(ref: { id?: string; name?: string }) {
    const domain =
      ref.id !== undefined
        ? await domainsStore.byId(db, ref.id)
        : await domainsStore.byName(db, ref.name ?? '');
    if (!domain?.enabled) throw unauthorized();
    return domain;
  }

  async function lookupProject(ref: Ref): Promise<ProjectRow> {
    let project: ProjectRow | undefined;
    if (ref.name !== undefined) {
      if (!ref.domain) throw expectingToFind('domain', 'project');
      const domain = await lookupDomain(ref.domain);
      project = await projectsStore.byName(db, domain.id, ref.name);
    } else {
      project = await projectsStore.byId(db, ref.id ?? '');
      if (project) await lookupDomain({ id: project.domain_id });
    }
    if (!project?.enabled) throw unauthorized();
    return project;
  }

  async function passwordUser(user: (Ref & { password?: string }) | undefined): Promise<string> {
    if (!user) throw unauthorized();
    let row: Awaited<ReturnType<typeof usersStore.byId>>;
    if (user.id !== undefined) {
      row = await usersStore.byId(db, user.id);
      if (row) await lookupDomain({ id: row.domain_id });
    } else {
      if (!user.domain) throw expectingToFind('domain', 'user');
      const domain = await lookupDomain(user.domain);
      row = await usersStore.byName(db, domain.id, user.name ?? '');
    }
    if (!row?.enabled || user.password === undefined) throw unauthorized();
    if (!(await verifyPassword(user.password, row.password_hash))) throw unauthorized();
    return row.id;
  }

  /** The caller behind a token row, or null when its user, project or grants are gone or disabled. */
  async function contextFor(
    row: Pick<TokenRow, 'id' | 'user_id' | 'project_id' | 'expires_at'>,
  ): Promise<AuthContext | null> {
    const user = await usersStore.byId(db, row.user_id);
    const project = row.project_id ? await projectsStore.byId(db, row.project_id) : undefined;
    return contextOf(row, user, project);
  }

  /** `contextFor` with the token's user and project already read. */
  async function contextOf(
    row: Pick<TokenRow, 'id' | 'user_id' | 'project_id' | 'expires_at'>,
    user: Pick<UserRow, 'enabled' | 'name' | 'domain_id'> | undefined,
    project: Pick<ProjectRow, 'enabled' | 'name'> | undefined,
  ): Promise<AuthContext | null> {
    if (!user?.enabled) return null;
    let projectName: string | null = null;
    let roles: string[] = [];
    if (row.project_id) {
      if (!project?.enabled) return null;
      projectName = project.name;
      roles = expandImpliedRoles(await assignmentsStore.roleNamesOn(db, row.user_id, row.project_id));
      if (roles.length === 0) return null;
    }
    return {
      tokenId: row.id,
      userId: row.user_id,
      userName: user.name,
      domainId: user.domain_id,
      projectId: row.project_id,
      projectName,
      roles,
      isAdmin: roles.includes('admin'),
      expiresAt: row.expires_at,
    };
  }

  const usable = (row: TokenRow | undefined): row is TokenRow =>
    row !== undefined && row.revoked_at === null && row.expires_at > new Date().toISOString();

  async function issue(
    userId: string,
    projectId: string | null,
    methods: string[],
    parent: TokenRow | null,
  ): Promise<IssuedToken> {
    const token = `gAAAAAB${randomBytes(48).toString('base64url')}`;
    const issuedAt = new Date().toISOString();
    // A rescoped token keeps the expiry and the audit chain of the token it came from.
    const expiresAt = parent?.expires_at ?? new Date(Date.now() + ttlSeconds * 1000).toISOString();
    const auditIds = [
      randomBytes(16).toString('base64url').slice(0, 22),
      ...(parent ? [parent.audit_id.split(',')[0]!] : []),
    ];
    const row: TokenRow = {
      id: hashToken(token),
      user_id: userId,
      project_id: projectId,
      methods: JSON.stringify(methods),
      audit_id: auditIds.join(','),
      issued_at: issuedAt,
      expires_at: expiresAt,
      revoked_at: null,
    };
    const auth = await contextFor(row);
    if (!auth) throw unauthorized();
    await store.transaction((tx) => tokensStore.insert(tx, row));
    return { token, auth, methods, auditIds, issuedAt };
  }

  /** The user's default project, when it can be used (Keystone's `_check_and_set_default_scoping`). */
  async function defaultProject(userId: string): Promise<string | null> {
    const user = await usersStore.byId(db, userId);
    if (!user?.default_project_id) return null;
    const project = await projectsStore.byId(db, user.default_project_id);
    if (!project?.enabled) return null;
    const domain = await domainsStore.byId(db, project.domain_id);
    if (!domain?.enabled) return null;
    return (await assignmentsStore.roleNamesOn(db, userId, project.id)).length > 0 ? project.id : null;
  }

  async function subjectRow(token: string): Promise<TokenRow> {
    if (!token) throw notFound('No token in the request');
    const row = await tokensStore.byId(db, hashToken(token));
    if (!row) throw notFound('Could not recognize Fernet token');
    return row;
  }

  return {
    /** POST /v3/auth/tokens, in Keystone's order: schema, methods, scope lookup, then the methods themselves. */
    async authenticate(body: unknown): Promise<IssuedToken> {
      const b = isObject(body) ? body : {};
      const raw = 'auth' in b && b.auth !== null ? b.auth : {};
      const auth = validated(tokenIssueSchema, raw);
      checkRefs(auth);

      const methods = auth.identity.methods;
      for (const m of methods) if (!(m in auth.identity)) throw expectingToFind(m, 'identity');
      for (const m of methods) if (!KEYSTONE_DEFAULT_METHODS.includes(m)) throw authMethodNotSupported();
      if (methods.length === 0 || methods.some((m) => !IMPLEMENTED_METHODS.includes(m))) throw unauthorized();

      let project: ProjectRow | null = null;
      let explicitlyUnscoped = false;
      let ungrantable = false;
      if ('scope' in auth) {
        const scope = auth.scope ?? {};
        // Keystone tests membership with `in`, which on the string form is a substring test.
        const has = (k: string) => (typeof scope === 'string' ? scope.includes(k) : k in scope);
        const kinds = ['project', 'domain', 'unscoped', 'system', 'OS-TRUST:trust'].filter(has);
        if (kinds.length !== 1)
          throw expectingToFind('system, project, domain, OS-TRUST:trust or unscoped', 'scope');
        if (typeof scope !== 'string' && scope.project) project = await lookupProject(scope.project);
        else if (typeof scope !== 'string' && scope.domain) await lookupDomain(scope.domain);
        explicitlyUnscoped = kinds[0] === 'unscoped';
        // Domain, system and trust scopes need grants this cloud never makes: refused once the user is known.
        ungrantable = !project && !explicitlyUnscoped;
      }

      let userId: string | null = null;
      let parent: TokenRow | null = null;
      const allMethods = [...methods];
      for (const m of methods) {
        let who: string;
        if (m === 'password') {
          who = await passwordUser(auth.identity.password?.user);
        } else {
          const row = await tokensStore.byId(db, hashToken(auth.identity.token?.id ?? ''));
          if (!usable(row) || !(await contextFor(row))) throw unauthorized();
          parent = row;
          who = row.user_id;
          for (const pm of JSON.parse(row.methods) as string[])
            if (!allMethods.includes(pm)) allMethods.push(pm);
        }
        if (userId !== null && userId !== who) throw unauthorized();
        userId = who;
      }
      if (userId === null || ungrantable) throw unauthorized();

      const projectId =
        project?.id ?? (explicitlyUnscoped || 'scope' in auth ? null : await defaultProject(userId));
      if (projectId) {
        const roles = await assignmentsStore.roleNamesOn(db, userId, projectId);
        if (roles.length === 0) throw unauthorized();
      }
      return issue(userId, projectId, allMethods, parent);
    },

    /** The caller behind a token, or null if it is unknown, revoked, expired, or its grants are gone. */
    async validate(token: string): Promise<AuthContext | null> {
      const row = await tokensStore.byIdWithSubject(db, hashToken(token));
      if (!usable(row)) return null;
      const project =
        row.project_enabled === null || row.project_name === null
          ? undefined
          : { enabled: row.project_enabled, name: row.project_name };
      return contextOf(
        row,
        { enabled: row.user_enabled, name: row.user_name, domain_id: row.user_domain_id },
        project,
      );
    },

    /** GET/HEAD/DELETE /v3/auth/tokens: the subject token, or Keystone's 404s. */
    async inspect(token: string): Promise<TokenInfo> {
      const row = await subjectRow(token);
      const auth = usable(row) ? await contextFor(row) : null;
      if (!auth) throw notFound('Failed to validate token');
      return {
        auth,
        methods: JSON.parse(row.methods) as string[],
        auditIds: row.audit_id.split(','),
        issuedAt: row.issued_at,
      };
    },

    async revoke(token: string): Promise<void> {
      const id = hashToken(token);
      await store.transaction((tx) => tokensStore.revoke(tx, id, new Date().toISOString()));
    },

    /** The names and ids a token body shows. */
    async describe(info: TokenInfo) {
      const userDomain = await domainsStore.byId(db, info.auth.domainId);
      const project = info.auth.projectId ? await projectsStore.byId(db, info.auth.projectId) : undefined;
      const projectDomain = project ? await domainsStore.byId(db, project.domain_id) : undefined;
      const roleRows = await rolesStore.byNames(db, info.auth.roles);
      const roles = info.auth.roles
        .map((n) => roleRows.find((r) => r.name === n))
        .filter((r) => r !== undefined);
      return {
        ...info,
        userDomain: { id: info.auth.domainId, name: userDomain?.name ?? info.auth.domainId },
        ...(project && projectDomain
          ? {
              project: {
                id: project.id,
                name: project.name,
                domain: { id: projectDomain.id, name: projectDomain.name },
              },
            }
          : {}),
        roles,
      };
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;

/** Revocations other identity services make inside their own transactions. */
export const revokeTokens = {
  ofUser: (tx: Db, userId: string) => tokensStore.revokeForUser(tx, userId, new Date().toISOString()),
  ofProject: (tx: Db, projectId: string) =>
    tokensStore.revokeForProject(tx, projectId, new Date().toISOString()),
  ofUserOnProject: (tx: Db, userId: string, projectId: string) =>
    tokensStore.revokeForUserOnProject(tx, userId, projectId, new Date().toISOString()),
};
