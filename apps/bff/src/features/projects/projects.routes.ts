import { apiPaths, projectListSchema } from '@sv/shared';
import { projectNamesFor } from '../../openstack/project-names.js';
import { type ApiRoute, route } from '../../platform/route-table.js';

/** Project names, so that pages show names where the cloud gives ids. */
export function projectsRoutes(identity: { authUrl: string }): ApiRoute[] {
  return [
    route({
      method: 'get',
      path: apiPaths.projects,
      summary: "Project names: an admin's are every project's, a member's their own",
      tag: 'projects',
      response: { schema: projectListSchema },
      handler: async ({ session }) => ({ projects: await projectNamesFor(session, identity.authUrl) }),
    }),
  ];
}
