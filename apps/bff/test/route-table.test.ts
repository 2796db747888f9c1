import { type ApiErrorCode, apiErrorSchema } from '@sv/shared';
import express, { type Express } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError, errorHandler } from '../src/platform/errors.js';
import { createLogger } from '../src/platform/logger.js';
import { type ApiRoute, rawRoute, registerRoutes, route } from '../src/platform/route-table.js';
import type { SessionData } from '../src/platform/session-store.js';
import { jsonBodies } from '../src/platform/validate.js';

/**
 * The route table's registration on its own, without a cloud: what a handler gets, what is sent
 * back, and what is refused. A fake session stands in for loadSession when the header says so.
 */

const fakeSession = { id: 's1', project: { id: 'p1', name: 'demo' } } as unknown as SessionData;

function appWith(routes: ApiRoute[]): Express {
  const app = express();
  app.use(...jsonBodies('16kb'));
  app.use((req, _res, next) => {
    if (req.get('X-Test-Session')) req.session = fakeSession;
    next();
  });
  registerRoutes(app, routes);
  app.use(errorHandler(createLogger('silent')));
  return app;
}

const echo = route({
  method: 'post',
  path: '/api/things/:id/parts/:partId',
  summary: 'Echo',
  tag: 'test',
  query: z.object({ n: z.coerce.number().int() }),
  body: z.object({ name: z.string().min(1), tags: z.array(z.string()).default([]) }),
  response: {
    status: 201,
    schema: z.object({
      id: z.string(),
      partId: z.string(),
      n: z.number(),
      tags: z.array(z.string()),
      project: z.string(),
    }),
  },
  handler: ({ params, query, body, session }) => ({
    id: params.id,
    partId: params.partId,
    n: query.n,
    tags: body.tags,
    project: session.project.id,
  }),
});

describe('registerRoutes', () => {
  it('hands the handler parsed, typed params, query, body and session, and sends its answer with the declared status', async () => {
    const res = await request(appWith([echo]))
      .post('/api/things/t1/parts/p%2F2?n=7')
      .set('X-Test-Session', '1')
      .send({ name: 'x' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: 't1', partId: 'p/2', n: 7, tags: [], project: 'p1' });
  });

  it('refuses a signed-out caller before reading the input', async () => {
    const res = await request(appWith([echo]))
      .post('/api/things/t1/parts/p2?n=oops')
      .send({});
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('not_authenticated');
  });

  it('answers 400 naming each field when the query or body does not parse', async () => {
    const app = appWith([echo]);
    const badQuery = await request(app)
      .post('/api/things/t/parts/p?n=x')
      .set('X-Test-Session', '1')
      .send({ name: 'x' });
    expect(badQuery.status).toBe(400);
    expect(badQuery.body.error).toMatchObject({
      code: 'invalid_request',
      details: { fields: { n: expect.any(String) } },
    });
    const badBody = await request(app)
      .post('/api/things/t/parts/p?n=1')
      .set('X-Test-Session', '1')
      .send({ name: '' });
    expect(badBody.status).toBe(400);
    expect(badBody.body.error.details.fields).toHaveProperty('name');
  });

  it('refuses to send an answer its schema does not describe', async () => {
    const broken = route({
      method: 'get',
      path: '/api/broken',
      summary: 'Broken',
      tag: 'test',
      session: 'optional',
      response: { schema: z.object({ count: z.number() }) },
      handler: () => ({ count: 'three' }) as unknown as { count: number },
    });
    const res = await request(appWith([broken])).get('/api/broken');
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('contract_violation');
  });

  it('ends a route without a response schema with its status and no body', async () => {
    let ran = false;
    const gone = route({
      method: 'delete',
      path: '/api/gone',
      summary: 'Gone',
      tag: 'test',
      response: { status: 204 },
      handler: () => {
        ran = true;
      },
    });
    const res = await request(appWith([gone]))
      .delete('/api/gone')
      .set('X-Test-Session', '1');
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(ran).toBe(true);
  });

  it('lets a raw route write its own answer, after the session check', async () => {
    const raw = rawRoute({
      method: 'get',
      path: '/api/raw/:id',
      summary: 'Raw',
      tag: 'test',
      responses: { 200: { description: 'Text', contentType: 'text/plain' } },
      handler: ({ params, res }) => {
        res.type('text/plain').send(`raw ${params.id}`);
      },
    });
    const app = appWith([raw]);
    expect((await request(app).get('/api/raw/1')).status).toBe(401);
    const res = await request(app).get('/api/raw/1').set('X-Test-Session', '1');
    expect(res.text).toBe('raw 1');
  });

  it('refuses a table that declares one method and path twice', () => {
    expect(() => registerRoutes(express.Router(), [echo, echo])).toThrow(
      /declared twice: POST \/api\/things/,
    );
  });
});

describe('the error contract', () => {
  it('sends an error code the shared contract lists', async () => {
    const app = appWith([
      route({
        method: 'get',
        path: '/api/busy',
        summary: 'Busy',
        tag: 'test',
        session: 'optional',
        response: { schema: z.object({}) },
        handler: () => {
          throw new ApiError(503, 'volume_busy', 'Busy.');
        },
      }),
    ]);
    const res = await request(app).get('/api/busy');
    expect(res.status).toBe(503);
    expect(apiErrorSchema.parse(res.body).error.code).toBe('volume_busy');
  });

  it('turns a code the contract does not list into a 500 contract_violation, never sending it', async () => {
    const app = appWith([
      route({
        method: 'get',
        path: '/api/invented',
        summary: 'Invented',
        tag: 'test',
        session: 'optional',
        response: { schema: z.object({}) },
        handler: () => {
          throw new ApiError(409, 'volume_in_use' as ApiErrorCode, 'In use.');
        },
      }),
    ]);
    const res = await request(app).get('/api/invented');
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('contract_violation');
    expect(res.text).not.toContain('In use.');
  });
});
