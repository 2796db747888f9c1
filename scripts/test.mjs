#!/usr/bin/env node
// `npm test`: typecheck, lint, the login page's bundle size, Vitest, Playwright (when e2e/ has specs),
// then Tempest against a bundled cloud (test/tempest). Every step runs even when an earlier one fails.
// The last line printed is the only one CI reads: `N passed, N failed, N skipped`, where typecheck, lint
// and bundle count as one test each and every Vitest, Playwright and Tempest test counts as one.
// Exit code 0 only when nothing failed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = join(root, '.test-results');
const vitestJson = join(resultsDir, 'vitest.json');
const playwrightJson = join(resultsDir, 'playwright.json');
const tempestJson = join(resultsDir, 'tempest.json');

/** Runs a locally installed CLI with inherited stdio; returns its exit code (1 when it could not run). */
function run(bin, args, env = {}) {
  const local = join(root, 'node_modules', '.bin', bin);
  const [cmd, argv] = existsSync(local) ? [local, args] : ['npx', ['--no', '--', bin, ...args]];
  process.stdout.write(`\n=== ${[bin, ...args].join(' ')}\n`);
  const r = spawnSync(cmd, argv, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.error) {
    process.stderr.write(`could not run ${bin}: ${r.error.message}\n`);
    return 1;
  }
  return r.status ?? 1;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function hasSpecs(dir) {
  if (!existsSync(dir)) return false;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory() ? hasSpecs(path) : entry.name.endsWith('.spec.ts')) return true;
  }
  return false;
}

const steps = [];
const record = (name, passed, failed, skipped, note = '') =>
  steps.push({ name, passed, failed, skipped, note });
const single = (name, code) =>
  record(name, code === 0 ? 1 : 0, code === 0 ? 0 : 1, 0, code === 0 ? '' : `exit ${code}`);

mkdirSync(resultsDir, { recursive: true });

// 1. typecheck (one test)
single('typecheck', run('tsc', ['-b']));

// 2. lint (one test)
single('lint', run('biome', ['check', '.']));

// 3. bundle (one test): builds the web app, then the login page's initial JavaScript must stay under
// its gzipped budget (scripts/bundle-size.mjs)
{
  process.stdout.write('\n=== node scripts/bundle-size.mjs --build\n');
  const r = spawnSync(process.execPath, [join(root, 'scripts/bundle-size.mjs'), '--build'], {
    cwd: root,
    stdio: 'inherit',
  });
  single('bundle', r.error ? 1 : (r.status ?? 1));
}

// 4. vitest: one test per Vitest test, counted by scripts/vitest-summary-reporter.ts
{
  rmSync(vitestJson, { force: true });
  const code = run('vitest', ['run'], { VITEST_RESULTS_FILE: vitestJson });
  const counts = readJson(vitestJson);
  if (!counts) {
    record('vitest', 0, 1, 0, `no results written (exit ${code})`);
  } else {
    let failed = counts.failed + counts.errors;
    let note = counts.errors > 0 ? `${counts.errors} errors outside tests` : '';
    if (code !== 0 && failed === 0) {
      failed = 1;
      note = `exit ${code} with no failed test`;
    }
    record('vitest', counts.passed, failed, counts.skipped, note);
  }
}

// 5. playwright: only when e2e/ holds a spec; one test per Playwright test, from its JSON report
if (hasSpecs(join(root, 'e2e'))) {
  rmSync(playwrightJson, { force: true });
  const code = run('playwright', ['test', '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_FILE: playwrightJson,
  });
  const report = readJson(playwrightJson);
  const stats = report?.stats;
  if (!stats) {
    record('playwright', 0, 1, 0, `no report written (exit ${code})`);
  } else {
    const globalErrors = Array.isArray(report.errors) ? report.errors.length : 0;
    let failed = (stats.unexpected ?? 0) + globalErrors;
    let note = globalErrors > 0 ? `${globalErrors} errors outside tests` : '';
    if (code !== 0 && failed === 0) {
      failed = 1;
      note = `exit ${code} with no failed test`;
    }
    record('playwright', (stats.expected ?? 0) + (stats.flaky ?? 0), failed, stats.skipped ?? 0, note);
  }
} else {
  process.stdout.write('\n=== playwright: skipped (no e2e/**/*.spec.ts yet)\n');
}

// 6. tempest: Debian's Tempest 33 on test/tempest/include-list.txt against a bundled cloud it starts;
// one test per Tempest test. Without tempest installed it writes 1 failed with the reason.
{
  rmSync(tempestJson, { force: true });
  process.stdout.write('\n=== node --import tsx test/tempest/run.ts\n');
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'test/tempest/run.ts')], {
    cwd: root,
    stdio: 'inherit',
  });
  const code = r.error ? 1 : (r.status ?? 1);
  const counts = readJson(tempestJson);
  if (!counts) {
    record('tempest', 0, 1, 0, `no results written (exit ${code})`);
  } else {
    let failed = counts.failed;
    let note = counts.note ?? (failed > 0 ? `failed: ${counts.failures.slice(0, 3).join(', ')}` : '');
    if (code !== 0 && failed === 0) {
      failed = 1;
      note = `exit ${code} with no failed test`;
    }
    record('tempest', counts.passed, failed, counts.skipped, note);
  }
}

const total = { passed: 0, failed: 0, skipped: 0 };
process.stdout.write('\n--- summary\n');
for (const s of steps) {
  total.passed += s.passed;
  total.failed += s.failed;
  total.skipped += s.skipped;
  const status = s.failed > 0 ? 'FAIL' : 'ok';
  const note = s.note ? ` (${s.note})` : '';
  process.stdout.write(
    `${status.padEnd(4)} ${s.name.padEnd(10)} passed=${s.passed} failed=${s.failed} skipped=${s.skipped}${note}\n`,
  );
}
process.stdout.write(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped\n`);
process.exitCode = total.failed > 0 ? 1 : 0;
