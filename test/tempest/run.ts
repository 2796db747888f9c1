/**
 * `npm run tempest`: Debian's Tempest 33 against a bundled cloud of its own.
 *
 * Starts the cloud on a fresh SQLite file with no backend delay, writes a workspace and tempest.conf
 * from tempest.conf.template (dynamic credentials through the cloud's Keystone admin API), runs the
 * tests of include-list.txt, stops the cloud and writes one outcome per test to
 * .test-results/tempest.json. Exit code 0 only when no test failed.
 *
 *   node --import tsx test/tempest/run.ts [--set include|reference-pass|selection|wider | --list FILE]
 *       [--cloud bundled|reference] [--results FILE] [--write-passes FILE]
 *
 * `--cloud reference` measures the reference cloud instead (see reference/reference-cloud.ts);
 * `--write-passes` writes the names of the tests that passed, sorted, in the lists' format.
 * Environment: TEMPEST_BIN (default: `tempest` on PATH), TEMPEST_CLOUD_PORT (default: a free port),
 * TEMPEST_CONCURRENCY (default 2), TEMPEST_TIMEOUT_S (default 900), TEMPEST_WORKDIR (default .tempest/<cloud>).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type AppProcess, freePort, spawnCloud } from '../reliability/helpers/processes.js';
import {
  type CloudValues,
  findTempest,
  listTests,
  readList,
  readStatuses,
  repoRoot,
  resolveNames,
  runTempest,
  selectTests,
  summarize,
  tempestDir,
  writeWorkspace,
} from './harness.js';
import { openReference } from './reference/reference-cloud.js';

const { values: args } = parseArgs({
  options: {
    set: { type: 'string', default: 'include' },
    list: { type: 'string' },
    cloud: { type: 'string', default: 'bundled' },
    results: { type: 'string', default: join(repoRoot, '.test-results', 'tempest.json') },
    'write-passes': { type: 'string' },
  },
});
const namedLists: Record<string, string> = {
  include: 'include-list.txt',
  'reference-pass': 'reference-pass.txt',
};
const set = args.set!;
if (!args.list && !namedLists[set] && set !== 'selection' && set !== 'wider') {
  throw new Error(`--set must be include, reference-pass, selection or wider (got ${set})`);
}
if (args.cloud !== 'bundled' && args.cloud !== 'reference') {
  throw new Error(`--cloud must be bundled or reference (got ${args.cloud})`);
}
const listFile = args.list
  ? resolve(args.list)
  : namedLists[set]
    ? join(tempestDir, namedLists[set])
    : undefined;
const what = listFile ? relative(repoRoot, listFile) : `the ${set} set`;
const resultsFile = resolve(args.results!);
const workDir = resolve(repoRoot, process.env.TEMPEST_WORKDIR ?? join('.tempest', args.cloud!));
const concurrency = Number(process.env.TEMPEST_CONCURRENCY ?? 2);
const timeoutMs = Number(process.env.TEMPEST_TIMEOUT_S ?? 900) * 1000;
const adminPassword = process.env.OS_ADMIN_PASSWORD ?? 'admin';
const started = Date.now();

const say = (msg: string) => process.stdout.write(`[tempest] ${msg}\n`);

interface Results {
  cloud: string;
  tests: string;
  passed: number;
  failed: number;
  skipped: number;
  /** Names of the tests that failed (and of class fixtures that failed after their tests ran). */
  failures: string[];
  skips: string[];
  note?: string;
  wallSeconds: number;
}

function finish(results: Omit<Results, 'cloud' | 'tests' | 'wallSeconds'>): never {
  const full: Results = {
    cloud: args.cloud!,
    tests: what,
    ...results,
    wallSeconds: Math.round((Date.now() - started) / 1000),
  };
  mkdirSync(dirname(resultsFile), { recursive: true });
  writeFileSync(resultsFile, `${JSON.stringify(full, null, 2)}\n`);
  for (const name of full.failures) say(`FAILED ${name}`);
  if (full.note) say(full.note);
  say(
    `${full.passed} passed, ${full.failed} failed, ${full.skipped} skipped in ${full.wallSeconds} s ` +
      `(${what} on the ${full.cloud} cloud; workspace and logs in ${relative(repoRoot, workDir)}/)`,
  );
  process.exit(full.failed > 0 ? 1 : 0);
}

