import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startStack, type TestStack } from './helpers/stack.js';

/**
 * Issue 11, finding 11: signing in again over a signed-in session left the old session and its
 * Keystone token valid. Whoever held the old cookie (or the token) kept the old user's access.
 */

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack.close();
});

const sessionIdOf = (c: ApiClient) => decodeURIComponent(c.cookie!.split('=')[1]!);

/** Whether the cloud still takes a token (Cinder's volume list as its owner). */
async function tokenWorks(token: string, projectId: string): Promise<boolean> {
  const res = await fetch(`${stack.cloud.url}/volume/v3/${projectId}/volumes`, {
    headers: { 'X-Auth-Token': token },
  });
  if (res.status !== 200 && res.status !== 401) throw new Error(`unexpected ${res.status}`);
  return res.status === 200;
}

describe('signing in over a signed-in session', () => {
  it('ends the old session and revokes its token, for another user and for the same one', async () => {
    for (const next of ['admin', 'demo']) {
      const c = await stack.signIn('demo');
      const oldCookie = c.cookie!;
      const old = (await stack.sessions.get(sessionIdOf(c)))!;
      expect(await tokenWorks(old.token, old.project.id)).toBe(true);

      const again = await c.post('/api/session', { username: next, password: next });
      expect(again.status).toBe(201);
      expect(c.cookie).not.toBe(oldCookie);

      expect(await stack.sessions.get(old.id)).toBeNull();
      const replay = await fetch(`${stack.bffUrl}/api/session`, { headers: { Cookie: oldCookie } });
      expect({ next, status: replay.status }).toEqual({ next, status: 401 });
      expect({ next, tokenWorks: await tokenWorks(old.token, old.project.id) }).toEqual({
        next,
        tokenWorks: false,
      });
      // The new session is the one that works.
      expect((await c.get('/api/session')).body.user.name).toBe(next);
    }
  });

  it('keeps the session when the new sign-in fails', async () => {
    const c = await stack.signIn('demo');
    const old = (await stack.sessions.get(sessionIdOf(c)))!;
    const wrong = await c.post('/api/session', { username: 'admin', password: 'wrong' });
    expect(wrong.status).toBe(401);
    expect((await c.get('/api/session')).body.user.name).toBe('demo');
    expect(await tokenWorks(old.token, old.project.id)).toBe(true);
  });

  it('signing out also ends the session and revokes its token', async () => {
    const c = await stack.signIn('demo');
    const old = (await stack.sessions.get(sessionIdOf(c)))!;
    expect((await c.delete('/api/session')).status).toBe(204);
    expect(await stack.sessions.get(old.id)).toBeNull();
    expect(await tokenWorks(old.token, old.project.id)).toBe(false);
  });
});
