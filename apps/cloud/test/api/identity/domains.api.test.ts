import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, login, type Session, startCloud, type TestCloud } from '../../helpers/cloud.js';
import { expectKeystoneError, forbiddenMessage } from './identity-helpers.js';

let tc: TestCloud;
let admin: Session;
let demo: Session;
beforeAll(async () => {
  tc = await startCloud();
  admin = await login(tc, 'admin');
  demo = await login(tc, 'demo');
});
afterAll(async () => {
  await tc.close();
});

const DEFAULT_DOMAIN = () => ({
  id: 'default',
  name: 'Default',
  description: 'The default domain',
  enabled: true,
  tags: [],
  options: {},
  links: { self: `${tc.url}/identity/v3/domains/default` },
});

describe('domains (read-only)', () => {
  it('lists the Default domain for admins, with name and enabled filters', async () => {
    const res = await http(tc, 'GET', '/identity/v3/domains', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      domains: [DEFAULT_DOMAIN()],
      links: { next: null, self: `${tc.url}/identity/v3/domains`, previous: null },
    });
    const named = await http(tc, 'GET', '/identity/v3/domains?name=Default', { token: admin.token });
    expect(named.body.domains).toHaveLength(1);
    const disabled = await http(tc, 'GET', '/identity/v3/domains?enabled=false', { token: admin.token });
    expect(disabled.body.domains).toEqual([]);
    expectKeystoneError(
      await http(tc, 'GET', '/identity/v3/domains', { token: demo.token }),
      403,
      forbiddenMessage('list_domains'),
    );
  });

  it('shows a domain to admins and to tokens scoped inside it; 404 for a missing one', async () => {
    for (const token of [admin.token, demo.token]) {
      const res = await http(tc, 'GET', '/identity/v3/domains/default', { token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ domain: DEFAULT_DOMAIN() });
    }
    expectKeystoneError(
      await http(tc, 'GET', '/identity/v3/domains/nosuch', { token: admin.token }),
      404,
      'Could not find domain: nosuch.',
    );
    expectKeystoneError(
      await http(tc, 'GET', '/identity/v3/domains/nosuch', { token: demo.token }),
      403,
      forbiddenMessage('get_domain'),
    );
  });

  it('offers no way to create or delete a domain', async () => {
    const post = await http(tc, 'POST', '/identity/v3/domains', {
      token: admin.token,
      body: { domain: { name: 'x' } },
    });
    expectKeystoneError(post, 405, 'The method is not allowed for the requested URL.');
  });
});
