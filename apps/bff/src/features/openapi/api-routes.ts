import {
  acceptedSchema,
  apiErrorSchema,
  attachmentSchema,
  attachVolumeRequestSchema,
  availabilityZoneListSchema,
  capabilitiesSchema,
  changeEventSchema,
  createVolumeRequestSchema,
  flavorListSchema,
  healthSchema,
  hostListSchema,
  imageListSchema,
  launchListSchema,
  launchPlanSchema,
  launchRequestSchema,
  launchSchema,
  listScopeQuerySchema,
  loginRequestSchema,
  preflightQuerySchema,
  preflightSchema,
  serverListSchema,
  serverSchema,
  sessionSchema,
  switchProjectRequestSchema,
  topologyQuerySchema,
  topologySchema,
  volumeListSchema,
  volumeSchema,
  volumeTypeListSchema,
} from '@sv/shared';
import type { z } from 'zod';

/**
 * Every /api route, documented from the shared schemas; GET /api/openapi.json is built from
 * this list. Adding a route? Add it here too: a test fails while the app has a route the list
 * lacks (or the other way round).
 */

export interface ApiResponse {
  description: string;
  schema?: z.ZodType;
  /** application/json unless said otherwise. */
  contentType?: string;
}

export interface ApiRoute {
  method: 'get' | 'post' | 'put' | 'delete';
  /** Express syntax: /api/volumes/:id */
  path: string;
  summary: string;
  tag: string;
  /** Needs a signed-in session (and, for mutations, the CSRF header). Default true. */
  session?: boolean;
  query?: z.ZodType;
  body?: z.ZodType;
  responses: Record<number, ApiResponse>;
}

/** Names of the schemas shown under components.schemas (others are inlined). */
export const namedSchemas: [string, z.ZodType][] = [
  ['ApiError', apiErrorSchema],
  ['LoginRequest', loginRequestSchema],
  ['SwitchProjectRequest', switchProjectRequestSchema],
  ['Session', sessionSchema],
  ['Capabilities', capabilitiesSchema],
  ['Attachment', attachmentSchema],
  ['Volume', volumeSchema],
  ['VolumeList', volumeListSchema],
  ['CreateVolumeRequest', createVolumeRequestSchema],
  ['VolumeTypeList', volumeTypeListSchema],
  ['Server', serverSchema],
  ['ServerList', serverListSchema],
  ['AttachVolumeRequest', attachVolumeRequestSchema],
  ['Accepted', acceptedSchema],
  ['FlavorList', flavorListSchema],
  ['ImageList', imageListSchema],
  ['AvailabilityZoneList', availabilityZoneListSchema],
  ['HostList', hostListSchema],
  ['Preflight', preflightSchema],
  ['LaunchRequest', launchRequestSchema],
  ['LaunchPlan', launchPlanSchema],
  ['Launch', launchSchema],
  ['LaunchList', launchListSchema],
  ['Topology', topologySchema],
  ['ChangeEvent', changeEventSchema],
];

const ok = (schema: z.ZodType, description = 'OK'): ApiResponse => ({ description, schema });
const accepted = ok(acceptedSchema, 'Accepted: the cloud finishes it in the background');
const noContent: ApiResponse = { description: 'Done; no body' };

