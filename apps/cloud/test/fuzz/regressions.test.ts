import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { Session, TestCloud } from '../helpers/cloud.js';
import { cloudTest } from '../helpers/cloud-test.js';
import type { CloudFixtures } from './cloud-fixtures.js';
import { type Built, CloudFuzzer } from './cloud-fuzzer.js';
import { headerOf, type RawRequest, sendRaw } from './raw-http.js';

/**
 * What the fuzz found, pinned as plain cases (each was a 500 before its fix), and a check that
 * the fuzz's own oracle catches what it is there to catch.
 */

let tc: TestCloud;
let admin: Session;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, admin: adminSession }) => {
  tc = cloud;
  admin = adminSession;
});

const send = (method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer) =>
  sendRaw(tc.url, {
    method,
    path,
    headers: { 'X-Auth-Token': admin.token, Accept: 'application/json', ...headers },
    ...(body !== undefined ? { body: Buffer.from(body) } : {}),
  });
const json = (text: string) => JSON.parse(text) as unknown;

const WEBOB_BAD_REQUEST =
  'The server could not comply with the request since it is either malformed or otherwise incorrect.';

describe('a path parameter that does not percent-decode (%ZZ, %E0%A4%A) is a 400, not a 500', () => {
  it('Nova and Cinder: badRequest', async () => {
    for (const path of [
      '/compute/v2.1/servers/%E0%A4%A',
      '/compute/v2.1/os-hypervisors/%FF%FE/search',
      `${admin.volumeBase}/volumes/%ZZ`,
      '/volume/v3/%ZZ/volumes',
    ]) {
      const res = await send('GET', path, {
        'OpenStack-API-Version': path.startsWith('/compute') ? 'compute 2.60' : 'volume 3.60',
      });
      expect({ path, status: res.status, body: json(res.text) }).toEqual({
        path,
        status: 400,
        body: { badRequest: { code: 400, message: WEBOB_BAD_REQUEST } },
      });
    }
  });

  it('Keystone: its error body', async () => {
    const res = await send('GET', '/identity/v3/users/%ZZ');
    expect(res.status).toBe(400);
    expect(json(res.text)).toEqual({
      error: { code: 400, message: WEBOB_BAD_REQUEST, title: 'Bad Request' },
    });
  });

  it("Glance: webob's body", async () => {
    const res = await send('GET', '/image/v2/images/%ZZ');
    expect(res.status).toBe(400);
    expect(json(res.text)).toEqual({
      message: `${WEBOB_BAD_REQUEST}<br /><br />\n\n\n`,
      code: '400 Bad Request',
      title: 'Bad Request',
    });
  });
});

describe('a body whose Content-Encoding it does not have is a 400, not a 500', () => {
  it('Keystone and Nova', async () => {
    const ks = await send(
      'PATCH',
      '/identity/v3/projects/x',
      { 'Content-Type': 'application/json', 'Content-Encoding': 'deflate' },
      '{"project": {}}',
    );
    expect(ks.status).toBe(400);
    expect(json(ks.text)).toMatchObject({ error: { code: 400, title: 'Bad Request' } });
    const nova = await send(
      'POST',
      '/compute/v2.1/servers',
      {
        'Content-Type': 'application/json',
        'Content-Encoding': 'gzip',
        'OpenStack-API-Version': 'compute 2.60',
      },
      '{}',
    );
    expect(nova.status).toBe(400);
    expect(json(nova.text)).toEqual({ badRequest: { code: 400, message: 'Malformed request body' } });
  });
});

describe('JSON nested deeper than Python would parse is malformed, not a stack overflow (500)', () => {
  const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it('Nova and Cinder: "Malformed request body"; 1000 levels are still read and validated', async () => {
    const put = (body: string) =>
      send(
        'PUT',
        '/compute/v2.1/flavors/1',
        { 'Content-Type': 'application/json', 'OpenStack-API-Version': 'compute 2.60' },
        body,
      );
    const tooDeep = await put(deep(5_000));
    expect(tooDeep.status).toBe(400);
    expect(json(tooDeep.text)).toEqual({ badRequest: { code: 400, message: 'Malformed request body' } });
    const atLimit = await put(deep(1_000));
    expect(atLimit.status).toBe(400);
    expect(atLimit.text).toContain("is not of type 'object'");

    const cinder = await send(
      'POST',
      `${admin.volumeBase}/volumes`,
      { 'Content-Type': 'application/json', 'OpenStack-API-Version': 'volume 3.60' },
      `{"volume": {"size": 1, "x": ${deep(20_000)}}}`,
    );
    expect(cinder.status).toBe(400);
    expect(json(cinder.text)).toEqual({ badRequest: { code: 400, message: 'Malformed request body' } });
  });

  it('Keystone: "Expecting to find valid JSON in request body"', async () => {
    const res = await send(
      'POST',
      '/identity/v3/auth/tokens',
      { 'Content-Type': 'application/json' },
      `{"auth": ${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}}`,
    );
    expect(res.status).toBe(400);
    expect((json(res.text) as { error: { message: string } }).error.message).toMatch(
      /^Expecting to find valid JSON in request body\./,
    );
  });
});

