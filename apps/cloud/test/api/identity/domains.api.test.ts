import { describe, expect } from 'vitest';
import { http, type Session, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { expectKeystoneError, forbiddenMessage } from './identity-helpers.js';

let tc: TestCloud;
let admin: Session;
let demo: Session;
const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  admin = adminSession;
  demo = demoSession;
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
