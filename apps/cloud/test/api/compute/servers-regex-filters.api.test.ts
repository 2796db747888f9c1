import { describe, expect } from 'vitest';
import { SEED_IMAGE_ID } from '../../../src/image/seed.js';
import type { Session, TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { fault, novaClient } from './servers-fixtures.js';

/**
 * Nova's regex query filters (`common_query_regex_param`): every value must be a regular
 * expression (else 400, captures 400-402, 406, 409), and the columns Nova does not match exactly
 * are searched as MySQL's REGEXP does on the recorded cloud: case-insensitive, `|` literal
 * (captures 403, 407, 408). Patterns run on a linear-time engine, which refuses what it cannot
 * run in linear time (backreferences, lookaround) as an invalid pattern.
 */
let tc: TestCloud;
let demo: Session;
let admin: Session;
let nova: ReturnType<typeof novaClient>;
let reservation: string;

const names = (res: { body: { servers: { name: string }[] } }) => res.body.servers.map((s) => s.name).sort();
/** The message quotes the value with Python's repr, which doubles backslashes. */
const notARegex = (param: string, value: string) =>
  fault(
    400,
    `Invalid input for query parameters ${param}. Value: ${value}. '${value.replaceAll('\\', '\\\\')}' is not a 'regex'`,
  );

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  admin = adminSession;
  nova = novaClient(tc, () => demo);
  const boot = async (name: string, session = demo, extra: Record<string, unknown> = {}) => {
    const res = await nova('POST', '/servers', {
      session,
      body: { server: { name, flavorRef: '1', networks: 'none', imageRef: SEED_IMAGE_ID, ...extra } },
    });
    expect(res.status, res.text).toBe(202);
    return res.body;
  };
  await boot('CloudInput-Abc|x');
  await boot(`${'a'.repeat(40)}!`);
  reservation = (await boot('pair', demo, { min_count: 2, return_reservation_id: true })).reservation_id;
  await boot('other-project', admin, { availability_zone: 'az2' });
  await tc.settle();
});

describe('regex query filters', () => {
  it('a value that is not a regular expression is 400, whatever the parameter (400-402, 406, 409)', async () => {
    for (const [param, version] of [
      ['name', '2.60'],
      ['display_name', '2.60'],
      ['availability_zone', '2.60'],
      ['reservation_id', '2.60'],
      ['flavor', '2.60'],
      ['ip', '2.60'],
      ['hostname', '2.90'],
      // Checked before a member's filters are stripped (node is admin-only).
      ['node', '2.60'],
      ['tags', '2.26'],
    ] as const) {
      const res = await nova('GET', `/servers?${param}=(`, { version });
      expect(res.status, param).toBe(400);
      expect(res.body, param).toEqual(notARegex(param, '('));
    }
    expect((await nova('GET', '/servers?key_name=', { version: '2.90' })).body).toEqual(
      notARegex('key_name', ''),
    );
    expect((await nova('GET', '/servers?name=pair&name=(')).body).toEqual(notARegex('name', '('));
    // tags is a regex parameter from 2.26 only.
    expect((await nova('GET', '/servers?tags=(', { version: '2.25' })).status).toBe(200);
  });

  it('a pattern the linear-time engine cannot run is answered as an invalid one', async () => {
    for (const pattern of ['(a)\\1', '(?=a)', '(?<!a)b']) {
      const res = await nova('GET', `/servers?name=${encodeURIComponent(pattern)}`);
      expect(res.status, pattern).toBe(400);
      expect(res.body, pattern).toEqual(notARegex('name', pattern));
    }
  });

  it('name is searched case-insensitively, with | as a literal character (403)', async () => {
    expect(names(await nova('GET', '/servers?name=cloudinput-abc%7Cx'))).toEqual(['CloudInput-Abc|x']);
    expect(names(await nova('GET', '/servers?name=ABC'))).toEqual(['CloudInput-Abc|x']);
    // Not an alternation: neither `pair` nor `nothing` has a literal `pair|nothing`.
    expect(names(await nova('GET', '/servers?name=pair%7Cnothing'))).toEqual([]);
    expect(names(await nova('GET', '/servers?name=%5Epair-%5Cd%24'))).toEqual(['pair-1', 'pair-2']);
  });

  it('a nested quantifier over a long name that does not match answers at once (404)', async () => {
    const started = Date.now();
    const res = await nova('GET', '/servers?name=(a%2B)%2B%24');
    expect(res.status).toBe(200);
    expect(names(res)).toEqual([]);
    // The backtracking engine froze for minutes; 10 s only leaves room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('hostname, availability_zone and reservation_id are regexes too (407, 408)', async () => {
    expect(names(await nova('GET', '/servers?hostname=%5Ecloudinput-ABC', { version: '2.90' }))).toEqual([
      'CloudInput-Abc|x',
    ]);
    expect(names(await nova('GET', '/servers?availability_zone=NOV'))).toHaveLength(4);
    expect(names(await nova('GET', `/servers?reservation_id=%5E${reservation}%24`))).toEqual([
      'pair-1',
      'pair-2',
    ]);
    expect(names(await nova('GET', '/servers?reservation_id=%5Er-'))).toHaveLength(4);
    // Members may filter on key_name from 2.83; no server here has a key pair (NULL never matches).
    expect(names(await nova('GET', '/servers?key_name=.', { version: '2.83' }))).toEqual([]);
  });

  it('node is a regex for admins', async () => {
    const all = await nova('GET', '/servers/detail?all_tenants=1', { session: admin });
    const node = all.body.servers[0]['OS-EXT-SRV-ATTR:hypervisor_hostname'] as string;
    const res = await nova('GET', `/servers?all_tenants=1&node=%5E${node.toUpperCase()}%24`, {
      session: admin,
    });
    expect(res.body.servers.length).toBe(
      all.body.servers.filter(
        (s: Record<string, unknown>) => s['OS-EXT-SRV-ATTR:hypervisor_hostname'] === node,
      ).length,
    );
    expect(res.body.servers.length).toBeGreaterThan(0);
  });
});
