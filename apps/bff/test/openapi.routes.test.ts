import { apiPaths } from '@sv/shared';
import type { Express } from 'express';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBffApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/platform/logger.js';
import { MemorySessionStore } from '../src/platform/session-store.js';
import { documentedRoutes } from './helpers/documented-routes.js';

// The document needs no cloud: it is generated from the route table and the shared schemas.
let app: Express;
// biome-ignore lint/suspicious/noExplicitAny: the test reads the document freely
let doc: any;

beforeAll(async () => {
  app = createBffApp({
    config: { ...loadConfig({}), databaseFile: ':memory:', logLevel: 'silent', webDist: '/nonexistent' },
    logger: createLogger('silent'),
    sessions: new MemorySessionStore(),
  });
  const res = await request(app).get('/api/openapi.json');
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  doc = JSON.parse(res.text);
});

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** The routes Express actually serves, as `METHOD /path`. */
function servedRoutes(stack: Layer[], out = new Set<string>()): Set<string> {
  for (const layer of stack) {
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      for (const p of paths) {
        for (const [m, on] of Object.entries(layer.route.methods)) {
          if (on && m !== '_all' && p.startsWith('/api/')) out.add(`${m.toUpperCase()} ${p}`);
        }
      }
    } else if (layer.handle?.stack) servedRoutes(layer.handle.stack, out);
  }
  return out;
}

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document with the session cookie and CSRF header as security schemes', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBeTruthy();
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['csrf', 'session']);
  });

  it('lists every route the BFF serves, and only those', () => {
    const served = servedRoutes((app as unknown as { router: { stack: Layer[] } }).router.stack);
    const documented = new Set(documentedRoutes(doc).map((r) => r.key));
    expect(
      [...served].filter((r) => !documented.has(r)),
      'served but not documented',
    ).toEqual([]);
    expect(
      [...documented].filter((r) => !served.has(r)),
      'documented but not served',
    ).toEqual([]);
    expect(documented.size).toBeGreaterThan(25);
  });

  it('documents who may call: health and sign-in need no session, every other route does', () => {
    const open = documentedRoutes(doc)
      .filter((r) => !r.session)
      .map((r) => r.key)
      .sort();
    expect(open).toEqual(['GET /api/health', 'GET /api/openapi.json', 'POST /api/session']);
    expect(doc.paths['/api/volumes'].get.security).toEqual([{ session: [] }]);
  });

  it("serves every path the web app's apiPaths can build", () => {
    const patterns = documentedRoutes(doc).map(
      (r) => new RegExp(`^${r.path.replace(/:[A-Za-z0-9_]+/g, '[^/]+').replace(/\./g, '\\.')}$`),
    );
    const built = Object.entries(apiPaths).map(([name, p]) => [
      name,
      (typeof p === 'function' ? (p as (...ids: string[]) => string)('id-1', 'id-2') : p).split('?')[0]!,
    ]);
    expect(built.length).toBeGreaterThan(20);
    for (const [name, path] of built) {
      expect(
        patterns.some((re) => re.test(path!)),
        `apiPaths.${name} (${path}) is no route of the table`,
      ).toBe(true);
    }
  });

  it('lists the error codes of the shared contract', () => {
    const code = doc.components.schemas.ApiError.properties.error.properties.code;
    expect(code.enum).toEqual(
      expect.arrayContaining(['not_found', 'volume_busy', 'multiple_writers_unacknowledged']),
    );
  });

  it('describes requests and responses with the shared schemas', () => {
    const launch = doc.paths['/api/launches'].post;
    expect(launch.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/LaunchRequestInput',
    });
    expect(launch.responses['202'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Launch',
    });
    expect(launch.security).toEqual([{ session: [], csrf: [] }]);
    const input = doc.components.schemas.LaunchRequestInput;
    expect(input.required).toEqual(expect.arrayContaining(['name', 'count', 'flavorId', 'boot']));
    expect(input.required).not.toContain('dataVolumes');
    expect(doc.components.schemas.LaunchRequest.required).toContain('dataVolumes');
    expect(doc.paths['/api/volumes/{id}'].get.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
    ]);
    const preflight = doc.paths['/api/preflight/attach'].get.parameters.map((p: { name: string }) => p.name);
    expect(preflight).toEqual(['volumeId', 'serverId']);
    expect(doc.paths['/api/session'].post.security).toEqual([]);
  });

  it('has every $ref resolve and unique operation ids', () => {
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const ref of new Set(refs)) {
      const name = ref.slice('"$ref":"#/components/schemas/'.length, -1);
      expect(doc.components.schemas[name], ref).toBeDefined();
    }
    const ids = Object.values(doc.paths).flatMap((ops) =>
      Object.values(ops as Record<string, { operationId: string }>).map((o) => o.operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });
});
