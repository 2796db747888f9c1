import { spawn, spawnSync } from 'node:child_process';
import {
  accessSync,
  constants,
  createWriteStream,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What the Tempest runs share: finding Debian's `tempest`, writing a workspace from
 * tempest.conf.template, running a list of tests, and reading back one outcome per test.
 * Lists hold test names without their attributes (`…ServersTestJSON.test_list_servers`, not
 * `…test_list_servers[id-…,smoke]`); they are matched against `tempest run --list-tests`.
 */

export const tempestDir = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(tempestDir, '../..');

/** Every compute and volume API test; the lists and the exclusions narrow it down. */
export const API_TESTS_REGEX = '^tempest\\.api\\.(compute|volume)\\.';

/** `selection`: selection.txt; `wider`: every compute and volume API test. exclude.txt applies to both. */
export type TestSet = 'selection' | 'wider';

export interface TempestSummary {
  passed: string[];
  failed: string[];
  skipped: string[];
}

/** `TEMPEST_BIN` when set, else the first executable `tempest` on PATH. */
export function findTempest(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidates = env.TEMPEST_BIN
    ? [env.TEMPEST_BIN]
    : (env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'tempest'));
  return candidates.find((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** The entries of a list file: one per line; blank lines and `#` comments ignored. */
export function readList(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line.length > 0);
}

/** The ids of a test set among the ids Tempest lists. */
export function selectTests(ids: string[], set: TestSet): string[] {
  const patterns = (file: string) => readList(join(tempestDir, file)).map((re) => new RegExp(re));
  const excluded = patterns('exclude.txt');
  const chosen = set === 'wider' ? [new RegExp(API_TESTS_REGEX)] : patterns('selection.txt');
  return ids.filter((id) => {
    const name = testName(id);
    return chosen.some((re) => re.test(name)) && !excluded.some((re) => re.test(name));
  });
}

/** `a.b.C.test_x[id-…,smoke]` → `a.b.C.test_x`. */
export function testName(id: string): string {
  const bracket = id.indexOf('[');
  return bracket === -1 ? id : id.slice(0, bracket);
}

/** The test class of a test id or of a `setUpClass (a.b.C)` fixture. */
export function testClass(id: string): string {
  const fixture = /^\w+ \((.+)\)$/.exec(id);
  if (fixture) return fixture[1]!;
  const name = testName(id);
  return name.slice(0, name.lastIndexOf('.'));
}

/** Fills `{{NAME}}` placeholders; a placeholder left without a value is an error, not a silent gap. */
export function renderTemplate(template: string, values: Record<string, string>): string {
  const body = template
    .split('\n')
    .filter((line) => !line.startsWith('#'))
    .join('\n');
  return body.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`tempest.conf.template: no value for {{${key}}}`);
    return value;
  });
}

export interface CloudValues {
  identityUri: string;
  adminUsername: string;
  adminPassword: string;
  adminProject: string;
  imageRef: string;
  flavorRef: string;
  flavorRefAlt: string;
}

/**
 * The microversions Tempest may use on both clouds: the reference cloud's maxima (Nova 26 / Zed:
 * 2.93, Cinder 21 / Zed: 3.70), so the same tests run, or skip, on both.
 */
export const COMPUTE_MAX_MICROVERSION = '2.93';
export const VOLUME_MAX_MICROVERSION = '3.70';

export interface Workspace {
  dir: string;
  configFile: string;
}

/** A fresh Tempest workspace in `dir` (emptied first) with its tempest.conf. */
export function writeWorkspace(dir: string, cloud: CloudValues, buildTimeoutS = 120): Workspace {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'etc'), { recursive: true });
  mkdirSync(join(dir, 'lock'), { recursive: true });
  const conf = renderTemplate(readFileSync(join(tempestDir, 'tempest.conf.template'), 'utf8'), {
    LOG_FILE: join(dir, 'tempest.log'),
    DEBUG: 'true',
    LOCK_PATH: join(dir, 'lock'),
    ADMIN_USERNAME: cloud.adminUsername,
    ADMIN_PASSWORD: cloud.adminPassword,
    ADMIN_PROJECT: cloud.adminProject,
    IDENTITY_URI: cloud.identityUri,
    IMAGE_REF: cloud.imageRef,
    FLAVOR_REF: cloud.flavorRef,
    FLAVOR_REF_ALT: cloud.flavorRefAlt,
    BUILD_TIMEOUT: String(buildTimeoutS),
    COMPUTE_MAX_MICROVERSION,
    VOLUME_MAX_MICROVERSION,
  });
  const configFile = join(dir, 'etc', 'tempest.conf');
  writeFileSync(configFile, conf);
  // `tempest run` keeps its results in a stestr repository in the working directory.
  const init = spawnSync('stestr', ['init'], { cwd: dir, encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`stestr init failed: ${init.error?.message ?? init.stderr}`);
  return { dir, configFile };
}