export const apiRoutes: ApiRoute[] = [
  {
    method: 'get',
    path: '/api/health',
    summary: 'Whether the BFF reaches the cloud and its database (for a load balancer)',
    tag: 'platform',
    session: false,
    responses: {
      200: ok(healthSchema, 'Every part answers'),
      503: { description: 'A part does not answer (named in checks)', schema: healthSchema },
    },
  },
  {
    method: 'get',
    path: '/api/openapi.json',
    summary: 'This document',
    tag: 'platform',
    session: false,
    responses: { 200: { description: 'An OpenAPI 3.1 document' } },
  },
  {
    method: 'post',
    path: '/api/session',
    summary: 'Sign in with Keystone; sets the session cookie',
    tag: 'session',
    session: false,
    body: loginRequestSchema,
    responses: {
      201: ok(sessionSchema, 'Signed in'),
      401: ok(apiErrorSchema, 'Wrong user name, password or project'),
      429: ok(apiErrorSchema, 'Too many attempts'),
    },
  },
  {
    method: 'get',
    path: '/api/session',
    summary: 'The signed-in user, project and capabilities',
    tag: 'session',
    responses: { 200: ok(sessionSchema) },
  },
  {
    method: 'delete',
    path: '/api/session',
    summary: 'Sign out (revokes the token)',
    tag: 'session',
    responses: { 204: noContent },
  },
  {
    method: 'put',
    path: '/api/session/project',
    summary: 'Switch to another project',
    tag: 'session',
    body: switchProjectRequestSchema,
    responses: { 200: ok(sessionSchema) },
  },
  {
    method: 'get',
    path: '/api/capabilities',
    summary: "What this cloud can do, and why not when it can't",
    tag: 'session',
    responses: { 200: ok(capabilitiesSchema) },
  },
  {
    method: 'get',
    path: '/api/volumes',
    summary: 'Volumes with their attachments',
    tag: 'volumes',
    query: listScopeQuerySchema,
    responses: { 200: ok(volumeListSchema) },
  },
  {
    method: 'post',
    path: '/api/volumes',
    summary: 'Create a volume',
    tag: 'volumes',
    body: createVolumeRequestSchema,
    responses: { 201: ok(volumeSchema, 'Created') },
  },
  {
    method: 'get',
    path: '/api/volumes/:id',
    summary: 'One volume',
    tag: 'volumes',
    responses: { 200: ok(volumeSchema) },
  },
  {
    method: 'delete',
    path: '/api/volumes/:id',
    summary: 'Delete a volume',
    tag: 'volumes',
    responses: { 202: accepted },
  },
  {
    method: 'get',
    path: '/api/volume-types',
    summary: 'Volume types (shared or not)',
    tag: 'catalog',
    responses: { 200: ok(volumeTypeListSchema) },
  },
  {
    method: 'get',
    path: '/api/servers',
    summary: 'Servers with their attachments',
    tag: 'servers',
    query: listScopeQuerySchema,
    responses: { 200: ok(serverListSchema) },
  },
  {
    method: 'get',
    path: '/api/servers/:id',
    summary: 'One server',
    tag: 'servers',
    responses: { 200: ok(serverSchema) },
  },
  {
    method: 'delete',
    path: '/api/servers/:id',
    summary: 'Delete a server',
    tag: 'servers',
    responses: { 202: accepted },
  },
  {
    method: 'post',
    path: '/api/servers/:id/attachments',
    summary: 'Attach a volume, read-write or read-only',
    tag: 'attachments',
    body: attachVolumeRequestSchema,
    responses: { 201: ok(attachmentSchema, 'Attaching') },
  },
  {
    method: 'delete',
    path: '/api/servers/:id/attachments/:volumeId',
    summary: 'Detach a volume',
    tag: 'attachments',
    responses: { 202: accepted },
  },
  {
    method: 'get',
    path: '/api/flavors',
    summary: 'Flavors',
    tag: 'catalog',
    responses: { 200: ok(flavorListSchema) },
  },
  {
    method: 'get',
    path: '/api/images',
    summary: 'Images',
    tag: 'catalog',
    responses: { 200: ok(imageListSchema) },
  },
  {
    method: 'get',
    path: '/api/availability-zones',
    summary: 'Compute availability zones',
    tag: 'catalog',
    responses: { 200: ok(availabilityZoneListSchema) },
  },
  {
    method: 'get',
    path: '/api/hosts',
    summary: 'Compute hosts and what they can attach (admin)',
    tag: 'hosts',
    responses: { 200: ok(hostListSchema) },
  },
  {
    method: 'get',
    path: '/api/preflight/attach',
    summary: 'Which servers (or volumes) an attach can work with, and why not',
    tag: 'attachments',
    query: preflightQuerySchema,
    responses: { 200: ok(preflightSchema) },
  },
  {
    method: 'post',
    path: '/api/launches/plan',
    summary: 'What a launch would do and what stands in its way; creates nothing',
    tag: 'launches',
    body: launchRequestSchema,
    responses: { 200: ok(launchPlanSchema) },
  },
  {
    method: 'post',
    path: '/api/launches',
    summary: 'Launch N servers on shared volumes; follow it at Location',
    tag: 'launches',
    body: launchRequestSchema,
    responses: {
      202: ok(launchSchema, 'Started'),
      400: ok(
        apiErrorSchema,
        'Invalid request, or problems found up front (details.fields, details.problems)',
      ),
    },
  },
  {
    method: 'get',
    path: '/api/launches',
    summary: "The project's recent launches, newest first",
    tag: 'launches',
    responses: { 200: ok(launchListSchema) },
  },
  {
    method: 'get',
    path: '/api/launches/:id',
    summary: "A launch's progress, per server",
    tag: 'launches',
    responses: { 200: ok(launchSchema) },
  },
  {
    method: 'get',
    path: '/api/topology',
    summary: 'Hosts, servers and volumes with their rw/ro edges and risks',
    tag: 'topology',
    query: topologyQuerySchema,
    responses: { 200: ok(topologySchema) },
  },
  {
    method: 'get',
    path: '/api/events',
    summary: 'Server-Sent Events: `event: change`, a ChangeEvent as data',
    tag: 'events',
    responses: {
      200: { description: 'An event stream', schema: changeEventSchema, contentType: 'text/event-stream' },
    },
  },
];
