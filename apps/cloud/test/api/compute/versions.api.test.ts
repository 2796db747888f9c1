import { describe, expect } from 'vitest';
import { http, login, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';

let tc: TestCloud;
const it = cloudTest();
it.beforeAll(async ({ tc: cloud }) => {
  tc = cloud;
});

const media = (v: string) => [
  { base: 'application/json', type: `application/vnd.openstack.compute+json;version=${v}` },
];

describe('compute version discovery', () => {
  it('GET /compute/ lists v2.0 (deprecated) and v2.1 (current, 2.1 to 2.105) without a token', async () => {
    for (const path of ['/compute/', '/compute']) {
      const res = await http(tc, 'GET', path);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        versions: [
          {
            id: 'v2.0',
            status: 'DEPRECATED',
            version: '',
            min_version: '',
            updated: '2011-01-21T11:33:21Z',
            links: [{ rel: 'self', href: `${tc.url}/compute/v2/` }],
          },
          {
            id: 'v2.1',
            status: 'CURRENT',
            version: '2.105',
            min_version: '2.1',
            updated: '2013-07-23T11:33:21Z',
            links: [{ rel: 'self', href: `${tc.url}/compute/v2.1/` }],
          },
        ],
      });
      // The root versions app is not under microversion control.
      expect(res.headers.get('openstack-api-version')).toBeNull();
    }
  });

  it('GET /compute/v2.1/ and /compute/v2.1 answer the version document and echo the microversion', async () => {
    for (const path of ['/compute/v2.1/', '/compute/v2.1']) {
      const res = await http(tc, 'GET', path);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        version: {
          id: 'v2.1',
          status: 'CURRENT',
          version: '2.105',
          min_version: '2.1',
          updated: '2013-07-23T11:33:21Z',
          links: [
            { rel: 'self', href: `${tc.url}/compute/v2.1/` },
            { rel: 'describedby', type: 'text/html', href: 'http://docs.openstack.org/' },
          ],
          'media-types': media('2.1'),
        },
      });
      expect(res.headers.get('openstack-api-version')).toBe('compute 2.1');
      expect(res.headers.get('x-openstack-nova-api-version')).toBe('2.1');
      expect(res.headers.get('vary')).toBe('OpenStack-API-Version, X-OpenStack-Nova-API-Version');
    }
  });

  it('negotiates the version document like any v2.1 resource (latest, out of range, bad format)', async () => {
    const latest = await http(tc, 'GET', '/compute/v2.1/', { version: 'compute latest' });
    expect(latest.status).toBe(200);
    expect(latest.headers.get('openstack-api-version')).toBe('compute 2.105');
    const tooNew = await http(tc, 'GET', '/compute/v2.1/', { version: 'compute 2.200' });
    expect(tooNew.status).toBe(406);
    expect(tooNew.body).toEqual({
      computeFault: {
        code: 406,
        message: 'Version 2.200 is not supported by the API. Minimum is 2.1 and maximum is 2.105.',
      },
    });
    const bad = await http(tc, 'GET', '/compute/v2.1/', {
      headers: { 'OpenStack-API-Version': 'compute 2.x' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.badRequest.message).toBe(
      'API Version String 2.x is of invalid format. Must be of format MajorNum.MinorNum.',
    );
  });

  it('answers 300 choices for other paths of the versions app', async () => {
    const res = await http(tc, 'GET', '/compute/foo/bar');
    expect(res.status).toBe(300);
    expect(res.body).toEqual({
      choices: [
        {
          id: 'v2.0',
          status: 'DEPRECATED',
          links: [{ rel: 'self', href: `${tc.url}/compute/v2/foo/bar` }],
          'media-types': media('2'),
        },
        {
          id: 'v2.1',
          status: 'CURRENT',
          links: [{ rel: 'self', href: `${tc.url}/compute/v2.1/foo/bar` }],
          'media-types': media('2.1'),
        },
      ],
    });
  });

  it('GET /compute/v2/ answers the legacy v2.0 document (SUPPORTED, no microversions) without a token', async () => {
    const res = await http(tc, 'GET', '/compute/v2/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      version: {
        id: 'v2.0',
        status: 'SUPPORTED',
        version: '',
        min_version: '',
        updated: '2011-01-21T11:33:21Z',
        links: [
          { rel: 'self', href: `${tc.url}/compute/v2/` },
          { rel: 'describedby', type: 'text/html', href: 'http://docs.openstack.org/' },
        ],
        'media-types': media('2'),
      },
    });
    expect(res.headers.get('openstack-api-version')).toBeNull();
  });

  it('does not shadow the API: /compute/v2.1/... still needs a token', async () => {
    const res = await http(tc, 'GET', '/compute/v2.1/flavors');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe(401);
    const s = await login(tc, 'demo');
    const ok = await http(tc, 'GET', '/compute/v2.1/flavors', { token: s.token });
    expect(ok.status).toBe(200);
  });
});
