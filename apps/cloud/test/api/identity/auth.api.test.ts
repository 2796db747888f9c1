import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, login, startCloud, type TestCloud } from '../../helpers/cloud.js';

let tc: TestCloud;
beforeAll(async () => {
  tc = await startCloud();
});
afterAll(async () => {
  await tc.close();
});

describe('Keystone password authentication', () => {
  it('issues a project-scoped token with implied roles and a catalog built from the request address', async () => {
    const s = await login(tc, 'demo');
    expect(s.token).toMatch(/^gAAAAAB/);
    const res = await http(tc, 'GET', '/identity/v3/auth/tokens', {
      token: s.token,
      headers: { 'X-Subject-Token': s.token },
    });
    expect(res.status).toBe(200);
    expect(res.body.token.roles.map((r: { name: string }) => r.name).sort()).toEqual(['member', 'reader']);
    const types = res.body.token.catalog.map((c: { type: string }) => c.type).sort();
    expect(types).toEqual(['block-storage', 'compute', 'identity', 'image', 'volumev3']);
    const cinder = res.body.token.catalog.find((c: { type: string }) => c.type === 'block-storage');
    expect(cinder.endpoints[0].url).toBe(`${tc.url}/volume/v3/${s.projectId}`);
  });

  it('answers a wrong password with the generic 401', async () => {
    const res = await http(tc, 'POST', '/identity/v3/auth/tokens', {
      body: {
        auth: {
          identity: { methods: ['password'], password: { user: { name: 'demo', domain: { name: 'Default' }, password: 'x' } } },
          scope: { project: { name: 'demo', domain: { name: 'Default' } } },
        },
      },
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      error: { code: 401, message: 'The request you have made requires authentication.', title: 'Unauthorized' },
    });
    expect(res.headers.get('www-authenticate')).toBe(`Keystone uri="${tc.url}/identity/v3"`);
  });
});
