import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runs, seedFor } from '../../../cloud/test/fuzz/hostile.js';
import { sendRaw } from '../../../cloud/test/fuzz/raw-http.js';
import { servedRoutes } from '../../../cloud/test/fuzz/served-routes.js';
import { createBffApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/platform/logger.js';
import { MemorySessionStore } from '../../src/platform/session-store.js';
import { startStack, type TestStack } from '../helpers/stack.js';
import { BffFuzzer, bffRecipeFor } from './bff-fuzzer.js';
import { bffEndpoints, makeBffFixtures } from './bff-inventory.js';

/**
 * Hostile input against every /api route of the BFF (issue 6), signed in as the admin and as a
 * member, in front of the real bundled cloud: what must hold for each request is in bff-fuzzer.ts.
 * FUZZ_RUNS multiplies the runs, FUZZ_SEED changes the seed.
 */

const RUNS_PER_ENDPOINT = runs(20);
const PROPERTY_TIMEOUT = 120_000 * Math.max(1, Number(process.env.FUZZ_RUNS ?? 1));

let stack: TestStack;
let fuzzer: BffFuzzer;
// The single-page app's fallback serves this index, as a built dashboard would.
const webDist = mkdtempSync(join(tmpdir(), 'bff-fuzz-web-'));
writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>dashboard</title>');

beforeAll(async () => {
  stack = await startStack({ bff: { webDist, loginRateLimit: 1_000_000 } });
  const fx = await makeBffFixtures(stack);
  fuzzer = new BffFuzzer(stack, fx);
  await fuzzer.init();
  // One finished launch per role, so GET /api/launches/{id} has real ids to read.
  for (const role of ['admin', 'member'] as const) {
    const s = fuzzer.sessions[role];
    const res = await sendRaw(stack.bffUrl, {
      method: 'POST',
      path: '/api/launches',
      headers: {
        Cookie: `sv_session=${s.cookie}`,
        'X-CSRF-Token': s.csrf,
        'Content-Type': 'application/json',
        Accept: 'application/json',
      },
      body: Buffer.from(
        JSON.stringify({
          name: `fuzz-${role}`,
          count: 1,
          flavorId: '1',
          boot: { source: 'image', imageId: fx.imageId },
        }),
      ),
    });
    if (res.status !== 202) throw new Error(`launch: ${res.status} ${res.text}`);
    const id = (JSON.parse(res.text) as { id: string }).id;
    fx.ids[role].launch.push(id);
    await fuzzer.awaitLaunch(role, id);
  }
}, 120_000);

afterAll(async () => {
  if (fuzzer) console.log(fuzzer.stats.summary('BFF'));
  await stack?.close();
  rmSync(webDist, { recursive: true, force: true });
});

describe('the fuzz covers the whole BFF API', () => {
  it('lists every /api route the app serves, and only those', () => {
    const app = createBffApp({
      config: { ...loadConfig({}), databaseFile: ':memory:', logLevel: 'silent', webDist },
      logger: createLogger('silent'),
      sessions: new MemorySessionStore(),
    });
    const served = servedRoutes(app).filter((r) => r.split(' ')[1]!.startsWith('/api/'));
    const listed = bffEndpoints.map((e) => e.key).sort();
    expect(
      served.filter((r) => !listed.includes(r)),
      'served but not fuzzed: add them to bff-inventory.ts',
    ).toEqual([]);
    expect(
      listed.filter((r) => !served.includes(r)),
      'in bff-inventory.ts but not served',
    ).toEqual([]);
  });
});

describe('BFF endpoints under hostile input', () => {
  it.each(bffEndpoints.map((e) => [e.key, e] as const))(
    '%s',
    async (key, endpoint) => {
      await fc.assert(
        fc.asyncProperty(bffRecipeFor(endpoint), (r) => fuzzer.exercise(r)),
        { numRuns: RUNS_PER_ENDPOINT, seed: seedFor(`bff ${key}`), endOnFailure: true },
      );
    },
    PROPERTY_TIMEOUT,
  );
});
