/**
 * `npm run bench`: every bench module on SQLite, and on PostgreSQL when TEST_DATABASE_URL or
 * DATABASE_URL is a postgres:// URL; prints each section's tables and a summary of every verdict, and
 * writes docs/benchmarks.md. Exits 0 when targets are missed (the file says so), 1 when a module
 * crashed.
 *
 *   npm run bench                                # everything, 5 runs per figure
 *   npm run bench -- --quick                     # few runs, small sizes: a smoke check
 *   npm run bench -- --only dashboard,bff --runs 3
 *   npm run bench -- --no-write                  # print only
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createClient } from '@libsql/client';
import pg from 'pg';
import {
  keptModules,
  type ModuleOutcome,
  reportMarkdown,
  type RunHeader,
  sectionText,
  summaryText,
} from './lib/report.js';
import { machine, stopwatch } from './lib/stats.js';
import type { BenchContext, BenchModule, Engine } from './lib/types.js';
import { CHROMIUM, repoRoot } from './lib/web.js';

/** The suite, in the order it runs and is reported. */
const MODULES = [
  { name: 'multi-create', title: 'Multi-create', file: 'bench/multi-create.bench.ts' },
  { name: 'attach-cycle', title: 'Attach and detach', file: 'bench/attach-cycle.bench.ts' },
  { name: 'reads-at-scale', title: 'Reads at scale', file: 'bench/reads-at-scale.bench.ts' },
  { name: 'dashboard', title: 'Dashboard', file: 'bench/dashboard.bench.ts' },
  { name: 'bff', title: 'BFF overhead', file: 'bench/bff-overhead.bench.ts' },
  { name: 'roundtrips', title: 'Round trips', file: 'bench/roundtrips.bench.ts' },
] as const;

const USAGE = `usage: npm run bench -- [--quick] [--only ${MODULES.map((m) => m.name).join(',')}] [--runs N] [--no-write]`;

