/**
 * Running one bench module on its own (`npx tsx bench/<name>.bench.ts [--quick]`): a BenchContext
 * from the environment, and its sections printed as markdown, as `npm run bench` would show them.
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { machine } from './stats.js';
import type { BenchContext, BenchSection, Engine } from './types.js';

/** True when `moduleUrl` (the caller's import.meta.url) is the script node was started with. */
export const isMain = (moduleUrl: string): boolean =>
  process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(moduleUrl);

/**
 * Engines sqlite, plus postgres when TEST_DATABASE_URL or DATABASE_URL is a postgres:// URL
 * (BENCH_ENGINES=sqlite narrows it); runs from BENCH_RUNS (default 5, 2 with --quick).
 */
export function standaloneContext(argv: string[] = process.argv.slice(2)): BenchContext {
  const quick = argv.includes('--quick');
  const url = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  const pgUrl = url && /^postgres(ql)?:\/\//.test(url) ? url : undefined;
  const wanted = process.env.BENCH_ENGINES?.split(',').map((e) => e.trim());
  const engines = (['sqlite', ...(pgUrl ? ['postgres'] : [])] as Engine[]).filter(
    (e) => !wanted || wanted.includes(e),
  );
  return {
    engines,
    ...(pgUrl ? { pgUrl } : {}),
    runs: Number(process.env.BENCH_RUNS ?? (quick ? 2 : 5)),
    quick,
    log: (line) => process.stderr.write(`${line}\n`),
  };
}

export function sectionMarkdown(s: BenchSection): string {
  const out: string[] = [`## ${s.title}`, '', `\`${s.command}\``, '', s.method, ''];
  for (const t of s.tables) {
    out.push(`### ${t.title}`, '', `| ${t.columns.join(' | ')} |`);
    out.push(`|${t.columns.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`);
    for (const r of t.rows) out.push(`| ${r.join(' | ')} |`);
    out.push('');
  }
  if (s.verdicts.length) {
    out.push('| target | measured | met |', '|---|---|---|');
    for (const v of s.verdicts) out.push(`| ${v.target} | ${v.measured} | ${v.met ? 'yes' : '**no**'} |`);
    out.push('');
  }
  for (const n of s.notes ?? []) out.push(n, '');
  return out.join('\n');
}

/** Runs a module's `run` with a context from the environment and prints its sections. */
export async function runStandalone(run: (ctx: BenchContext) => Promise<BenchSection[]>): Promise<void> {
  const ctx = standaloneContext();
  const startedOn = machine();
  ctx.log(`engines ${ctx.engines.join(', ')}, ${ctx.runs} runs${ctx.quick ? ' (quick)' : ''}; ${startedOn}`);
  const sections = await run(ctx);
  console.log(`Machine: ${startedOn}.\n`);
  for (const s of sections) console.log(sectionMarkdown(s));
  console.log(`Load average at the end: ${loadavg()[0]?.toFixed(1)}.`);
}
