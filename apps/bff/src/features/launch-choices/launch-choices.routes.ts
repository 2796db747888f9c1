import {
  apiErrorSchema,
  createdKeyPairSchema,
  createKeyPairRequestSchema,
  keyPairListSchema,
  networkChoicesSchema,
  quotaUsageListSchema,
  securityGroupChoicesSchema,
} from '@sv/shared';
import { type ApiRoute, route } from '../../platform/route-table.js';
import { launchChoicesService } from './launch-choices.service.js';

/** Networks, security groups, key pairs and quota use: what the launch wizard picks from and weighs. */
export function launchChoicesRoutes(): ApiRoute[] {
  const choices = launchChoicesService();
  return [
    route({
      method: 'get',
      path: '/api/networks',
      summary: 'Networks a server of the project may join (its own, shared and external), with their subnets',
      tag: 'launch choices',
      response: { schema: networkChoicesSchema },
      handler: ({ session }) => choices.networks(session),
    }),
    route({
      method: 'get',
      path: '/api/security-groups',
      summary: "The project's security groups",
      tag: 'launch choices',
      response: { schema: securityGroupChoicesSchema },
      handler: ({ session }) => choices.securityGroups(session),
    }),
    route({
      method: 'get',
      path: '/api/key-pairs',
      summary: "The user's key pairs",
      tag: 'launch choices',
      response: { schema: keyPairListSchema },
      handler: async ({ session }) => ({ keyPairs: await choices.keyPairs(session) }),
    }),
    route({
      method: 'post',
      path: '/api/key-pairs',
      summary: 'Import a public key, or create a new key pair whose private key is returned once',
      tag: 'launch choices',
      body: createKeyPairRequestSchema,
      response: { status: 201, schema: createdKeyPairSchema, description: 'Created' },
      responses: {
        409: { description: 'A key pair of that name exists (the cloud says so)', schema: apiErrorSchema },
      },
      handler: ({ session, body, res }) => {
        // The private key is for this answer only: no cache or proxy may keep it.
        res.setHeader('Cache-Control', 'no-store');
        return choices.createKeyPair(session, body.name, body.publicKey);
      },
    }),
    route({
      method: 'delete',
      path: '/api/key-pairs/:name',
      summary: 'Delete a key pair',
      tag: 'launch choices',
      response: { status: 204 },
      handler: ({ session, params }) => choices.deleteKeyPair(session, params.name),
    }),
    route({
      method: 'get',
      path: '/api/quotas',
      summary: "The project's use and limits of instances, vCPUs, RAM, volumes and volume storage",
      tag: 'launch choices',
      response: { schema: quotaUsageListSchema },
      handler: ({ session }) => choices.quotas(session),
    }),
  ];
}