interface Options {
  quick: boolean;
  only: Set<string> | null;
  runs: number | null;
  write: boolean;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { quick: false, only: null, runs: null, write: true };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value\n${USAGE}`);
      return v;
    };
    if (flag === '--quick') o.quick = true;
    else if (flag === '--no-write') o.write = false;
    else if (flag === '--only')
      o.only = new Set(
        value()
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      );
    else if (flag === '--runs') {
      o.runs = Number(value());
      if (!Number.isInteger(o.runs) || o.runs < 1)
        throw new Error(`--runs takes a whole number ≥ 1\n${USAGE}`);
    } else if (flag === '--help' || flag === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else throw new Error(`unknown argument ${arg}\n${USAGE}`);
  }
  const unknown = [...(o.only ?? [])].filter((n) => !MODULES.some((m) => m.name === n));
  if (unknown.length) throw new Error(`no such module: ${unknown.join(', ')}\n${USAGE}`);
  return o;
}

const log = (line: string) => process.stderr.write(`${line}\n`);

/** The PostgreSQL URL to use, or why PostgreSQL is not run. */
async function postgres(): Promise<{ url?: string; version?: string; why?: string }> {
  const candidates = [
    ['TEST_DATABASE_URL', process.env.TEST_DATABASE_URL],
    ['DATABASE_URL', process.env.DATABASE_URL],
  ] as const;
  const found = candidates.find(([, v]) => v && /^postgres(ql)?:\/\//.test(v));
  if (!found) return { why: 'neither TEST_DATABASE_URL nor DATABASE_URL is a postgres:// URL' };
  const wanted = process.env.BENCH_ENGINES?.split(',').map((e) => e.trim());
  if (wanted && !wanted.includes('postgres')) return { why: `BENCH_ENGINES=${process.env.BENCH_ENGINES}` };
  const url = found[1]!;
  const where = (() => {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}, from ${found[0]}`;
  })();
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    const r = await client.query<{ version: string }>('select version()');
    return { url, version: `${r.rows[0]!.version.replace(/ on .*$/, '')} (${where})` };
  } catch (err) {
    return { why: `${where} did not answer: ${(err as Error).message}` };
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function sqliteVersion(): Promise<string> {
  const client = createClient({ url: ':memory:' });
  try {
    const r = await client.execute('select sqlite_version() as v');
    const pkg = JSON.parse(
      readFileSync(join(repoRoot, 'node_modules/@libsql/client/package.json'), 'utf8'),
    ) as {
      version: string;
    };
    return `${String(r.rows[0]?.v)} through @libsql/client ${pkg.version} (a file in a temp dir, WAL)`;
  } finally {
    client.close();
  }
}

function tryRun(cmd: string, args: string[]): string | null {
  try {
    return execFileSync(cmd, args, {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 20_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return null;
  }
}

function gitCommit(): string {
  const head = tryRun('git', ['rev-parse', '--short', 'HEAD']);
  if (!head) return 'unknown (not a git checkout)';
  // --no-optional-locks: reading the status must not rewrite the index under anyone's feet.
  const status = tryRun('git', ['--no-optional-locks', 'status', '--porcelain']);
  return status ? `\`${head}\`, dirty (uncommitted changes)` : `\`${head}\``;
}

const duration = (s: number) =>
  s < 120 ? `${Math.round(s)} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;

async function main(): Promise<number> {
  const opts = parseArgs(process.argv.slice(2));
  const total = stopwatch();
  const startedAt = new Date();
  // Before any module runs: what a module writes (a recorded run) must not make the tree look dirty.
  const commit = gitCommit();
  const loadAtStart = loadavg()[0]!;
  const pgInfo = await postgres();
  const engines: Engine[] = ['sqlite', ...(pgInfo.url ? (['postgres'] as const) : [])];
  const runs = opts.runs ?? Number(process.env.BENCH_RUNS ?? (opts.quick ? 2 : 5));
  const ctx: BenchContext = {
    engines,
    ...(pgInfo.url ? { pgUrl: pgInfo.url } : {}),
    runs,
    quick: opts.quick,
    log,
  };
  const sqlite = await sqliteVersion();
  const startedOn = machine();
  log(`bench: ${startedOn}`);
  log(
    `bench: engines ${engines.join(', ')}${pgInfo.why ? ` (PostgreSQL not run: ${pgInfo.why})` : ''}; ${runs} runs per figure${opts.quick ? ', quick' : ''}`,
  );

  // A promise a module forgot would otherwise end the whole run; count it against that module.
  let stray: unknown = null;
  process.on('unhandledRejection', (err) => {
    stray = err;
    log(`bench: unhandled rejection: ${(err as Error)?.stack ?? String(err)}`);
  });

  const outcomes: ModuleOutcome[] = [];
  for (const m of MODULES) {
    const base = { name: m.name, title: m.title, file: m.file, sections: [] };
    if (opts.only && !opts.only.has(m.name)) {
      outcomes.push({ ...base, status: 'skipped' });
      continue;
    }
    const path = join(repoRoot, m.file);
    if (!existsSync(path)) {
      log(`bench: ${m.name}: not run, ${m.file} is missing`);
      outcomes.push({ ...base, status: 'missing' });
      continue;
    }
    log(`bench: ${m.name} (${m.file})`);
    const took = stopwatch();
    stray = null;
    try {
      const mod = (await import(pathToFileURL(path).href)) as Partial<BenchModule>;
      if (typeof mod.run !== 'function') throw new Error(`${m.file} does not export run(ctx)`);
      const sections = await mod.run(ctx);
      if (stray) throw stray;
      outcomes.push({ ...base, status: 'ok', sections, seconds: took() / 1000 });
      for (const s of sections) process.stdout.write(`\n${sectionText(s)}`);
    } catch (err) {
      const error = err instanceof Error ? (err.stack ?? err.message) : String(err);
      log(`bench: ${m.name} crashed: ${error}`);
      outcomes.push({ ...base, status: 'crashed', error, seconds: took() / 1000 });
    }
  }

  const file = join(repoRoot, 'docs/benchmarks.md');
  // With --only, the modules left out keep what the file's previous run wrote about them.
  if (opts.only && opts.write && existsSync(file)) {
    const kept = keptModules(readFileSync(file, 'utf8'), MODULES);
    for (const o of outcomes) {
      const k = o.status === 'skipped' ? kept.get(o.name) : undefined;
      if (k) o.kept = k;
    }
  }
  const keptNames = outcomes.filter((o) => o.kept).map((o) => o.name);
  const date = `${startedAt
    .toISOString()
    .replace('T', ' ')
    .replace(/:\d\d\.\d+Z$/, ' UTC')}`;
  const header: RunHeader = {
    quick: opts.quick,
    rows: [
      ['date', date],
      [
        'command',
        `\`npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\``,
      ],
      ['git commit', commit],
      ...(keptNames.length > 0
        ? [
            [
              'kept from earlier runs',
              `${keptNames.join(', ')}: not run in this run, kept as their own runs wrote them (the table under Summary says which; the rows below describe this run)`,
            ] as [string, string],
          ]
        : []),
      ['machine', startedOn],
      ['SQLite', sqlite],
      ['PostgreSQL', pgInfo.version ?? `not run: ${pgInfo.why}`],
      ['Chromium', `${tryRun(CHROMIUM, ['--version'])?.split('\n').at(-1) ?? 'not found'} (\`${CHROMIUM}\`)`],
      ['runs', `${runs} per figure, the median reported${opts.quick ? ' (`--quick`)' : ''}`],
      [
        'load average (1 min)',
        `${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end, on ${cpus().length} cores`,
      ],
      ['took', duration(total() / 1000)],
    ],
  };

  process.stdout.write(`\n== Summary ==\n${summaryText(outcomes)}\n`);
  if (opts.write) {
    writeFileSync(file, reportMarkdown(header, outcomes, `${date}, ${commit}`));
    log(`bench: wrote docs/benchmarks.md`);
  }
  const crashed = outcomes.filter((o) => o.status === 'crashed');
  if (crashed.length) log(`bench: crashed: ${crashed.map((c) => c.name).join(', ')}`);
  return crashed.length ? 1 : 0;
}

try {
  process.exitCode = await main();
} catch (err) {
  log((err as Error).message);
  process.exitCode = 2;
}
// Whatever a module left open (a pool, a keep-alive socket) must not keep the run alive.
setTimeout(() => process.exit(), 1_000).unref();