describe('a NUL character in an id or a name', () => {
  it('is a 400 on PostgreSQL (which cannot hold it) and the plain answer on SQLite, never a 500', async () => {
    const nova = await send('GET', '/compute/v2.1/servers/a%00b', {
      'OpenStack-API-Version': 'compute 2.60',
    });
    const keystone = await send('GET', '/identity/v3/users/a%00b');
    const create = await send(
      'POST',
      '/identity/v3/projects',
      { 'Content-Type': 'application/json' },
      JSON.stringify({ project: { name: 'nul\u0000project' } }),
    );
    if (tc.engine === 'postgres') {
      const message = 'Invalid input: text may not contain the NUL character.';
      expect(json(nova.text)).toEqual({ badRequest: { code: 400, message } });
      expect(json(keystone.text)).toEqual({ error: { code: 400, message, title: 'Bad Request' } });
      expect(create.status).toBe(400);
    } else {
      expect(nova.status).toBe(404);
      expect(keystone.status).toBe(404);
      expect(create.status).toBe(201);
    }
  });
});

describe('OPTIONS, which Nova, Cinder and Glance do not route, is their 404 (Express answered 200 with an Allow list)', () => {
  it('Nova: webob 404 without microversion headers; Cinder and Glance: their 404; Keystone still lists its methods', async () => {
    const nova = await send('OPTIONS', '/compute/v2.1/flavors/1', {
      'OpenStack-API-Version': 'compute 2.60',
    });
    expect(nova.status).toBe(404);
    expect(json(nova.text)).toEqual({
      message: 'The resource could not be found.<br /><br />\n\n\n',
      code: '404 Not Found',
      title: 'Not Found',
    });
    expect(headerOf(nova, 'openstack-api-version')).toBe('');
    const cinder = await send('OPTIONS', `${admin.volumeBase}/volumes`, {
      'OpenStack-API-Version': 'volume 3.60',
    });
    expect(cinder.status).toBe(404);
    expect(json(cinder.text)).toEqual({
      itemNotFound: { code: 404, message: 'The resource could not be found.' },
    });
    const glance = await send('OPTIONS', '/image/v2/images');
    expect(glance.status).toBe(404);
    expect(json(glance.text)).toMatchObject({ code: '404 Not Found', title: 'Not Found' });
    const keystone = await send('OPTIONS', '/identity/v3/users');
    expect(keystone.status).toBe(200);
    expect(headerOf(keystone, 'allow')).toBe('GET, HEAD, OPTIONS, POST');
  });
});

describe('names of Object.prototype members (constructor, __proto__, toString) are plain strings', () => {
  const cinder = (path: string) =>
    send('GET', `${admin.volumeBase}${path}`, { 'OpenStack-API-Version': 'volume 3.60' });

  it('as sort keys and filters: "Invalid sort key" or ignored, not a 500', async () => {
    const invalidSortKey = { badRequest: { code: 400, message: 'Invalid input received: Invalid sort key' } };
    for (const path of [
      '/volumes/detail?sort=constructor',
      '/attachments?sort=hasOwnProperty',
      '/types?sort=toString',
    ]) {
      const res = await cinder(path);
      expect({ path, status: res.status, body: json(res.text) }).toEqual({
        path,
        status: 400,
        body: invalidSortKey,
      });
    }
    expect((await cinder('/volumes/detail?hasOwnProperty=x')).status).toBe(200);
    const nova = await send('GET', '/compute/v2.1/servers/detail?sort_key=constructor', {
      'OpenStack-API-Version': 'compute 2.60',
    });
    expect(nova.status).toBe(200);
  });

  it('as volume metadata keys: the volume summary lists them', async () => {
    const created = await send(
      'POST',
      `${admin.volumeBase}/volumes`,
      { 'Content-Type': 'application/json', 'OpenStack-API-Version': 'volume 3.60' },
      '{"volume": {"size": 1, "metadata": {"constructor": "c", "__proto__": "p"}}}',
    );
    expect(created.status).toBe(202);
    await tc.settle();
    const summary = await cinder('/volumes/summary');
    expect(summary.status).toBe(200);
    expect(
      (json(summary.text) as { 'volume-summary': { metadata: unknown } })['volume-summary'].metadata,
    ).toEqual(JSON.parse('{"constructor": ["c"], "__proto__": ["p"]}'));
  });

  it('as a role name: its holder still gets a token', async () => {
    const body = (v: unknown) => JSON.stringify(v);
    const post = (path: string, v: unknown) =>
      send('POST', `/identity/v3${path}`, { 'Content-Type': 'application/json' }, body(v));
    const role = json((await post('/roles', { role: { name: 'constructor' } })).text) as {
      role: { id: string };
    };
    const user = json((await post('/users', { user: { name: 'ctor-holder', password: 'pw' } })).text) as {
      user: { id: string };
    };
    const grant = await send(
      'PUT',
      `/identity/v3/projects/${admin.projectId}/users/${user.user.id}/roles/${role.role.id}`,
    );
    expect(grant.status).toBe(204);
    const token = await sendRaw(tc.url, {
      method: 'POST',
      path: '/identity/v3/auth/tokens',
      headers: { 'Content-Type': 'application/json' },
      body: Buffer.from(
        body({
          auth: {
            identity: { methods: ['password'], password: { user: { id: user.user.id, password: 'pw' } } },
            scope: { project: { id: admin.projectId } },
          },
        }),
      ),
    });
    expect(token.status).toBe(201);
    expect(
      (json(token.text) as { token: { roles: { name: string }[] } }).token.roles.map((r) => r.name),
    ).toEqual(['constructor']);
  });
});

