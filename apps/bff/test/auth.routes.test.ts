import { describe, expect, it } from './helpers/fixtures.js';

describe('sessions', () => {
  it('signs in with Keystone, sets an HttpOnly SameSite cookie, and never returns the token', async ({
    stack,
  }) => {
    const c = stack.client();
    const res = await c.post('/api/session', { username: 'demo', password: 'demo' });
    expect(res.status).toBe(201);
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^sv_session=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(res.body.user.name).toBe('demo');
    expect(res.body.project.name).toBe('demo');
    expect(res.body.isAdmin).toBe(false);
    expect(res.body.capabilities).toMatchObject({
      multiattachEnhancements: true,
      launchStrategy: 'multi-create',
      topologyExtension: true,
    });
    expect(res.text).not.toMatch(/gAAAAA/);
    const again = await c.get('/api/session');
    expect(again.status).toBe(200);
  });

  it('answers a wrong password with a clear 401 and no cookie', async ({ stack }) => {
    const c = stack.client();
    const res = await c.post('/api/session', { username: 'demo', password: 'nope' });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('wrong_credentials');
    expect(c.cookie).toBeNull();
  });

  it('refuses a mutation without the CSRF token', async ({ stack }) => {
    const c = await stack.signIn('demo');
    const res = await c.request('DELETE', '/api/session', undefined, { 'X-CSRF-Token': 'wrong' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('csrf_failed');
    expect((await c.get('/api/session')).status).toBe(200);
  });

  it('logs out, revoking the token', async ({ stack }) => {
    const c = await stack.signIn('demo');
    const session = await stack.sessions.get(decodeURIComponent(c.cookie!.split('=')[1]!));
    expect((await c.delete('/api/session')).status).toBe(204);
    expect((await c.get('/api/session')).status).toBe(401);
    const check = await fetch(`${stack.cloud.url}/volume/v3/${session!.project.id}/volumes`, {
      headers: { 'X-Auth-Token': session!.token },
    });
    expect(check.status).toBe(401);
  });

  it('validates the login body with the shared schema', async ({ stack }) => {
    const res = await stack.client().post('/api/session', { username: '', password: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'invalid_request',
      details: { fields: { username: 'Enter your user name' } },
    });
  });

  it('sends a strict Content-Security-Policy', async ({ stack }) => {
    const res = await stack.client().get('/api/health');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
  });
});

describe('sign-in calls', () => {
  it('asks Keystone for one projects list, revokes the unscoped token off the request path, and keeps discovery per cloud', async ({
    stack,
  }) => {
    const { authService } = await import('../src/features/auth/auth.service.js');
    const { keystoneClient } = await import('../src/openstack/keystone-client.js');
    const { MemorySessionStore } = await import('../src/platform/session-store.js');
    const real = keystoneClient(stack.config.authUrl);
    const asked: string[] = [];
    const revoked: string[] = [];
    const keystone = {
      ...real,
      passwordAuth: (input: Parameters<typeof real.passwordAuth>[0]) => {
        asked.push(input.project ? 'scoped' : 'unscoped');
        return real.passwordAuth(input);
      },
      rescope: (token: string, projectId: string) => {
        asked.push('rescope');
        return real.rescope(token, projectId);
      },
      projects: (token: string) => {
        asked.push('projects');
        return real.projects(token);
      },
      revoke: (token: string) => {
        revoked.push(token);
        return real.revoke(token);
      },
    };
    const auth = authService(
      { ...stack.config, discoveryCacheMs: 60_000 },
      keystone,
      new MemorySessionStore(),
    );
    const session = await auth.login({ username: 'demo', password: 'demo', domain: 'Default' });
    // No default project: a token, the user's projects with it, a token for the first one.
    expect(asked).toEqual(['unscoped', 'projects', 'rescope']);
    expect(session.projects.map((p) => p.name)).toContain('demo');
    expect(session.project.name).toBe('demo');
    expect(revoked).toHaveLength(1);
    expect(revoked[0]).not.toBe(session.token);
    // The unscoped token stops working (revoked off the request path, so soon after the answer).
    await expect
      .poll(
        async () =>
          (await fetch(`${stack.config.authUrl}/auth/projects`, { headers: { 'X-Auth-Token': revoked[0]! } }))
            .status,
      )
      .toBe(401);

    // A project named: one token, then the projects list beside the (kept) discovery.
    asked.length = 0;
    const named = await auth.login({
      username: 'demo',
      password: 'demo',
      domain: 'Default',
      project: 'demo',
    });
    expect(asked).toEqual(['scoped', 'projects']);
    expect(named.capabilities).toEqual(session.capabilities);
  });
});
