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
  hostListSchema,
  imageListSchema,
  launchListSchema,
  launchPlanSchema,
  launchRequestSchema,
  launchSchema,
  loginRequestSchema,
  preflightSchema,
  serverListSchema,
  serverSchema,
  sessionSchema,
  switchProjectRequestSchema,
  topologySchema,
  volumeListSchema,
  volumeSchema,
  volumeTypeListSchema,
} from '@sv/shared';
import { z } from 'zod';
import type { ApiRoute, ResponseDoc } from '../../platform/route-table.js';

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

type Json = Record<string, unknown>;
type Io = 'input' | 'output';

const REF = '#/components/schemas/';
// Effects (transforms, refinements) have no JSON Schema; they show as what they accept.
const OPTIONS = { unrepresentable: 'any', target: 'draft-2020-12' } as const;

function clean(schema: Json): Json {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}

/**
 * components.schemas from the named shared schemas. A schema whose request form differs from
 * its response form (defaults, coercion) gets a second component, `<Name>Input`; the input
 * forms refer to each other's input names.
 */
function components(named: [string, z.ZodType][]) {
  const generate = (io: Io, rename: (id: string) => string): Record<string, Json> => {
    const registry = z.registry<{ id: string }>();
    for (const [id, schema] of named) registry.add(schema, { id });
    const out = z.toJSONSchema(registry, { ...OPTIONS, io, uri: (id) => REF + rename(id) });
    return out.schemas as Record<string, Json>;
  };
  const outputs = generate('output', (id) => id);
  const differs = new Set<string>();
  // Renaming one input component can change the ones referring to it: repeat until stable.
  for (;;) {
    const inputs = generate('input', (id) => (differs.has(id) ? `${id}Input` : id));
    const before = differs.size;
    for (const [id] of named) {
      if (JSON.stringify(clean(inputs[id] ?? {})) !== JSON.stringify(clean(outputs[id] ?? {})))
        differs.add(id);
    }
    if (differs.size === before) {
      const schemas: Record<string, Json> = {};
      for (const [id] of named) {
        schemas[id] = clean(outputs[id] ?? {});
        if (differs.has(id)) schemas[`${id}Input`] = clean(inputs[id] ?? {});
      }
      return { schemas, inputName: (id: string) => (differs.has(id) ? `${id}Input` : id) };
    }
  }
}

/** Express `:id` → OpenAPI `{id}`. */
const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** The properties of an object schema as OpenAPI parameters `in` the path or the query. */
function parametersOf(schema: z.ZodType, where: 'path' | 'query'): Json[] {
  const json = z.toJSONSchema(schema, { ...OPTIONS, io: 'input' }) as {
    properties?: Record<string, Json>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (json.required?.includes(name) ?? false),
    schema: s,
  }));
}

/** The OpenAPI 3.1 document of the route table. */
export function buildOpenApi(routes: readonly ApiRoute[], named = namedSchemas): Json {
  const { schemas, inputName } = components(named);
  const nameOf = new Map(named.map(([id, schema]) => [schema, id]));
  const schemaFor = (schema: z.ZodType, io: Io): Json => {
    const id = nameOf.get(schema);
    if (id) return { $ref: REF + (io === 'input' ? inputName(id) : id) };
    return clean(z.toJSONSchema(schema, { ...OPTIONS, io }) as Json);
  };

  const paths: Record<string, Record<string, Json>> = {};
  for (const r of routes) {
    const parameters: Json[] = r.params
      ? parametersOf(r.params, 'path')
      : [...r.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => ({
          name: m[1],
          in: 'path',
          required: true,
          schema: { type: 'string' },
        }));
    if (r.query) parameters.push(...parametersOf(r.query, 'query'));
    const withSession = r.session === 'required';
    const mutation = r.method !== 'get';
    const answers: Record<number, ResponseDoc> = {
      ...(r.response
        ? {
            [r.response.status]: {
              description: r.response.description,
              ...(r.response.schema ? { schema: r.response.schema } : {}),
            },
          }
        : {}),
      ...r.responses,
    };
    const responses: Record<string, Json> = {};
    for (const [status, res] of Object.entries(answers)) {
      responses[status] = {
        description: res.description,
        ...(res.schema || res.contentType
          ? {
              content: {
                [res.contentType ?? 'application/json']: res.schema
                  ? { schema: schemaFor(res.schema, 'output') }
                  : {},
              },
            }
          : {}),
      };
    }
    const error = { content: { 'application/json': { schema: { $ref: `${REF}ApiError` } } } };
    responses['4XX'] ??= { description: 'A client error: { error: { code, message, details } }', ...error };
    responses['5XX'] ??= { description: 'The BFF or the cloud failed', ...error };
    const operation: Json = {
      operationId: `${r.method}${openApiPath(r.path)
        .replace(/^\/api/, '')
        .replace(/[{}]/g, '')
        .split(/[/.-]/)
        .filter(Boolean)
        .map((p) => p[0]!.toUpperCase() + p.slice(1))
        .join('')}`,
      summary: r.summary,
      tags: [r.tag],
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(r.body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: schemaFor(r.body, 'input') } },
            },
          }
        : {}),
      responses,
      security: withSession ? [mutation ? { session: [], csrf: [] } : { session: [] }] : [],
    };
    const path = openApiPath(r.path);
    paths[path] = { ...paths[path], [r.method]: operation };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Shared volumes dashboard API',
      version: '1',
      description:
        'The API the dashboard web app uses (the BFF). It signs users in with Keystone, keeps their token server-side, and speaks to Nova and Cinder on their behalf. Errors are always `{ error: { code, message, details? } }`.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'sv_session' },
        csrf: { type: 'apiKey', in: 'header', name: 'X-CSRF-Token' },
      },
    },
  };
}