describe("the fuzz's oracle", () => {
  let fake: Server;
  let fuzzer: CloudFuzzer;

  // Misbehaving routes on the real cloud's database, to show each check fails when it should.
  beforeAll(async () => {
    const db = tc.cloud.deps.store.db;
    const app = express();
    app.post('/compute/v2.1/writes-then-refuses', async (_req, res) => {
      await db
        .insertInto('roles')
        .values({ id: 'oracle-role', name: 'oracle-role', description: null })
        .execute();
      res.status(400).json({ badRequest: { code: 400, message: 'no' } });
    });
    app.get('/compute/v2.1/fails', (_req, res) => {
      res.status(500).json({ computeFault: { code: 500, message: 'Unexpected API Error.' } });
    });
    app.get('/compute/v2.1/wrong-fault-name', (_req, res) => {
      res.status(404).json({ badRequest: { code: 404, message: 'x' } });
    });
    app.get('/identity/v3/nova-fault', (_req, res) => {
      res.status(404).json({ itemNotFound: { code: 404, message: 'x' } });
    });
    app.get('/compute/v2.1/shows-stack', (_req, res) => {
      res.status(404).json({
        itemNotFound: { code: 404, message: 'Error: x\n    at handler (/srv/apps/cloud/src/x.ts:1:2)' },
      });
    });
    app.post('/compute/v2.1/takes-anything', (_req, res) => {
      res.status(200).json({});
    });
    fake = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    fuzzer = new CloudFuzzer({ ...tc, url }, {} as CloudFixtures);
    await fuzzer.init();
  });
  afterAll(async () => {
    await new Promise((resolve) => fake.close(resolve));
    await tc.cloud.deps.store.db.deleteFrom('roles').where('id', '=', 'oracle-role').execute();
  });

  const built = (raw: Partial<RawRequest> & { path: string }, readsBody = false): Built => ({
    raw: { method: 'GET', headers: { Accept: 'application/json' }, ...raw },
    zone: raw.path.startsWith('/identity') ? 'identity' : 'compute',
    readsBody,
    cleanEnvelope: true,
  });

  it('catches a refused request that changed the database', async () => {
    await expect(
      fuzzer.send(built({ method: 'POST', path: '/compute/v2.1/writes-then-refuses' }), 'self-test'),
    ).rejects.toThrow(/a refused request changed table\(s\) roles/);
  });

  it('catches a 500, a fault in the wrong format, and a stack trace', async () => {
    await expect(fuzzer.send(built({ path: '/compute/v2.1/fails' }), 'self-test')).rejects.toThrow(
      /server error 500/,
    );
    await expect(fuzzer.send(built({ path: '/compute/v2.1/wrong-fault-name' }), 'self-test')).rejects.toThrow(
      /fault name badRequest, expected itemNotFound/,
    );
    await expect(fuzzer.send(built({ path: '/identity/v3/nova-fault' }), 'self-test')).rejects.toThrow(
      /not a Keystone/,
    );
    await expect(fuzzer.send(built({ path: '/compute/v2.1/shows-stack' }), 'self-test')).rejects.toThrow(
      /shows internals/,
    );
  });

  it('catches a body past the limit that was accepted', async () => {
    const body = Buffer.from(JSON.stringify({ pad: 'a'.repeat(200_000) }));
    const res = fuzzer.send(
      built(
        {
          method: 'POST',
          path: '/compute/v2.1/takes-anything',
          body,
          headers: { 'Content-Type': 'application/json' },
        },
        true,
      ),
      'self-test',
    );
    await expect(res).rejects.toThrow(/body was accepted/);
  });

  it('passes a well-formed refusal of the real cloud', async () => {
    const real = new CloudFuzzer(tc, {} as CloudFixtures);
    await real.init();
    const res = await real.send(
      {
        raw: {
          method: 'GET',
          path: '/compute/v2.1/servers/nope',
          headers: {
            'X-Auth-Token': admin.token,
            Accept: 'application/json',
            'OpenStack-API-Version': 'compute 2.60',
          },
        },
        zone: 'compute',
        readsBody: true,
        cleanEnvelope: true,
      },
      'self-test',
    );
    expect(res.status).toBe(404);
    expect(headerOf(res, 'content-type')).toMatch(/^application\/json/);
  });
});
