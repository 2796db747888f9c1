import type { AuthContext } from '../../platform/http/context.js';

/** Who is calling the volume service: Cinder's RequestContext, reduced to what its rules read. */
export interface Caller {
  projectId: string;
  userId: string;
  isAdmin: boolean;
  /** The token's roles, for the project-writer rule (platform/http/policy.ts); absent for services. */
  roles?: readonly string[];
}

/** Cinder only serves project-scoped tokens; the URL's project was already checked against it. */
export function callerOf(auth: AuthContext): Caller {
  return { projectId: auth.projectId ?? '', userId: auth.userId, isAdmin: auth.isAdmin, roles: auth.roles };
}
