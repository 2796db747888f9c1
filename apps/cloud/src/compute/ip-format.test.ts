import { describe, expect, it } from 'vitest';
import { compactIpv6 } from './ip-format.js';

describe('compactIpv6 (netaddr str() of an IPv6 address)', () => {
  it('prints addresses as Nova shows them', () => {
    const cases: [string, string][] = [
      ['0000:0000:0000:0000:0000:babe:220.12.22.2', '::babe:dc0c:1602'],
      ['1:0:2:3:4:5:6:7', '1:0:2:3:4:5:6:7'],
      ['::ffff:1.2.3.4', '::ffff:1.2.3.4'],
      ['1:0:0:2:0:0:0:3', '1:0:0:2::3'],
      ['2001:2001::3', '2001:2001::3'],
      ['::', '::'],
      ['1::', '1::'],
      ['::1', '::1'],
      ['0:0:1:0:0:1:0:0', '::1:0:0:1:0:0'],
      ['::1.2.3.4', '::1.2.3.4'],
      ['ABCD::1', 'abcd::1'],
      ['::ffff', '::ffff'],
      ['::1:0', '::0.1.0.0'],
      ['::ffff:0:0', '::ffff:0.0.0.0'],
      ['::ffff:ffff', '::255.255.255.255'],
      ['0::0:ffff:1:2', '::ffff:0.1.0.2'],
      ['::babe:202:202', '::babe:202:202'],
    ];
    for (const [given, shown] of cases) expect(compactIpv6(given), given).toBe(shown);
  });
});