/** The first active image the bundled cloud lists (the seeded cirros), as Tempest's image_ref. */
async function findImage(cloudUrl: string): Promise<string> {
  const auth = await fetch(`${cloudUrl}/identity/v3/auth/tokens`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      auth: {
        identity: {
          methods: ['password'],
          password: { user: { name: 'admin', domain: { id: 'default' }, password: adminPassword } },
        },
        scope: { project: { name: 'admin', domain: { id: 'default' } } },
      },
    }),
  });
  const token = auth.headers.get('x-subject-token');
  if (!auth.ok || !token) throw new Error(`admin login failed: HTTP ${auth.status}`);
  const res = await fetch(`${cloudUrl}/image/v2/images`, { headers: { 'X-Auth-Token': token } });
  const body = (await res.json()) as { images?: { id: string; status: string }[] };
  const image = body.images?.find((i) => i.status === 'active');
  if (!image) throw new Error(`the cloud lists no active image (HTTP ${res.status})`);
  return image.id;
}

/** A bundled cloud of its own: fresh SQLite file, no backend delay. */
async function openBundled(): Promise<{ values: CloudValues; close(): Promise<void> }> {
  const port = Number(process.env.TEMPEST_CLOUD_PORT ?? (await freePort()));
  say(`starting a bundled cloud on 127.0.0.1:${port} (fresh SQLite in ${relative(repoRoot, workDir)}/)`);
  const cloud: AppProcess = await spawnCloud({
    name: 'tempest-cloud',
    port,
    databaseUrl: `file:${join(workDir, 'cloud.db')}`,
    backendDelayMs: 0,
    env: { CLOUD_HOST: '127.0.0.1', OS_ADMIN_PASSWORD: adminPassword, CLOUD_TAKEOVER_INTERVAL_MS: '0' },
  });
  try {
    return {
      values: {
        identityUri: `${cloud.url}/identity/v3`,
        adminUsername: 'admin',
        adminPassword,
        adminProject: 'admin',
        imageRef: await findImage(cloud.url),
        flavorRef: '1',
        flavorRefAlt: '42',
      },
      async close() {
        await cloud.stop();
        writeFileSync(join(workDir, 'cloud.log'), cloud.output());
      },
    };
  } catch (err) {
    await cloud.stop();
    throw err;
  }
}

const tempest = findTempest();
if (!tempest) {
  finish({
    passed: 0,
    failed: 1,
    skipped: 0,
    failures: ['tempest is not installed'],
    skips: [],
    note: 'tempest is not installed: `apt-get install tempest` (Debian; .ci/run does it), or set TEMPEST_BIN',
  });
}

rmSync(workDir, { recursive: true, force: true });
mkdirSync(workDir, { recursive: true });
let cloud: { values: CloudValues; close(): Promise<void> } | undefined;
try {
  cloud = args.cloud === 'reference' ? await openReference() : await openBundled();
  const ws = writeWorkspace(join(workDir, 'workspace'), cloud.values);
  const known = listTests(tempest, ws);
  const { ids, unknown } = listFile
    ? resolveNames(readList(listFile), known)
    : { ids: selectTests(known, set as 'selection' | 'wider'), unknown: [] };
  say(`running ${ids.length} tests (${what}), concurrency ${concurrency}`);
  const code = ids.length > 0 ? await runTempest({ tempest, ws, ids, concurrency, timeoutMs }) : 0;
  const summary = summarize(ids, ids.length > 0 ? readStatuses(ws) : new Map());
  const failures = [...unknown.map((n) => `${n} (listed, but tempest has no such test)`), ...summary.failed];
  if (code !== 0 && failures.length === 0) failures.push(`tempest run exited ${code} with no failed test`);
  await cloud.close();
  cloud = undefined;
  if (args['write-passes']) {
    writeFileSync(resolve(args['write-passes']), `${[...summary.passed].sort().join('\n')}\n`);
  }
  finish({
    passed: summary.passed.length,
    failed: failures.length,
    skipped: summary.skipped.length,
    failures,
    skips: summary.skipped,
  });
} catch (err) {
  await cloud?.close().catch(() => undefined);
  finish({
    passed: 0,
    failed: 1,
    skipped: 0,
    failures: ['tempest harness'],
    skips: [],
    note: `the run could not complete: ${err instanceof Error ? err.message : String(err)}`,
  });
}