/** Test ids (with attributes) that `tempest run --list-tests` finds for a regex. */
export function listTests(tempest: string, ws: Workspace, regex = API_TESTS_REGEX): string[] {
  const r = spawnSync(tempest, ['run', '--config-file', ws.configFile, '--list-tests', '--regex', regex], {
    cwd: ws.dir,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) {
    throw new Error(`tempest run --list-tests failed (exit ${r.status}):\n${r.stderr}${r.stdout}`);
  }
  return r.stdout.split('\n').filter((line) => line.startsWith('tempest.'));
}

/**
 * Resolves names to the ids Tempest knows. Names that match no test are returned apart, so a
 * typo or a test removed upstream shows up instead of silently running nothing.
 */
export function resolveNames(names: string[], ids: string[]): { ids: string[]; unknown: string[] } {
  const byName = new Map(ids.map((id) => [testName(id), id]));
  const found: string[] = [];
  const unknown: string[] = [];
  for (const name of new Set(names)) {
    const id = byName.get(name);
    if (id) found.push(id);
    else unknown.push(name);
  }
  return { ids: found, unknown };
}

export interface RunOptions {
  tempest: string;
  ws: Workspace;
  /** Test ids to run (`--load-list`). */
  ids: string[];
  concurrency: number;
  /** Killed after this long; its tests then count as not run. */
  timeoutMs: number;
}

/** Runs the tests, echoing Tempest's output and keeping a copy in the workspace. Resolves its exit code. */
export async function runTempest(opts: RunOptions): Promise<number> {
  const loadList = join(opts.ws.dir, 'load-list.txt');
  writeFileSync(loadList, `${opts.ids.join('\n')}\n`);
  const out = createWriteStream(join(opts.ws.dir, 'tempest-output.txt'));
  const child = spawn(
    opts.tempest,
    [
      'run',
      '--config-file',
      opts.ws.configFile,
      '--load-list',
      loadList,
      '--concurrency',
      String(opts.concurrency),
    ],
    { cwd: opts.ws.dir, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  for (const stream of [child.stdout, child.stderr]) {
    stream.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      out.write(chunk);
    });
  }
  const timer = setTimeout(() => {
    process.stdout.write(`\n[tempest] still running after ${opts.timeoutMs / 1000} s: stopping it\n`);
    // Its own process group: the stestr workers go with it.
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  }, opts.timeoutMs);
  const code = await new Promise<number>((done) => {
    child.once('error', () => done(1));
    child.once('close', (status) => done(status ?? 1));
  });
  clearTimeout(timer);
  await new Promise<void>((done) => out.end(done));
  return code;
}

/**
 * Status per test name of the workspace's last stored run (`stestr last`), as subunit2csv spells it:
 * success, failure, error, skip, xfail, uxsuccess.
 */
export function readStatuses(ws: Workspace): Map<string, string> {
  const r = spawnSync('sh', ['-c', 'stestr last --subunit | subunit2csv'], {
    cwd: ws.dir,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  // Both exit 1 when the run had failures; what they print is what counts.
  return parseStatusCsv(r.stdout ?? '');
}

/** subunit2csv's output (`test,status,start_time,stop_time`, CRLF lines) → status per test name. */
export function parseStatusCsv(csv: string): Map<string, string> {
  const statuses = new Map<string, string>();
  for (const line of csv.split(/\r?\n/).slice(1)) {
    const row = parseCsvLine(line);
    // By name: a test's attributes in a run can differ from the listing's (`[id-…,slow]` vs `[id-…]`).
    if (row.length >= 2) statuses.set(testName(row[0]!), row[1]!);
  }
  return statuses;
}

function parseCsvLine(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  if (line.length > 0) cells.push(cell);
  return cells;
}

/**
 * One outcome per requested test. A test with no result of its own takes its class fixture's
 * (`setUpClass (…)` failed: failed; skipped: skipped); one that left no trace at all did not run,
 * which is a failure. A class fixture that failed after its tests ran (`tearDownClass`, cleanup)
 * is a failure of its own, as Tempest counts it.
 */
export function summarize(requested: string[], statuses: Map<string, string>): TempestSummary {
  const classFixture = new Map<string, string>();
  const fixtureFailures: string[] = [];
  for (const [id, status] of statuses) {
    if (id.startsWith('tempest.')) continue;
    const cls = testClass(id);
    const failed = status === 'failure' || status === 'error';
    if (failed || !classFixture.has(cls)) classFixture.set(cls, status);
    if (failed && !id.startsWith('setUpClass')) fixtureFailures.push(id);
  }
  const summary: TempestSummary = { passed: [], failed: [], skipped: [] };
  for (const id of requested) {
    const name = testName(id);
    const status = statuses.get(name) ?? classFixture.get(testClass(id));
    if (status === 'success' || status === 'xfail') summary.passed.push(name);
    else if (status === 'skip') summary.skipped.push(name);
    else summary.failed.push(name);
  }
  summary.failed.push(...fixtureFailures);
  return summary;
}
