import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCloud, type TestCloud } from '../helpers/cloud.js';
import { type CloudFixtures, makeFixtures } from './cloud-fixtures.js';
import { zoneOf } from './cloud-faults.js';
import { CloudFuzzer, recipeFor } from './cloud-fuzzer.js';
import { cloudEndpoints } from './cloud-inventory.js';
import { ALL_METHODS, hostileSegment, oddQuery, queryString, runs, seedFor } from './hostile.js';
import { servedRoutes } from './served-routes.js';

/**
 * Hostile input against every endpoint of the bundled cloud (issue 6): malformed and wrong-typed
 * JSON, unknown fields, huge strings and arrays, odd Unicode, path tricks, wrong methods, odd headers
 * and query strings, and single-field corruptions of valid bodies, as the admin and as a member.
 * What must hold for every request is in cloud-fuzzer.ts. Runs on SQLite (project `cloud`) and on
 * PostgreSQL (project `cloud-pg`); FUZZ_RUNS multiplies the runs, FUZZ_SEED changes the seed.
 */

const RUNS_PER_ENDPOINT = runs(15);
const RUNS_UNROUTED = runs(80);
const PROPERTY_TIMEOUT = 120_000 * Math.max(1, Number(process.env.FUZZ_RUNS ?? 1));

let tc: TestCloud;
let fx: CloudFixtures;
let fuzzer: CloudFuzzer;

beforeAll(async () => {
  tc = await startCloud();
  fx = await makeFixtures(tc);
  fuzzer = new CloudFuzzer(tc, fx);
  await fuzzer.init();
});

afterAll(async () => {
  if (fuzzer) console.log(fuzzer.summary(`cloud on ${tc.engine}`));
  await tc?.close();
});

describe('the fuzz covers the whole cloud', () => {
  it('lists every route the app serves, and only those', () => {
    const served = servedRoutes(tc.cloud.app);
    const listed = cloudEndpoints.map((e) => e.key).sort();
    expect(
      served.filter((r) => !listed.includes(r)),
      'served but not fuzzed: add them to cloud-inventory.ts',
    ).toEqual([]);
    expect(
      listed.filter((r) => !served.includes(r)),
      'in cloud-inventory.ts but not served',
    ).toEqual([]);
  });
});

describe.each(['identity', 'compute', 'volume', 'image', 'network'] as const)(
  '%s endpoints under hostile input',
  (service) => {
    const endpoints = cloudEndpoints.filter((e) => e.service === service);
    it.each(endpoints.map((e) => [e.key, e] as const))(
      '%s',
      async (key, endpoint) => {
        await fc.assert(
          fc.asyncProperty(recipeFor(endpoint), (r) => fuzzer.exercise(r)),
          { numRuns: RUNS_PER_ENDPOINT, seed: seedFor(key), endOnFailure: true },
        );
      },
      PROPERTY_TIMEOUT,
    );
  },
);

describe('paths no route serves', () => {
  const prefixes = [
    '/identity/v3',
    '/identity',
    '/compute/v2.1',
    '/compute/v2.1/servers/{server}',
    '/compute',
    '/volume/v3/{project}',
    '/volume/v3',
    '/volume',
    '/image/v2',
    '/image',
    '/network/v2.0',
    '/network',
    '',
  ];
  it(
    'answer in the format of the service they fall in, and change nothing',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            prefix: fc.constantFrom(...prefixes),
            segments: fc.array(hostileSegment, { minLength: 1, maxLength: 3 }),
            method: fc.constantFrom(...ALL_METHODS),
            admin: fc.boolean(),
            query: fc.option(oddQuery, { nil: undefined }),
          }),
          async (u) => {
            const session = u.admin ? fx.admin : fx.member;
            const prefix = u.prefix
              .replace('{server}', fx.memberServers[0]!)
              .replace('{project}', session.projectId);
            const path = `${prefix}/${u.segments.join('/')}${u.query ? `?${queryString(u.query)}` : ''}`;
            const zone = zoneOf(path);
            const version = zone === 'volume' ? 'volume 3.71' : 'compute 2.105';
            await fuzzer.send(
              {
                raw: {
                  method: u.method,
                  path,
                  headers: {
                    'X-Auth-Token': session.token,
                    Accept: 'application/json',
                    'OpenStack-API-Version': version,
                  },
                },
                zone,
                readsBody: false,
                cleanEnvelope: true,
              },
              'unrouted',
            );
          },
        ),
        { numRuns: RUNS_UNROUTED, seed: seedFor('unrouted'), endOnFailure: true },
      );
    },
    PROPERTY_TIMEOUT,
  );
});
