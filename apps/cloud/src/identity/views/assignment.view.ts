import type { AssignmentRow } from '../store/assignments.store.js';
import { v3Url } from './links.view.js';

/** One entry of GET /v3/role_assignments; `include_names` adds names and domains. */
export function roleAssignmentView(a: AssignmentRow, base: string, includeNames: boolean) {
  const project = includeNames
    ? { id: a.projectId, name: a.projectName, domain: { id: a.projectDomainId, name: a.projectDomainName } }
    : { id: a.projectId };
  return {
    links: { assignment: v3Url(base, `projects/${a.projectId}/users/${a.userId}/roles/${a.roleId}`) },
    role: includeNames ? { id: a.roleId, name: a.roleName } : { id: a.roleId },
    scope: { project },
    user: includeNames
      ? { id: a.userId, name: a.userName, domain: { id: a.userDomainId, name: a.userDomainName } }
      : { id: a.userId },
  };
}
